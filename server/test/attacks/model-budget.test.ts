/**
 * Regression tests for attacks on the per-learner model budget (SPEC §8, issue 22 item 4):
 * every operation that calls a model is charged to one budget per learner, session creation
 * is throttled, and a daily token budget is summed from llm_calls. Before: `retry` frames were
 * free (51 tutor replies in 8 s after the turn budget was spent), sessions could be created
 * without limit — each one's opening reply a model call — and nothing counted tokens.
 *
 * The offline provider is a model too: the operations are charged whatever the provider, so
 * these run offline; the last test runs the real Anthropic SDK against the fake Messages API.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerEvent } from '@tutorloop/shared';
import { startFakeAnthropic, fakeReplies, type FakeAnthropic } from '../helpers/fake-anthropic';
import { startTestServer, type SocketClient, type TestServer } from '../helpers/test-server';

let server: TestServer | undefined;
let fake: FakeAnthropic | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
  await fake?.close();
  fake = undefined;
});

/** A clock that stands still until the test moves it: refills and retry times are exact. */
function manualClock(start: string) {
  let now = Date.parse(start);
  return { now: () => new Date(now), advance: (ms: number) => void (now += ms) };
}

type ErrorEvent = Extract<ServerEvent, { type: 'error' }>;
type AssistantEvent = Extract<ServerEvent, { type: 'assistant' }>;

async function learnerWithSession(target: TestServer) {
  const { token, learner } = await target.register();
  const set = await target.createSet(token, ['mitochondria make ATP', 'ribosomes build proteins', 'the nucleus stores DNA']);
  const sessionId = await target.createSession(token, set.id);
  return { token, learnerId: learner.id, setId: set.id, sessionId };
}

