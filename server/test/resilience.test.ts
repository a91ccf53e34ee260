/** SPEC §8: LLM failures, dropped sockets and a killed server lose nothing. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuthResponse, RecallSetDetail } from '@tutorloop/shared';
import { fakeReplies, startFakeAnthropic, type FakeScript, type RecordedRequest } from './helpers/fake-anthropic';
import { createScriptedProvider } from './helpers/scripted-provider';
import { postJson, startServerProcess } from './helpers/server-process';
import { SocketClient, startTestServer, type TestServer } from './helpers/test-server';

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

async function session(server: TestServer, points = ['alpha beta gamma', 'delta epsilon zeta']) {
  const { token } = await server.register();
  const set = await server.createSet(token, points);
  const sessionId = await server.createSession(token, set.id);
  const client = await server.connect(sessionId, token);
  await client.waitFor('assistant');
  return { token, sessionId, client };
}

describe('model failures', () => {
  it('goes on with an empty evaluation when the evaluator fails', async () => {
    const provider = createScriptedProvider();
    const server = await startTestServer({ provider });
    cleanup.push(() => server.close());
    const { client } = await session(server);
    provider.failNextEvaluations(1);
    const start = client.events.length;
    client.send({ type: 'chat', payload: { message: 'alpha beta gamma' } });
    const state = await client.waitFor('state_update', { from: start });
    expect(state.payload.state.recalledCount).toBe(0);
    expect(client.events.slice(start).some((event) => event.type === 'assistant')).toBe(true);
    expect(provider.replies.at(-1)!.feedback).toBe('');
    client.close();
  });

  it('keeps the message when the tutor fails, and a resend with the same clientMessageId completes the turn once', async () => {
    const provider = createScriptedProvider();
    const server = await startTestServer({ provider });
    cleanup.push(() => server.close());
    const { client, sessionId, token } = await session(server);
    provider.failNextReplies(1);
    let start = client.events.length;
    client.send({ type: 'chat', payload: { message: 'alpha beta gamma', clientMessageId: 'retry-me' } });
    const error = await client.waitFor('error', { from: start });
    expect(error.payload.code).toBe('llm_unavailable');
    const replay = await server.api<{ messages: Array<{ role: string; content: string }> }>('GET', `/api/sessions/${sessionId}/replay`, { token });
    expect(replay.body.messages.map((message) => message.content)).toContain('alpha beta gamma');

    start = client.events.length;
    client.send({ type: 'chat', payload: { message: 'alpha beta gamma', clientMessageId: 'retry-me' } });
    await client.waitFor('assistant', { from: start });
    const after = await server.api<{ messages: Array<{ role: string; content: string }> }>('GET', `/api/sessions/${sessionId}/replay`, { token });
    expect(after.body.messages.map((message) => message.role)).toEqual(['tutor', 'learner', 'tutor']);
    const state = await client.waitFor('state_update', { from: start });
    expect(state.payload.state.recalledCount).toBe(1);
    client.close();
  });
});

describe('a dropped socket', () => {
  it('still receives the reply that was being produced when it reconnects', async () => {
    const provider = createScriptedProvider();
    const server = await startTestServer({ provider });
    cleanup.push(() => server.close());
    const { client, sessionId, token } = await session(server);
    provider.chunkDelayMs = 150;
    const start = client.events.length;
    client.send({ type: 'chat', payload: { message: 'alpha beta gamma' } });
    await client.waitFor('assistant_delta', { from: start });
    client.close();
    const again = await server.connect(sessionId, token);
    const reply = await again.waitFor('assistant');
    expect(reply.payload.message).toBe('Tutor reply for turn 1.');
    const types = again.events.map((event) => event.type);
    expect(types.slice(0, 3)).toEqual(['state_update', 'history', 'typing']);
    // The text streamed before the reconnect arrives as one catch-up delta.
    const deltas = again.events.filter((event) => event.type === 'assistant_delta').map((event) => event.payload.delta);
    expect(deltas.join('')).toBe('Tutor reply for turn 1.');
    again.close();
  });
});

describe('a killed server', () => {
  /** An evaluator script recalling the point that contains `content` (the prompt lists points as `[id] text`). */
  const recalls =
    (content: string): FakeScript =>
    (request) => {
      const prompt = request.body.messages[0]!.content as string;
      const line = prompt.split('\n').find((candidate) => candidate.includes(content))!;
      return fakeReplies.evaluation({ recalledPoints: [{ id: /\[([^\]]+)\]/.exec(line)![1]!, confidence: 0.9, observation: 'said it' }], feedback: 'recalled' });
    };
  /** The text of the last user turn a tutor request carries. */
  const lastUserText = (request: RecordedRequest) => {
    const content = request.body.messages.at(-1)!.content;
    return typeof content === 'string' ? content : content.map((block) => block.text ?? '').join('');
  };

  // Two server processes start one after the other: on a loaded machine each can take seconds.
  it('loses no committed message after SIGKILL mid-turn, and the new process answers the interrupted turn once', { timeout: 150_000 }, async () => {
    // The kill lands at a known point: the fake Messages API holds the tutor's reply to the
    // second message open, so that message is stored (and evaluated) and no reply to it is.
    const fake = await startFakeAnthropic();
    cleanup.push(() => fake.close());
    const dataDir = mkdtempSync(path.join(tmpdir(), 'tutorloop-restart-'));
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const env = { LLM_PROVIDER: 'anthropic', ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url };
    const first = await startServerProcess(dataDir, env);
    cleanup.push(() => void first.child.kill('SIGKILL'));
    const { token } = await postJson<AuthResponse>(first.url, '/api/auth/register', { username: 'restart_user', password: 'survives a crash' });
    const set = await postJson<RecallSetDetail>(first.url, '/api/recall-sets', { name: 'Cells', points: [{ content: 'Mitochondria produce ATP' }, { content: 'Ribosomes synthesize proteins' }] }, token);
    const { sessionId } = await postJson<{ sessionId: string }>(first.url, '/api/sessions', { type: 'recall', recallSetId: set.id }, token);
    const wsUrl = (url: string) => `${url.replace('http', 'ws')}/sessions/ws/${sessionId}?token=${token}`;
    const replay = async (url: string) =>
      ((await (await fetch(`${url}/api/sessions/${sessionId}/replay`, { headers: { authorization: `Bearer ${token}` } })).json()) as { messages: Array<{ role: string; content: string }> }).messages;

    let held!: () => void;
    const tutorHeld = new Promise<void>((resolve) => (held = resolve));
    const holdReply: FakeScript = () => {
      held();
      return fakeReplies.hang();
    };
    fake.enqueue('tutor', fakeReplies.text('Welcome! What do you remember about cells?'), fakeReplies.text('Right, mitochondria. And ribosomes?'), holdReply);
    fake.enqueue('evaluator', recalls('Mitochondria produce ATP'));
    const client = await SocketClient.open(wsUrl(first.url));
    await client.waitFor('assistant');
    let start = client.events.length;
    client.send({ type: 'chat', payload: { message: 'Mitochondria produce ATP', clientMessageId: 'm1' } });
    await client.waitFor('assistant', { from: start });
    client.send({ type: 'chat', payload: { message: 'something about ribosomes?', clientMessageId: 'm2' } });
    await tutorHeld;
    // The turn is in flight: the message stored, no reply to it committed.
    expect((await replay(first.url)).map((message) => message.role)).toEqual(['tutor', 'learner', 'tutor', 'learner']);
    first.child.kill('SIGKILL');
    await client.waitForClose();

    fake.enqueue('tutor', fakeReplies.text('Ribosomes build something — what is it?'));
    const second = await startServerProcess(dataDir, env);
    cleanup.push(() => void second.child.kill('SIGKILL'));
    const again = await SocketClient.open(wsUrl(second.url));
    const state = await again.waitFor('state_update');
    expect(state.payload.state).toMatchObject({ status: 'active', recalledCount: 1, totalPoints: 2, turn: 2 });
    const history = await again.waitFor('history');
    const learnerMessages = history.payload.messages.filter((message) => message.role === 'learner').map((message) => message.content);
    expect(learnerMessages).toEqual(['Mitochondria produce ATP', 'something about ribosomes?']);
    // The resume path answers the interrupted turn.
    const resumed = await again.waitFor('assistant');
    expect(resumed.payload.message).toBe('Ribosomes build something — what is it?');

    // A client that missed that reply resends its message: it is neither stored nor answered again.
    start = again.events.length;
    again.send({ type: 'chat', payload: { message: 'something about ribosomes?', clientMessageId: 'm2' } });
    // The session goes on in the new process.
    fake.enqueue('evaluator', recalls('Ribosomes synthesize proteins'));
    again.send({ type: 'chat', payload: { message: 'Ribosomes synthesize proteins' } });
    const complete = await again.waitFor('session_complete', { from: start });
    expect(complete.payload.summary).toMatchObject({ recalledCount: 2, totalPoints: 2, reason: 'all_recalled' });
    const messages = await replay(second.url);
    expect(messages.filter((message) => message.role === 'learner').map((message) => message.content)).toEqual(['Mitochondria produce ATP', 'something about ribosomes?', 'Ribosomes synthesize proteins']);
    expect(messages.slice(0, 5).map((message) => message.content)).toEqual([
      'Welcome! What do you remember about cells?',
      'Mitochondria produce ATP',
      'Right, mitochondria. And ribosomes?',
      'something about ribosomes?',
      'Ribosomes build something — what is it?',
    ]);
    // The interrupted message reached the tutor twice (the held call, then the resumed one); the resend never did.
    expect(fake.requestsFor('tutor').filter((request) => lastUserText(request) === 'something about ribosomes?')).toHaveLength(2);
    again.close();
  });
});
