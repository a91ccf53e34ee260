/**
 * SPEC §7, §8 through the whole server: the real `openai` SDK against the fake Chat
 * Completions API failing in the ways real servers do (429, 503, a hang past the timeout, a
 * stream cut short, malformed JSON), and a learner who leaves. The counterpart of
 * anthropic/failures-through-server.test.ts.
 * A session never dies of it and no learner message is lost or answered twice.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openAiReplies as fakeReplies } from '../helpers/fake-openai';
import type { TestServer } from '../helpers/test-server';
import { startOpenAiTestServer, userPrompt } from './openai-test-server';

const points = ['mitochondria make ATP', 'ribosomes build proteins'];
const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()!();
});

async function setup(options: { timeoutMs?: number; env?: Record<string, string> } = {}) {
  const running = await startOpenAiTestServer(options);
  const { fake, server, records } = running;
  cleanup.push(() => running.close());
  fake.enqueue('tutor', fakeReplies.text('Welcome! What powers a cell?'));
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
    fake.enqueue('tutor', fakeReplies.rateLimited(0), fakeReplies.unavailable(), fakeReplies.text('Right, and what else?'));
    const start = socket.events.length;
    socket.send({ type: 'chat', payload: { message: 'mitochondria make ATP', clientMessageId: 'm1' } });
    const reply = await socket.waitFor('assistant', { from: start });
    expect(reply.payload.message).toBe('Right, and what else?');
    expect(socket.events.slice(start).some((event) => event.type === 'error')).toBe(false);
    const tutorCalls = records.filter((record) => record.purpose === 'tutor').slice(-3);
    expect(tutorCalls.map((record) => [record.outcome, record.status ?? null])).toEqual([
      ['error', 429],
      ['error', 503],
      ['ok', null],
    ]);
  });
});

describe('a safety check that fails (SPEC §7; the rule lives in the engine, session-room.ts)', () => {
  it('counts the message as safe: it is evaluated and answered, and the failed call is logged', async () => {
    const { fake, records, socket } = await setup();
    fake.enqueue('safety', fakeReplies.badRequest('safety model unavailable'));
    fake.enqueue('evaluator', (request) => {
      const id = /\[([^\]]+)\] mitochondria make ATP/.exec(userPrompt(request))![1]!;
      return fakeReplies.evaluation({ recalledPoints: [{ id, confidence: 0.9, observation: 'Said it.' }], feedback: 'ATP recalled.' });
    });
    fake.enqueue('tutor', fakeReplies.text('Yes — and what else?'));
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
    fake.enqueue('tutor', fakeReplies.hang());
    let start = socket.events.length;
    socket.send({ type: 'chat', payload: { message: 'ribosomes build proteins', clientMessageId: 'h1' } });
    const error = await socket.waitFor('error', { from: start, timeoutMs: 8000 });
    expect(error.payload.code).toBe('llm_unavailable');
    // The evaluation of that message was applied before the tutor failed; the message is kept.
    expect((await replayOf(server, sessionId, token)).filter((message) => message.clientMessageId === 'h1')).toHaveLength(1);

    fake.enqueue('tutor', fakeReplies.text('Yes — ribosomes. What else?'));
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
    fake.enqueue('evaluator', fakeReplies.hang());
    fake.enqueue('tutor', fakeReplies.text('Tell me more.'));
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
    fake.enqueue('tutor', { ...fakeReplies.text('This reply never finishes streaming.'), stallAfterEvents: 3 });
    socket.send({ type: 'chat', payload: { message: 'ribosomes build proteins', clientMessageId: 'g1' } });
    await fake.waitForRequests(fake.requests.length + 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.close();
    const stalled = fake.requestsFor('tutor').at(-1)!;
    await expect.poll(() => stalled.clientClosedEarly, { timeout: 3000 }).toBe(true);

    fake.enqueue('tutor', fakeReplies.text('Welcome back — ribosomes, yes.'));
    const again = await server.connect(sessionId, token);
    const reply = await again.waitFor('assistant', { where: (event) => event.payload.message.startsWith('Welcome back') });
    expect(reply.payload.message).toBe('Welcome back — ribosomes, yes.');
    expect((await replayOf(server, sessionId, token)).map((message) => message.role)).toEqual(['tutor', 'learner', 'tutor']);
    again.close();
  });

  it('keeps the call running while the learner reconnects within the grace period', async () => {
    const { fake, server, socket, sessionId, token } = await setup({ env: { SOCKET_GRACE_MS: '5000' } });
    fake.enqueue('tutor', { ...fakeReplies.text('A reply that takes its time.'), eventDelayMs: 60 });
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

describe('malformed answers from an OpenAI-compatible server', () => {
  it('an evaluator answering broken JSON, then a 200 that is not JSON at all, checks nothing off and the tutor still answers', async () => {
    const { fake, socket, records } = await setup();
    fake.enqueue('evaluator', fakeReplies.malformedEvaluation(), fakeReplies.malformedBody());
    fake.enqueue('tutor', fakeReplies.text('Tell me more.'), fakeReplies.text('And then?'));
    for (const [index, message] of ['mitochondria make ATP', 'ribosomes build proteins'].entries()) {
      const start = socket.events.length;
      socket.send({ type: 'chat', payload: { message, clientMessageId: `bad-${index}` } });
      await socket.waitFor('assistant', { from: start });
      const state = await socket.waitFor('state_update', { from: start });
      expect(state.payload.state.recalledCount).toBe(0);
      expect(socket.events.slice(start).some((event) => event.type === 'error')).toBe(false);
    }
    expect(records.filter((record) => record.purpose === 'evaluator').map((record) => record.outcome)).toEqual(['ok', 'error']);
  });

  it('a tutor stream cut short after some text gives an error event, keeps the message, and a resend completes the turn once', async () => {
    const { fake, server, socket, sessionId, token } = await setup();
    fake.enqueue('tutor', { ...fakeReplies.text('Half a reply that never'), chunkSize: 100, omitFinish: true });
    let start = socket.events.length;
    socket.send({ type: 'chat', payload: { message: 'ribosomes build proteins', clientMessageId: 'cut1' } });
    const error = await socket.waitFor('error', { from: start });
    expect(error.payload.code).toBe('llm_unavailable');
    expect((await replayOf(server, sessionId, token)).filter((message) => message.clientMessageId === 'cut1')).toHaveLength(1);

    fake.enqueue('tutor', fakeReplies.text('Yes — ribosomes. What else?'));
    start = socket.events.length;
    socket.send({ type: 'chat', payload: { message: 'ribosomes build proteins', clientMessageId: 'cut1' } });
    const reply = await socket.waitFor('assistant', { from: start });
    expect(reply.payload.message).toBe('Yes — ribosomes. What else?');
    const messages = await replayOf(server, sessionId, token);
    expect(messages.map((message) => message.role)).toEqual(['tutor', 'learner', 'tutor']);
    expect(JSON.stringify(messages)).not.toContain('Half a reply');
  });
});
