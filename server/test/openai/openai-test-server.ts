/**
 * The real server with the `openai` provider on the real `openai` SDK, pointed at a fake
 * Chat Completions API on loopback: what the OpenAI-path integration tests (SPEC §7) run
 * against — the counterpart of helpers/anthropic-test-server.ts.
 */
import type { Clock } from '../../src/core/ports';
import type { LlmCallRecord } from '../../src/llm/llm-client';
import { createModelProvider } from '../../src/llm/model-provider';
import { createOpenAiClient } from '../../src/llm/transports/openai';
import { startFakeOpenAi, type FakeOpenAi, type RecordedOpenAiRequest } from '../helpers/fake-openai';
import { startTestServer, type TestServer } from '../helpers/test-server';

export const testModels = { tutor: 'gpt-4.1', evaluator: 'gpt-4.1-mini' } as const;

export interface OpenAiTestServer {
  fake: FakeOpenAi;
  server: TestServer;
  /** Every HTTP request the SDK client made, as it would be written to llm_calls. */
  records: LlmCallRecord[];
  close(): Promise<void>;
}

export async function startOpenAiTestServer(options: { timeoutMs?: number; env?: Record<string, string>; clock?: Clock } = {}): Promise<OpenAiTestServer> {
  const fake = await startFakeOpenAi();
  const records: LlmCallRecord[] = [];
  const client = createOpenAiClient({
    apiKey: 'test-key',
    baseURL: fake.url,
    timeoutMs: options.timeoutMs ?? 2000,
    retryBaseDelayMs: 1,
    retryMaxDelayMs: 10,
    recordCall: (record) => records.push(record),
  });
  const server = await startTestServer({
    provider: createModelProvider({ name: 'openai', client, tutorModel: testModels.tutor, evaluatorModel: testModels.evaluator }),
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

/** The request's one system message: the instructions, then (for the tutor) the per-turn context. */
export function systemText(request: RecordedOpenAiRequest): string {
  const system = request.body.messages.filter((message) => message.role === 'system');
  if (system.length !== 1 || typeof system[0]!.content !== 'string') throw new Error(`expected one system message, got ${JSON.stringify(system)}`);
  return system[0]!.content;
}

/** The text of the first user message (the evaluator's and the safety gate's whole prompt). */
export function userPrompt(request: RecordedOpenAiRequest): string {
  const user = request.body.messages.find((message) => message.role === 'user');
  if (!user || typeof user.content !== 'string') throw new Error('expected a user message');
  return user.content;
}

/** The messages after the system message: the conversation as the model sees it. */
export function conversationOf(request: RecordedOpenAiRequest): RecordedOpenAiRequest['body']['messages'] {
  return request.body.messages.filter((message) => message.role !== 'system');
}