/** The next `assistant` or `error` event after index `from`. */
async function nextAnswer(client: SocketClient, from: number, timeoutMs = 10_000): Promise<AssistantEvent | ErrorEvent> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = client.events.slice(from).find((event): event is AssistantEvent | ErrorEvent => event.type === 'assistant' || event.type === 'error');
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no answer; got ${JSON.stringify(client.events.slice(from).map((event) => event.type))}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** How many messages the session has stored (only `role`'s when given), replies replaced by a retry included: read through the storage port. */
async function storedMessages(target: TestServer, sessionId: string, role?: 'learner' | 'tutor' | 'tool_result'): Promise<number> {
  const messages = await target.server.storage.read((reader) => reader.messages.list(sessionId, { includeSuperseded: true }));
  return messages.filter((message) => role === undefined || message.role === role).length;
}

const assistants = (client: SocketClient) => client.events.filter((event): event is AssistantEvent => event.type === 'assistant');

describe('the model budget (SPEC §8: every operation that calls a model is charged)', () => {
  it('refuses retry frames once the budget is spent: the tutor replies at most the budget, and the last reply stays (issue 22: 51 replies in 8 s)', async () => {
    const clock = manualClock('2026-03-02T09:00:00.000Z');
    server = await startTestServer({ clock, env: { TURN_RATE_LIMIT: '4', WS_RATE_LIMIT: '1000' } });
    const { token, sessionId } = await learnerWithSession(server);
    const client = await server.connect(sessionId, token);
    let last = (await client.waitFor('assistant', { timeoutMs: 10_000 })).payload.messageId;

    // The attack: ask for the last reply again as soon as it arrives, over and over.
    let refusal: ErrorEvent | null = null;
    for (let attempt = 0; attempt < 20 && !refusal; attempt += 1) {
      const answer = await (async () => {
        const from = client.events.length;
        client.send({ type: 'retry', payload: { messageId: last } });
        return nextAnswer(client, from);
      })();
      if (answer.type === 'assistant') last = answer.payload.messageId;
      else refusal = answer;
    }
    // The opening and three retries: four operations, the whole budget.
    expect(assistants(client)).toHaveLength(4);
    expect(refusal).toEqual({
      type: 'error',
      payload: { code: 'rate_limited', message: 'Too many turns: at most 4 per 60 seconds across all your sessions; the reply was not written again (the one you have stays). Retry in 15 s.' },
    });
    // More retries change nothing: every one refused, no reply written.
    const before = client.events.length;
    for (let index = 0; index < 5; index += 1) client.send({ type: 'retry', payload: { messageId: last } });
    await client.waitFor('error', { from: before, where: () => client.events.slice(before).filter((event) => event.type === 'error').length === 5 });
    expect(client.events.slice(before).map((event) => (event.type === 'error' ? event.payload.code : event.type))).toEqual(Array(5).fill('rate_limited'));
    expect(await storedMessages(server, sessionId, 'tutor')).toBe(4);
    // The reply the learner has is the current one.
    const history = await server.api<{ messages: Array<{ id: string; role: string }> }>('GET', `/api/sessions/${sessionId}/replay`, { token });
    expect(history.body.messages.filter((message) => message.role === 'tutor').map((message) => message.id)).toEqual([last]);

    // Once a token is back, a retry is answered again.
    clock.advance(15_000);
    const from = client.events.length;
    client.send({ type: 'retry', payload: { messageId: last } });
    expect(await nextAnswer(client, from)).toMatchObject({ type: 'assistant', payload: { replaces: last } });
    client.close();
  });

  it('throttles session creation per learner: beyond the limit, 429 with Retry-After, and another learner is unaffected', async () => {
    const clock = manualClock('2026-03-02T09:00:00.000Z');
    server = await startTestServer({ clock, env: { SESSION_RATE_LIMIT: '3' } });
    const flooder = await learnerWithSession(server);
    const create = () =>
      fetch(`${server!.url}/api/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${flooder.token}` },
        body: JSON.stringify({ type: 'recall', recallSetId: flooder.setId }),
      });
    // learnerWithSession created the first of the three.
    const statuses = [];
    let refused: Response | null = null;
    for (let index = 0; index < 4; index += 1) {
      const response = await create();
      statuses.push(response.status);
      if (response.status === 429) refused = response;
      else await response.arrayBuffer();
    }
    expect(statuses).toEqual([201, 201, 429, 429]);
    expect(refused!.headers.get('retry-after')).toBe('200');
    expect(await refused!.json()).toEqual({ error: { code: 'rate_limited', message: 'Too many new sessions: at most 3 per 10 minutes. Retry in 200 s.' } });
    const listed = await server.api<{ sessions: unknown[] }>('GET', '/api/sessions', { token: flooder.token });
    expect(listed.body.sessions).toHaveLength(3);

    const other = await learnerWithSession(server);
    expect((await server.api('POST', '/api/sessions', { token: other.token, body: { type: 'recall', recallSetId: other.setId } })).status).toBe(201);
    clock.advance(200_000);
    expect((await create()).status).toBe(201);
  });

  it('charges session openings and learning welcomes: a refused opening writes nothing, and the session opens on the next attach', async () => {
    const clock = manualClock('2026-03-02T09:00:00.000Z');
    server = await startTestServer({ clock, env: { TURN_RATE_LIMIT: '2', WS_RATE_LIMIT: '1000' } });
    const { token, sessionId: recallId } = await learnerWithSession(server);
    const plans = await server.api<{ studyPlans: Array<{ id: string }> }>('GET', '/api/study-plans', { token });
    const learning = await server.api<{ sessionId: string }>('POST', '/api/sessions', { token, body: { type: 'learning', studyPlanId: plans.body.studyPlans[0]!.id } });
    const thought = await server.api<{ sessionId: string }>('POST', '/api/sessions', { token, body: { type: 'thought', topic: 'habits' } });

    const recallClient = await server.connect(recallId, token);
    await recallClient.waitFor('assistant', { timeoutMs: 10_000 });
    const learningClient = await server.connect(learning.body.sessionId, token);
    await learningClient.waitFor('assistant', { timeoutMs: 10_000 });
    // The budget of two is spent: the third session's opening is refused, and nothing of it is written.
    const thoughtClient = await server.connect(thought.body.sessionId, token);
    const refusal = await thoughtClient.waitFor('error', { timeoutMs: 10_000 });
    expect(refusal.payload).toEqual({
      code: 'rate_limited',
      message: 'Too many turns: at most 2 per 60 seconds across all your sessions; the tutor has not opened this session yet — come back to it later, or just write to begin. Retry in 30 s.',
    });
    expect(assistants(thoughtClient)).toEqual([]);
    expect(await storedMessages(server, thought.body.sessionId)).toBe(0);
    const state = await server.api<{ state: { status: string } }>('GET', `/api/sessions/${thought.body.sessionId}`, { token });
    expect(state.body.state.status).toBe('pending');
    // Its chat is refused too, and not stored.
    const beforeChat = thoughtClient.events.length;
    thoughtClient.send({ type: 'chat', payload: { message: 'let me start then' } });
    expect((await thoughtClient.waitFor('error', { from: beforeChat })).payload.message).toBe('Too many turns: at most 2 per 60 seconds across all your sessions; this message was not sent. Retry in 30 s.');
    expect(await storedMessages(server, thought.body.sessionId)).toBe(0);
    thoughtClient.close();

    // A token is back after 30 s: the next attach opens the session.
    clock.advance(30_000);
    const again = await server.connect(thought.body.sessionId, token);
    await again.waitFor('assistant', { timeoutMs: 10_000 });
    expect(await storedMessages(server, thought.body.sessionId, 'tutor')).toBe(1);
    for (const client of [recallClient, learningClient, again]) client.close();
  });

  it('refuses model operations once llm_calls holds more than the day’s token budget, until 00:00 UTC; another learner is unaffected', async () => {
    const clock = manualClock('2026-03-02T22:30:00.000Z');
    server = await startTestServer({ clock, env: { LEARNER_DAILY_TOKENS: '1000', WS_RATE_LIMIT: '1000' } });
    const spender = await learnerWithSession(server);
    const bystander = await learnerWithSession(server);
    const call = (id: string, sessionId: string, learnerId: string, inputTokens: number, outputTokens: number, createdAt: Date) => ({
      id,
      sessionId,
      learnerId,
      purpose: 'tutor',
      provider: 'anthropic',
      model: 'claude-sonnet-4-6',
      inputTokens,
      outputTokens,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      latencyMs: 900,
      outcome: 'ok' as const,
      error: null,
      createdAt,
    });
    await server.server.storage.transaction(async (tx) => {
      await tx.llmCalls.add(call('today-1', spender.sessionId, spender.learnerId, 700, 200, new Date('2026-03-02T08:00:00.000Z')));
      await tx.llmCalls.add(call('today-2', spender.sessionId, spender.learnerId, 80, 21, new Date('2026-03-02T22:00:00.000Z')));
      // Yesterday's calls do not count against today.
      await tx.llmCalls.add(call('yesterday', bystander.sessionId, bystander.learnerId, 900_000, 90_000, new Date('2026-03-01T23:00:00.000Z')));
    });

    // 1,001 tokens today: 90 minutes to midnight.
    const spent = await server.connect(spender.sessionId, spender.token);
    expect((await spent.waitFor('error', { timeoutMs: 10_000 })).payload).toEqual({
      code: 'rate_limited',
      message: 'Your daily model budget of 1,000 tokens is used up (it renews at 00:00 UTC); the tutor has not opened this session yet — come back to it later, or just write to begin. Retry in 5400 s.',
    });
    const beforeChat = spent.events.length;
    spent.send({ type: 'chat', payload: { message: 'the nucleus stores DNA' } });
    expect((await spent.waitFor('error', { from: beforeChat })).payload.message).toBe(
      'Your daily model budget of 1,000 tokens is used up (it renews at 00:00 UTC); this message was not sent. Retry in 5400 s.',
    );
    const step = await fetch(`${server.url}/api/sessions/${spender.sessionId}/step`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${spender.token}` },
      body: JSON.stringify({ message: 'over HTTP then' }),
    });
    expect(step.status).toBe(429);
    expect(step.headers.get('retry-after')).toBe('5400');
    expect(await step.json()).toEqual({ error: { code: 'rate_limited', message: 'Your daily model budget of 1,000 tokens is used up (it renews at 00:00 UTC). Retry in 5400 s.' } });
    expect(await storedMessages(server, spender.sessionId)).toBe(0);
    expect(assistants(spent)).toEqual([]);
    // Ending never waits for the budget: a thought session ends with the plain closing summary, no error.
    const thought = await server.api<{ sessionId: string }>('POST', '/api/sessions', { token: spender.token, body: { type: 'thought', topic: 'budgets' } });
    const thinking = await server.connect(thought.body.sessionId, spender.token);
    expect((await thinking.waitFor('error', { timeoutMs: 10_000 })).payload.code).toBe('rate_limited');
    thinking.send({ type: 'end_session', payload: {} });
    expect((await thinking.waitFor('session_complete')).payload.summary).toMatchObject({ type: 'thought', status: 'completed', reason: 'ended_by_learner' });
    expect(thinking.events.filter((event) => event.type === 'error')).toHaveLength(1);
    thinking.close();

    // The other learner opens and talks as usual.
    const other = await server.connect(bystander.sessionId, bystander.token);
    await other.waitFor('assistant', { timeoutMs: 10_000 });
    const otherFrom = other.events.length;
    other.send({ type: 'chat', payload: { message: 'mitochondria make ATP' } });
    await other.waitFor('assistant', { from: otherFrom, timeoutMs: 10_000 });
    expect(other.events.some((event) => event.type === 'error')).toBe(false);

    // A new UTC day: the spender's session opens.
    spent.close();
    clock.advance(90 * 60_000);
    const nextDay = await server.connect(spender.sessionId, spender.token);
    await nextDay.waitFor('assistant', { timeoutMs: 10_000 });
    for (const client of [other, nextDay]) client.close();
  });

  it('counts the tokens the real provider records, with the learner, so deleting the session gives none back (Anthropic SDK against the fake API)', async () => {
    fake = await startFakeAnthropic();
    fake.setDefault('tutor', fakeReplies.text('What do you remember about cells?', { usage: { input_tokens: 400, output_tokens: 150 } }));
    server = await startTestServer({ env: { LLM_PROVIDER: 'anthropic', ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url, LEARNER_DAILY_TOKENS: '500', WS_RATE_LIMIT: '1000' } });
    const spender = await learnerWithSession(server);
    const client = await server.connect(spender.sessionId, spender.token);
    await client.waitFor('assistant', { timeoutMs: 10_000 });
    // The opening's call is recorded with the session's learner (the write is queued behind the reply).
    // Everything the learner's budget counts, since the epoch: what the server sums before each operation.
    const learnerTokens = () => server!.server.storage.read((reader) => reader.llmCalls.tokensUsedSince(spender.learnerId, new Date(0)));
    const deadline = Date.now() + 5000;
    while ((await learnerTokens()) === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    const calls = await server.server.storage.read((reader) => reader.llmCalls.listBySession(spender.sessionId));
    expect(calls.map(({ sessionId, learnerId, inputTokens, outputTokens }) => ({ sessionId, learnerId, tokens: inputTokens + outputTokens }))).toEqual([
      { sessionId: spender.sessionId, learnerId: spender.learnerId, tokens: 550 },
    ]);
    // The session's one call is all the learner has spent.
    expect(await learnerTokens()).toBe(550);

    // 550 of 500 spent: the next turn is refused before any model call.
    const requests = fake.requests.length;
    const from = client.events.length;
    client.send({ type: 'chat', payload: { message: 'mitochondria make ATP' } });
    expect((await client.waitFor('error', { from })).payload.message).toMatch(/^Your daily model budget of 500 tokens is used up \(it renews at 00:00 UTC\); this message was not sent\. Retry in \d+ s\.$/);
    client.close();

    // Deleting the session and starting another gives nothing back.
    expect((await server.api('DELETE', `/api/sessions/${spender.sessionId}`, { token: spender.token })).status).toBe(204);
    const fresh = await server.createSession(spender.token, spender.setId);
    const again = await server.connect(fresh, spender.token);
    expect((await again.waitFor('error', { timeoutMs: 10_000 })).payload.code).toBe('rate_limited');
    expect(fake.requests.length).toBe(requests);

    // Another learner is unaffected.
    const bystander = await learnerWithSession(server);
    const other = await server.connect(bystander.sessionId, bystander.token);
    await other.waitFor('assistant', { timeoutMs: 10_000 });
    for (const socket of [again, other]) socket.close();
  });
});
