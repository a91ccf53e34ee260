/**
 * SPEC §7, §8 through the whole server, whatever the provider: its real SDK against its fake
 * API failing in the ways real servers do (429, an overloaded answer, a hang past the timeout),
 * a safety check that fails, and a learner who leaves. A session never dies of it and no learner
 * message is lost or answered twice. anthropic/ and openai/failures-through-server.test.ts run
 * these against their fakes, each adding what only its wire can do.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { LlmCallRecord } from '../../src/llm/llm-client';
import type { TestServer } from './test-server';

/** A reply of the fake, as scripted (extra fields such as `stallAfterEvents` spread over it). */
type Reply = object;

/** The fake API as these scenarios script and inspect it. */
interface ScenarioFake<Request> {
  enqueue(route: 'evaluator' | 'safety' | 'tutor', ...scripts: Array<Reply | ((request: Request) => Reply)>): void;
  readonly requests: ReadonlyArray<{ clientClosedEarly: boolean }>;
  requestsFor(route: 'tutor'): ReadonlyArray<{ clientClosedEarly: boolean }>;
  waitForRequests(count: number): Promise<unknown>;
}

export interface FailureScenarioHarness<Request> {
  start(options: { timeoutMs?: number; env?: Record<string, string> }): Promise<{ fake: ScenarioFake<Request>; server: TestServer; records: LlmCallRecord[]; close(): Promise<void> }>;
  replies: {
    text(text: string): Reply;
    rateLimited(retryAfterSeconds: number): Reply;
    /** The provider's "overloaded, try later" answer, retried like a 429. */
    overloaded(): Reply;
    hang(): Reply;
    badRequest(message: string): Reply;
    evaluation(verdict: { recalledPoints: Array<{ id: string; confidence: number; observation: string }>; feedback: string }): Reply;
  };
  /** The HTTP status of `overloaded()`. */
  overloadedStatus: number;
  /** The text of a request's user message (where the evaluator finds the points' ids). */
  userPrompt(request: Request): string;
}

