/**
 * With ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL set, the server itself builds the anthropic
 * provider (no test override), runs a real session through the SDK, and logs every model
 * call to llm_calls with its session, tokens, cache reads and outcome (SPEC §7).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeReplies, startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic';
import { startTestServer, type TestServer } from '../helpers/test-server';

let fake: FakeAnthropic;
let server: TestServer;

beforeEach(async () => {
  fake = await startFakeAnthropic();
  server = await startTestServer({
    env: { LLM_PROVIDER: 'auto', ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url, TUTOR_MODEL: 'tutor-model-x', EVALUATOR_MODEL: 'evaluator-model-y' },
  });
});
afterEach(async () => {
  await server.close();
  await fake.close();
});

describe('the configured anthropic provider', () => {
  it('reports itself in health, uses the configured models and writes llm_calls rows', async () => {
    expect((await server.api<{ tutor: string }>('GET', '/api/health')).body.tutor).toBe('anthropic');
    fake.enqueue('tutor', fakeReplies.text('Hello! What do you remember about cells?'));
    fake.enqueue('tutor', fakeReplies.text('Good — tell me more.'));
    const { token } = await server.register();
    const set = await server.createSet(token, ['mitochondria make ATP', 'ribosomes build proteins']);
    const sessionId = await server.createSession(token, set.id);
    const client = await server.connect(sessionId, token);
    await client.waitFor('assistant');
    const start = client.events.length;
    client.send({ type: 'chat', payload: { message: 'something about energy' } });
    await client.waitFor('state_update', { from: start });
    client.close();

    expect(fake.requestsFor('tutor').map((request) => request.body.model)).toEqual(['tutor-model-x', 'tutor-model-x']);
    expect(fake.requestsFor('evaluator').map((request) => request.body.model)).toEqual(['evaluator-model-y']);
    // Read through the storage port, which lists a session's calls: the safety gate's call is
    // made before a message belongs to a turn (no session, no learner), so it is not among them.
    const rows = await server.server.storage.read((reader) => reader.llmCalls.listBySession(sessionId));
    expect(rows.map((row) => row.purpose).sort()).toEqual(['evaluator', 'tutor', 'tutor']);
    for (const row of rows) {
      expect(row).toMatchObject({ provider: 'anthropic', outcome: 'ok', sessionId });
      expect(row.inputTokens).toBeGreaterThan(0);
      expect(row.latencyMs).toBeGreaterThanOrEqual(0);
    }
  });
});
