/**
 * The real server with the `anthropic` provider on the real SDK, pointed at a fake Messages
 * API on loopback: what the integration tests of SPEC §7 run against.
 */
import type { Clock } from '../../src/core/ports';
import type { LlmCallRecord } from '../../src/llm/llm-client';
import { createModelProvider } from '../../src/llm/model-provider';
import { createAnthropicClient } from '../../src/llm/transports/anthropic';
import { startFakeAnthropic, type FakeAnthropic } from './fake-anthropic';
import { startTestServer, type TestServer } from './test-server';

export interface AnthropicTestServer {
  fake: FakeAnthropic;
  server: TestServer;
  /** Every HTTP request the SDK client made, as it would be written to llm_calls. */
  records: LlmCallRecord[];
  close(): Promise<void>;
}

export async function startAnthropicTestServer(options: { timeoutMs?: number; env?: Record<string, string>; clock?: Clock } = {}): Promise<AnthropicTestServer> {
  const fake = await startFakeAnthropic();
  const records: LlmCallRecord[] = [];
  const client = createAnthropicClient({
    apiKey: 'test-key',
    baseURL: fake.url,
    timeoutMs: options.timeoutMs ?? 2000,
    retryBaseDelayMs: 1,
    retryMaxDelayMs: 10,
    recordCall: (record) => records.push(record),
  });
  const server = await startTestServer({
    provider: createModelProvider({ name: 'anthropic', client, tutorModel: 'claude-sonnet-4-6', evaluatorModel: 'claude-haiku-4-5' }),
    ...(options.env ? { env: options.env } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  return {
    fake,
    server,
    records,
    async close() {
      await server.close();
      await fake.close();
    },
  };
}