/** Registers the scenarios; returns the session set-up and replay reader for a suite's own wire-specific tests. */
export function failuresThroughServerScenarios<Request>(harness: FailureScenarioHarness<Request>) {
  const { replies } = harness;
  const points = ['mitochondria make ATP', 'ribosomes build proteins'];
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    while (cleanup.length) await cleanup.pop()!();
  });

  async function setup(options: { timeoutMs?: number; env?: Record<string, string> } = {}) {
    const running = await harness.start(options);
    const { fake, server, records } = running;
    cleanup.push(() => running.close());
    fake.enqueue('tutor', replies.text('Welcome! What powers a cell?'));
    const { token } = await server.register();
    const set = await server.createSet(token, points, 'Cells');
    const sessionId = await server.createSession(token, set.id);
    const socket = await server.connect(sessionId, token);
    await socket.waitFor('assistant');
    return { fake, records, server, token, sessionId, socket };
  }

  async function replayOf(server: TestServer, sessionId: string, token: string) {
    const replay = await server.api<{ messages: Array<{ role: string; content: string; clientMessageId?: string }> }>('GET', `/api/sessions/${sessionId}/replay`, { token });
    return replay.body.messages;
  }

  describe('a rate-limited tutor', () => {
    it('is retried with backoff and the learner just gets the reply; each attempt is logged', async () => {
      const { fake, records, socket } = await setup();
      fake.enqueue('tutor', replies.rateLimited(0), replies.overloaded(), replies.text('Right, and what else?'));
      const start = socket.events.length;
      socket.send({ type: 'chat', payload: { message: 'mitochondria make ATP', clientMessageId: 'm1' } });
      const reply = await socket.waitFor('assistant', { from: start });
      expect(reply.payload.message).toBe('Right, and what else?');
      expect(socket.events.slice(start).some((event) => event.type === 'error')).toBe(false);
      const tutorCalls = records.filter((record) => record.purpose === 'tutor').slice(-3);
      expect(tutorCalls.map((record) => [record.outcome, record.status ?? null])).toEqual([
        ['error', 429],
        ['error', harness.overloadedStatus],
        ['ok', null],
      ]);
    });
  });

  describe('a safety check that fails (SPEC §7; the rule lives in the engine, session-room.ts)', () => {
    it('counts the message as safe: it is evaluated and answered, and the failed call is logged', async () => {
      const { fake, records, socket } = await setup();
      fake.enqueue('safety', replies.badRequest('safety model unavailable'));
      fake.enqueue('evaluator', (request) => {
        const id = /\[([^\]]+)\] mitochondria make ATP/.exec(harness.userPrompt(request))![1]!;
        return replies.evaluation({ recalledPoints: [{ id, confidence: 0.9, observation: 'Said it.' }], feedback: 'ATP recalled.' });
      });
      fake.enqueue('tutor', replies.text('Yes — and what else?'));
      const start = socket.events.length;
      socket.send({ type: 'chat', payload: { message: 'mitochondria make ATP' } });
      const reply = await socket.waitFor('assistant', { from: start });
      expect(reply.payload.message).toBe('Yes — and what else?');
      const state = await socket.waitFor('state_update', { from: start });
      expect(state.payload.state.recalledCount).toBe(1);
      expect(socket.events.slice(start).some((event) => event.type === 'error')).toBe(false);
      expect(records.filter((record) => record.purpose === 'safety').map((record) => [record.outcome, record.status])).toEqual([['error', 400]]);
    });
  });

  describe('a tutor that hangs past the timeout', () => {
    it('gives an error event, keeps the message, and a resend with the same id completes the turn once', async () => {
      const { fake, server, socket, sessionId, token } = await setup({ timeoutMs: 300 });
      // A timed-out call is not retried by default (the learner is waiting): one hang, one error.
      fake.enqueue('tutor', replies.hang());
      let start = socket.events.length;
      socket.send({ type: 'chat', payload: { message: 'ribosomes build proteins', clientMessageId: 'h1' } });
      const error = await socket.waitFor('error', { from: start, timeoutMs: 8000 });
      expect(error.payload.code).toBe('llm_unavailable');
      // The evaluation of that message was applied before the tutor failed; the message is kept.
      expect((await replayOf(server, sessionId, token)).filter((message) => message.clientMessageId === 'h1')).toHaveLength(1);

      fake.enqueue('tutor', replies.text('Yes — ribosomes. What else?'));
      start = socket.events.length;
      socket.send({ type: 'chat', payload: { message: 'ribosomes build proteins', clientMessageId: 'h1' } });
      const reply = await socket.waitFor('assistant', { from: start });
      expect(reply.payload.message).toBe('Yes — ribosomes. What else?');
      const messages = await replayOf(server, sessionId, token);
      expect(messages.filter((message) => message.clientMessageId === 'h1')).toHaveLength(1);
      expect(messages.map((message) => message.role)).toEqual(['tutor', 'learner', 'tutor']);
    });

    it('an evaluator that hangs yields an empty result and the tutor still answers', async () => {
      const { fake, socket, records } = await setup({ timeoutMs: 300 });
      fake.enqueue('evaluator', replies.hang());
      fake.enqueue('tutor', replies.text('Tell me more.'));
      const start = socket.events.length;
      socket.send({ type: 'chat', payload: { message: 'mitochondria make ATP' } });
      const reply = await socket.waitFor('assistant', { from: start, timeoutMs: 8000 });
      expect(reply.payload.message).toBe('Tell me more.');
      const state = await socket.waitFor('state_update', { from: start });
      expect(state.payload.state.recalledCount).toBe(0);
      expect(records.some((record) => record.purpose === 'evaluator' && record.outcome === 'timeout')).toBe(true);
    });
  });

  describe('a learner who leaves mid-reply', () => {
    it('has the model call cancelled after the grace period, and gets the answer on return', async () => {
      const { fake, server, socket, sessionId, token } = await setup({ env: { SOCKET_GRACE_MS: '150' } });
      fake.enqueue('tutor', { ...replies.text('This reply never finishes streaming.'), stallAfterEvents: 3 });
      socket.send({ type: 'chat', payload: { message: 'ribosomes build proteins', clientMessageId: 'g1' } });
      await fake.waitForRequests(fake.requests.length + 1);
      await new Promise((resolve) => setTimeout(resolve, 50));
      socket.close();
      const stalled = fake.requestsFor('tutor').at(-1)!;
      await expect.poll(() => stalled.clientClosedEarly, { timeout: 3000 }).toBe(true);

      fake.enqueue('tutor', replies.text('Welcome back — ribosomes, yes.'));
      const again = await server.connect(sessionId, token);
      const reply = await again.waitFor('assistant', { where: (event) => event.payload.message.startsWith('Welcome back') });
      expect(reply.payload.message).toBe('Welcome back — ribosomes, yes.');
      expect((await replayOf(server, sessionId, token)).map((message) => message.role)).toEqual(['tutor', 'learner', 'tutor']);
      again.close();
    });

    it('keeps the call running while the learner reconnects within the grace period', async () => {
      const { fake, server, socket, sessionId, token } = await setup({ env: { SOCKET_GRACE_MS: '5000' } });
      fake.enqueue('tutor', { ...replies.text('A reply that takes its time.'), eventDelayMs: 60 });
      socket.send({ type: 'chat', payload: { message: 'hello', clientMessageId: 'g2' } });
      await socket.waitFor('assistant_delta');
      socket.close();
      const again = await server.connect(sessionId, token);
      const reply = await again.waitFor('assistant', { timeoutMs: 8000 });
      expect(reply.payload.message).toBe('A reply that takes its time.');
      expect(fake.requestsFor('tutor').at(-1)!.clientClosedEarly).toBe(false);
      again.close();
    });
  });

  return { setup, replayOf };
}
