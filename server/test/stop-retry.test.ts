/**
 * SPEC §5 `stop` and `retry` over the real server (ws on loopback, a temporary SQLite file),
 * with a scripted tutor slow enough to be stopped part-way.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createScriptedProvider, type ScriptedProvider } from './helpers/scripted-provider';
import { startTestPostgres, startTestServer, stopTestPostgres, testEngines, type SocketClient, type TestServer } from './helpers/test-server';

const points = ['mitochondria make ATP', 'ribosomes build proteins', 'the nucleus stores DNA'];

let server: TestServer;
let provider: ScriptedProvider;

beforeAll(startTestPostgres, 120_000);
afterAll(stopTestPostgres, 60_000);

describe.each(testEngines)('on %s', (engine) => {
  beforeEach(async () => {
    provider = createScriptedProvider();
    server = await startTestServer({ engine, provider });
  });
  afterEach(async () => {
    await server.close();
  });

  async function openSession() {
    const { token } = await server.register();
    const set = await server.createSet(token, points, 'Cells');
    const sessionId = await server.createSession(token, set.id);
    const client = await server.connect(sessionId, token);
    await client.waitFor('assistant');
    await client.waitFor('state_update', { where: (event) => event.payload.state.status === 'active' });
    return { token, sessionId, client };
  }

  /** Sends a chat and waits for its whole turn (the state that follows the reply). */
  async function chat(client: SocketClient, message: string) {
    const from = client.events.length;
    client.send({ type: 'chat', payload: { message } });
    const assistant = await client.waitFor('assistant', { from });
    await client.waitFor('state_update', { from: client.events.indexOf(assistant) });
    return assistant;
  }

  /** Every stored message of the session, superseded ones too, read through the storage port. */
  function storedMessages(sessionId: string) {
    return server.server.storage.read((reader) => reader.messages.list(sessionId, { includeSuperseded: true }));
  }

  describe('stop (SPEC §5)', () => {
    it('cancels the model call, keeps the text sent so far as the reply marked stopped, and ends the turn as usual', async () => {
      const { client, sessionId, token } = await openSession();
      provider.chunkDelayMs = 400;
      const from = client.events.length;
      client.send({ type: 'chat', payload: { message: 'I remember that mitochondria make ATP' } });
      const firstDelta = await client.waitFor('assistant_delta', { from });
      client.send({ type: 'stop', payload: {} });
      const assistant = await client.waitFor('assistant', { from });
      const streamed = client.events
        .slice(from)
        .filter((event) => event.type === 'assistant_delta' && event.payload.messageId === firstDelta.payload.messageId)
        .map((event) => (event.type === 'assistant_delta' ? event.payload.delta : ''))
        .join('');
      expect(assistant).toEqual({ type: 'assistant', payload: { messageId: firstDelta.payload.messageId, message: streamed.trimEnd(), stopped: true } });
      // Cut off before the last chunk: the whole reply would have been "Tutor reply for turn 1."
      expect(assistant.payload.message).not.toBe('Tutor reply for turn 1.');
      expect(assistant.payload.message.length).toBeGreaterThan(0);
      // Then the turn ends as usual, with the evaluation already applied still applied.
      const state = await client.waitFor('state_update', { from: client.events.indexOf(assistant) });
      expect(state.payload.state).toMatchObject({ status: 'active', turn: 1, recalledCount: 1 });

      // Stored: the partial reply, marked stopped; the learner's message answered (nothing to resume).
      const rows = await storedMessages(sessionId);
      expect(rows.at(-1)).toMatchObject({ id: assistant.payload.messageId, role: 'tutor', content: assistant.payload.message, stopped: true, supersededBy: null });
      expect(rows.at(-2)).toMatchObject({ role: 'learner' });
      expect(rows.at(-2)!.answeredAt).not.toBeNull();

      // A reloaded page shows it stopped; the next model call reads it as cut off.
      const again = await server.connect(sessionId, token);
      const history = await again.waitFor('history');
      expect(history.payload.messages.at(-1)).toMatchObject({ id: assistant.payload.messageId, role: 'tutor', content: assistant.payload.message, stopped: true });
      provider.chunkDelayMs = 0;
      await chat(client, 'and ribosomes build proteins');
      const conversation = provider.replies.at(-1)!.conversation;
      expect(conversation).toContainEqual({ role: 'tutor', content: `${assistant.payload.message} [the learner stopped this reply here]` });
      again.close();
      client.close();
    });

    it('answers nothing_to_stop when no reply is in flight, and the session goes on', async () => {
      const { client } = await openSession();
      const from = client.events.length;
      client.send({ type: 'stop', payload: {} });
      const error = await client.waitFor('error', { from });
      expect(error).toEqual({ type: 'error', payload: { code: 'nothing_to_stop', message: 'No reply is being written right now.' } });
      const reply = await chat(client, 'mitochondria make ATP');
      expect(reply.payload.stopped).toBeUndefined();
      client.close();
    });
  });

  describe('retry (SPEC §5)', () => {
    it('produces the last reply again without evaluating the learner message twice; the new reply replaces the old', async () => {
      const { client, sessionId, token } = await openSession();
      const first = await chat(client, 'mitochondria make ATP');
      const evaluationsBefore = provider.evaluations.length;
      const repliesBefore = provider.replies.length;

      const from = client.events.length;
      client.send({ type: 'retry', payload: { messageId: first.payload.messageId } });
      const typing = await client.waitFor('typing', { from });
      expect(typing).toEqual({ type: 'typing', payload: {} });
      const second = await client.waitFor('assistant', { from });
      expect(second.payload).toEqual({ messageId: expect.any(String), message: 'Tutor reply for turn 1.', replaces: first.payload.messageId });
      expect(second.payload.messageId).not.toBe(first.payload.messageId);
      const state = await client.waitFor('state_update', { from: client.events.indexOf(second) });
      // Same turn, same progress: nothing was evaluated again.
      expect(state.payload.state).toMatchObject({ status: 'active', turn: 1, recalledCount: 1 });
      expect(provider.evaluations.length).toBe(evaluationsBefore);
      expect(provider.replies.length).toBe(repliesBefore + 1);
      // The tutor was asked from the conversation as it stood before the old reply.
      const input = provider.replies.at(-1)!;
      expect(input.trigger).toBe('learner_message');
      expect(input.conversation.at(-1)).toEqual({ role: 'learner', content: 'mitochondria make ATP' });
      expect(input.justRecalled.map((point) => point.content)).toEqual(['mitochondria make ATP']);
      // …and told what it said before, so it can say it differently (issue 28).
      expect(input.retryOf).toBe(first.payload.message);

      // The old reply stays in the store, marked superseded; history and replay show only the new one.
      const rows = await storedMessages(sessionId);
      expect(rows.find((row) => row.id === first.payload.messageId)).toMatchObject({ supersededBy: second.payload.messageId });
      const again = await server.connect(sessionId, token);
      const history = await again.waitFor('history');
      const ids = history.payload.messages.map((message) => message.id);
      expect(ids).toContain(second.payload.messageId);
      expect(ids).not.toContain(first.payload.messageId);
      const replay = await server.api<{ messages: Array<{ id: string }> }>('GET', `/api/sessions/${sessionId}/replay`, { token });
      expect(replay.body.messages.map((message) => message.id)).toEqual(ids);
      again.close();
      client.close();
    });

    it('regenerates the opening reply too', async () => {
      const { client } = await openSession();
      const opening = client.events.find((event) => event.type === 'assistant')!;
      const from = client.events.length;
      client.send({ type: 'retry', payload: { messageId: opening.type === 'assistant' ? opening.payload.messageId : '' } });
      const again = await client.waitFor('assistant', { from });
      expect(again.payload.replaces).toBe(opening.type === 'assistant' ? opening.payload.messageId : '');
      expect(provider.replies.at(-1)!.trigger).toBe('session_start');
      client.close();
    });

    it('refuses any reply but the last, and one the learner already answered, with nothing_to_retry', async () => {
      const { client } = await openSession();
      const first = await chat(client, 'mitochondria make ATP');
      await chat(client, 'something else');
      let from = client.events.length;
      client.send({ type: 'retry', payload: { messageId: first.payload.messageId } });
      expect(await client.waitFor('error', { from })).toEqual({
        type: 'error',
        payload: { code: 'nothing_to_retry', message: 'Only the last tutor reply can be produced again.' },
      });
      from = client.events.length;
      client.send({ type: 'retry', payload: { messageId: 'no-such-message' } });
      expect((await client.waitFor('error', { from })).payload).toEqual({ code: 'nothing_to_retry', message: 'No tutor reply with that id in this conversation.' });
      client.close();
    });

    it('refuses while a reply is in flight (turn_in_progress), and retrying a stopped reply replaces it', async () => {
      const { client } = await openSession();
      provider.chunkDelayMs = 300;
      let from = client.events.length;
      client.send({ type: 'chat', payload: { message: 'ribosomes build proteins' } });
      const delta = await client.waitFor('assistant_delta', { from });
      client.send({ type: 'retry', payload: { messageId: delta.payload.messageId } });
      expect((await client.waitFor('error', { from })).payload.code).toBe('turn_in_progress');
      client.send({ type: 'stop', payload: {} });
      const stopped = await client.waitFor('assistant', { from });
      expect(stopped.payload.stopped).toBe(true);
      await client.waitFor('state_update', { from: client.events.indexOf(stopped) });

      provider.chunkDelayMs = 0;
      from = client.events.length;
      client.send({ type: 'retry', payload: { messageId: stopped.payload.messageId } });
      const whole = await client.waitFor('assistant', { from });
      expect(whole.payload).toEqual({ messageId: expect.any(String), message: 'Tutor reply for turn 1.', replaces: stopped.payload.messageId });
      client.close();
    });

    it('takes over from the widget the old reply handed out', async () => {
      const { client, sessionId } = await openSession();
      provider.nextWidget = { kind: 'free_text', props: { prompt: 'Name the organelle', maxLength: 200 } };
      const first = await chat(client, 'hmm');
      const widget = await client.waitFor('widget');
      const from = client.events.length;
      client.send({ type: 'retry', payload: { messageId: first.payload.messageId } });
      const second = await client.waitFor('assistant', { from });
      const state = await client.waitFor('state_update', { from: client.events.indexOf(second) });
      expect(state.payload.state.status).toBe('active');
      const actions = await server.server.storage.read((reader) => reader.pendingActions.list(sessionId));
      expect(actions.find((action) => action.id === widget.payload.widgetId)?.status).toBe('cancelled');
      // The cancelled widget can no longer be answered.
      const after = client.events.length;
      client.send({ type: 'widget_response', payload: { widgetId: widget.payload.widgetId, response: { text: 'mitochondria' } } });
      expect((await client.waitFor('error', { from: after })).payload.code).toBe('widget_not_pending');
      expect((await storedMessages(sessionId)).filter((row) => row.supersededBy === second.payload.messageId).map((row) => row.id)).toEqual([first.payload.messageId]);
      client.close();
    });
  });
});
