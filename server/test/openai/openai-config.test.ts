/**
 * With only OPENAI_API_KEY and OPENAI_BASE_URL set (LLM_PROVIDER=auto), the server itself
 * builds the `openai` provider (no test override), reports it in `GET /api/health`, runs a
 * real session through the `openai` SDK with the model configured for each role, and logs
 * every model call to llm_calls with its session, tokens, cached tokens and outcome (SPEC §7).
 * The counterpart of anthropic/anthropic-config.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HealthResponse } from '@tutorloop/shared';
import { openAiReplies, startFakeOpenAi, type FakeOpenAi } from '../helpers/fake-openai';
import { startTestServer, type TestServer } from '../helpers/test-server';

let fake: FakeOpenAi;
let server: TestServer;

beforeEach(async () => {
  fake = await startFakeOpenAi();
  server = await startTestServer({
    env: {
      LLM_PROVIDER: 'auto',
      ANTHROPIC_API_KEY: '',
      OPENAI_API_KEY: 'test-key',
      OPENAI_BASE_URL: fake.url,
      TUTOR_MODEL: 'qwen2.5:14b',
      EVALUATOR_MODEL: 'qwen2.5:7b',
      SAFETY_MODEL: 'llama-guard3:1b',
    },
  });
});
afterEach(async () => {
  await server.close();
  await fake.close();
});

describe('the configured openai provider', () => {
  it('reports itself in health, uses the model of each role and writes llm_calls rows with cached tokens', async () => {
    expect((await server.api<HealthResponse>('GET', '/api/health')).body.tutor).toBe('openai');
    fake.enqueue('tutor', openAiReplies.text('Hello! What do you remember about cells?', { usage: { prompt_tokens: 1200, completion_tokens: 14, cached_tokens: 0 } }));
    fake.enqueue('tutor', openAiReplies.text('Good — tell me more.', { usage: { prompt_tokens: 1300, completion_tokens: 7, cached_tokens: 1152 } }));
    const { token } = await server.register();
    const set = await server.createSet(token, ['mitochondria make ATP', 'ribosomes build proteins']);
    const sessionId = await server.createSession(token, set.id);
    const client = await server.connect(sessionId, token);
    await client.waitFor('assistant');
    const start = client.events.length;
    client.send({ type: 'chat', payload: { message: 'something about energy' } });
    await client.waitFor('state_update', { from: start });
    client.close();

    expect(fake.requestsFor('tutor').map((request) => request.body.model)).toEqual(['qwen2.5:14b', 'qwen2.5:14b']);
    expect(fake.requestsFor('evaluator').map((request) => request.body.model)).toEqual(['qwen2.5:7b']);
    expect(fake.requestsFor('safety').map((request) => request.body.model)).toEqual(['llama-guard3:1b']);
    expect(fake.requests.every((request) => request.headers['authorization'] === 'Bearer test-key')).toBe(true);
    // Read through the storage port, which lists a session's calls: the safety gate's call is
    // made before a message belongs to a turn (no session, no learner), so it is not among them.
    const rows = await server.server.storage.read((reader) => reader.llmCalls.listBySession(sessionId));
    expect(rows.map((row) => row.purpose).sort()).toEqual(['evaluator', 'tutor', 'tutor']);
    for (const row of rows) {
      expect(row).toMatchObject({ provider: 'openai', outcome: 'ok', sessionId });
      expect(row.inputTokens).toBeGreaterThan(0);
      expect(row.latencyMs).toBeGreaterThanOrEqual(0);
    }
    const tutorRows = rows.filter((row) => row.purpose === 'tutor').map((row) => [row.model, row.inputTokens, row.outputTokens, row.cacheReadTokens]);
    expect(tutorRows.sort()).toEqual([
      ['qwen2.5:14b', 1200, 14, 0],
      ['qwen2.5:14b', 148, 7, 1152],
    ]);
  });
});
