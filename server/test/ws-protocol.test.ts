/** SPEC §5 over a real ws server on loopback with a temporary SQLite file. */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { createScriptedProvider, type ScriptedProvider } from './helpers/scripted-provider';
import { startTestPostgres, startTestServer, stopTestPostgres, testEngines, type TestServer } from './helpers/test-server';

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
    // The opening turn: the tutor greets first.
    await client.waitFor('assistant');
    await client.waitFor('state_update', { where: (event) => event.payload.state.status === 'active' });
    return { token, set, sessionId, client };
  }

  describe('connect', () => {
    it('sends state_update then history first, then the opening reply', async () => {
      const { client, sessionId } = await openSession();
      const types = client.events.map((event) => event.type);
      expect(types.slice(0, 2)).toEqual(['state_update', 'history']);
      expect(types).toContain('typing');
      expect(types).toContain('assistant_delta');
      expect(client.events[0]).toEqual({
        type: 'state_update',
        payload: {
          state: { status: 'pending', sessionId, type: 'recall', mode: 'recall', turn: 0, recalledCount: 0, totalPoints: 3, title: 'Cells' },
        },
      });
      const assistant = await client.waitFor('assistant');
      const deltas = client.events.filter((event) => event.type === 'assistant_delta');
      expect(deltas.map((event) => event.payload.delta).join('')).toBe(assistant.payload.message);
      expect(deltas.every((event) => event.payload.messageId === assistant.payload.messageId)).toBe(true);
      client.close();
    });

    it('restores the visible history on reconnect', async () => {
      const { client, sessionId, token } = await openSession();
      const start = client.events.length;
      client.send({ type: 'chat', payload: { message: 'I think mitochondria make ATP', clientMessageId: 'c1' } });
      await client.waitFor('state_update', { from: start, where: (event) => event.payload.state.recalledCount === 1 });
      client.close();
      const again = await server.connect(sessionId, token);
      const history = await again.waitFor('history');
      expect(history.payload.messages.map((message) => [message.role, message.content])).toEqual([
        ['tutor', 'Tutor reply for turn 0.'],
        ['learner', 'I think mitochondria make ATP'],
        ['tutor', 'Tutor reply for turn 1.'],
      ]);
      expect(history.payload.messages[1]!.clientMessageId).toBe('c1');
      again.close();
    });
  });

  describe('a turn', () => {
    it('emits typing, deltas, assistant and state_update with progress, without point contents', async () => {
      const { client } = await openSession();
      const start = client.events.length;
      client.send({ type: 'chat', payload: { message: 'ribosomes build proteins and mitochondria make ATP' } });
      const state = await client.waitFor('state_update', { from: start });
      const turn = client.events.slice(start).map((event) => event.type);
      expect(turn[0]).toBe('typing');
      // Streamed in pieces that add up to the final reply.
      const deltas = client.events.slice(start).flatMap((event) => (event.type === 'assistant_delta' ? [event.payload.delta] : []));
      const final = client.events.slice(start).find((event) => event.type === 'assistant');
      expect(deltas.length).toBeGreaterThan(1);
      expect(final?.type === 'assistant' && final.payload.message).toBe(deltas.join(''));
      expect(turn.slice(-2)).toEqual(['assistant', 'state_update']);
      expect(state.payload.state).toMatchObject({ status: 'active', turn: 1, recalledCount: 2, totalPoints: 3 });
      const frames = JSON.stringify(client.events);
      expect(frames).not.toContain('the nucleus stores DNA');
      expect(frames).not.toContain('SECRET-FEEDBACK');
      expect(frames).not.toContain('confidence');
      client.close();
    });

    it('evaluates only unchecked points, every message, and completes when all are recalled', async () => {
      const { client } = await openSession();
      let start = client.events.length;
      client.send({ type: 'chat', payload: { message: 'mitochondria make ATP' } });
      await client.waitFor('state_update', { from: start });
      start = client.events.length;
      client.send({ type: 'chat', payload: { message: 'no idea about the rest' } });
      await client.waitFor('state_update', { from: start });
      expect(provider.evaluations.map((evaluation) => evaluation.points.map((point) => point.content))).toEqual([
        points,
        points.slice(1),
      ]);
      start = client.events.length;
      client.send({ type: 'chat', payload: { message: 'ribosomes build proteins; the nucleus stores DNA' } });
      const complete = await client.waitFor('session_complete', { from: start });
      expect(complete.payload.summary).toMatchObject({ status: 'completed', reason: 'all_recalled', recalledCount: 3, totalPoints: 3, turns: 3 });
      expect(complete.payload.summary.points.map((point) => point.recalled)).toEqual([true, true, true]);
      const ended = await client.waitFor('state_update', { from: start, where: (event) => event.payload.state.status === 'completed' });
      expect(ended.payload.state.recalledCount).toBe(3);
      client.close();
    });

    it('processes a chat resent with the same clientMessageId once', async () => {
      const { client } = await openSession();
      const start = client.events.length;
      client.send({ type: 'chat', payload: { message: 'mitochondria make ATP', clientMessageId: 'same' } });
      client.send({ type: 'chat', payload: { message: 'mitochondria make ATP', clientMessageId: 'same' } });
      await client.waitFor('state_update', { from: start });
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(client.events.slice(start).filter((event) => event.type === 'assistant')).toHaveLength(1);
      const replay = await server.api<{ messages: Array<{ role: string }> }>('GET', `/api/sessions/${client.events.length && (client.events[0] as { payload: { state: { sessionId: string } } }).payload.state.sessionId}/replay`, {
        token: (await server.register()).token,
      });
      expect(replay.status).toBe(403);
      expect(provider.evaluations).toHaveLength(1);
      client.close();
    });

    // PostgreSQL text cannot hold U+0000, which SQLite stores: its adapter drops that one character.
    it('answers a chat holding a NUL character and keeps the rest of its text', async () => {
      const { client, sessionId } = await openSession();
      const start = client.events.length;
      client.send({ type: 'chat', payload: { message: 'mitochondria\u0000 make ATP', clientMessageId: 'nul' } });
      await client.waitFor('assistant', { from: start });
      const stored = await server.server.storage.read((reader) => reader.messages.findByClientId(sessionId, 'nul'));
      expect(stored?.content).toBe(engine === 'postgres' ? 'mitochondria make ATP' : 'mitochondria\u0000 make ATP');
      client.close();
    });

    it('lets the learner end the session early; unrecalled points are summarised', async () => {
      const { client } = await openSession();
      const start = client.events.length;
      client.send({ type: 'end_session', payload: {} });
      const complete = await client.waitFor('session_complete', { from: start });
      expect(complete.payload.summary).toMatchObject({ reason: 'ended_by_learner', recalledCount: 0, totalPoints: 3 });
      client.send({ type: 'chat', payload: { message: 'too late' } });
      const error = await client.waitFor('error', { from: start });
      expect(error.payload.code).toBe('session_ended');
      client.close();
    });

    it('switches into and out of a rabbit hole', async () => {
      const { client } = await openSession();
      let start = client.events.length;
      client.send({ type: 'rabbithole', payload: { action: 'enter', topic: 'mitochondrial DNA' } });
      let state = await client.waitFor('state_update', { from: start });
      expect(state.payload.state).toMatchObject({ mode: 'rabbithole', rabbitholeTopic: 'mitochondrial DNA' });
      start = client.events.length;
      client.send({ type: 'chat', payload: { message: 'where does it come from?' } });
      await client.waitFor('state_update', { from: start });
      expect(provider.evaluations.at(-1)!.mode).toBe('rabbithole');
      start = client.events.length;
      client.send({ type: 'rabbithole', payload: { action: 'exit' } });
      state = await client.waitFor('state_update', { from: start });
      expect(state.payload.state.mode).toBe('recall');
      expect(state.payload.state.rabbitholeTopic).toBeUndefined();
      client.close();
    });
  });

  describe('bad frames get an error event and the connection survives', () => {
    const cases: Array<[string, string | Buffer, string, boolean?]> = [
      ['invalid JSON', '{not json', 'invalid_json'],
      ['an unknown type', JSON.stringify({ type: 'trigger_eval', payload: {} }), 'unknown_type'],
      ['a wrong shape', JSON.stringify({ type: 'chat', payload: { text: 'hi' } }), 'invalid_payload'],
      ['an empty message', JSON.stringify({ type: 'chat', payload: { message: '   ' } }), 'invalid_payload'],
      ['a non-object frame', '[1,2,3]', 'invalid_payload'],
      ['a binary frame', Buffer.from([1, 2, 3]), 'binary_not_supported', true],
      ['an oversize frame', JSON.stringify({ type: 'chat', payload: { message: 'x'.repeat(70_000) } }), 'frame_too_large'],
    ];
    for (const [name, frame, code, binary] of cases) {
      it(`answers ${name} with ${code}`, async () => {
        const { client } = await openSession();
        const start = client.events.length;
        client.sendRaw(frame, { binary: binary ?? false });
        const error = await client.waitFor('error', { from: start });
        expect(error.payload.code).toBe(code);
        expect(error.payload.message.length).toBeGreaterThan(5);
        // The connection and the session survive: a normal turn still works.
        client.send({ type: 'chat', payload: { message: 'mitochondria make ATP' } });
        const state = await client.waitFor('state_update', { from: start });
        expect(state.payload.state.recalledCount).toBe(1);
        expect(client.closeCode).toBeNull();
        client.close();
      });
    }

    it('rejects a stale widget id', async () => {
      const { client } = await openSession();
      const start = client.events.length;
      client.send({ type: 'widget_response', payload: { widgetId: 'nope', response: { selectedIndex: 0 } } });
      const error = await client.waitFor('error', { from: start });
      expect(error.payload.code).toBe('widget_not_pending');
      client.close();
    });
  });

  describe('rate limit', () => {
    it('answers a flood with one rate_limited error and keeps the connection', async () => {
      await server.close();
      server = await startTestServer({ engine, provider, env: { WS_RATE_LIMIT: '5' } });
      const { client } = await openSession();
      const start = client.events.length;
      for (let index = 0; index < 12; index += 1) client.sendRaw('{bad');
      await client.waitFor('error', { from: start, where: (event) => event.payload.code === 'rate_limited' });
      await new Promise((resolve) => setTimeout(resolve, 100));
      const errors = client.events.slice(start).filter((event) => event.type === 'error');
      expect(errors.map((event) => event.payload.code)).toEqual([...Array(5).fill('invalid_json'), 'rate_limited']);
      expect(client.closeCode).toBeNull();
      client.close();
    });
  });

  describe('auth', () => {
    async function sessionOfSomeone() {
      const { token } = await server.register();
      const set = await server.createSet(token, points);
      return { token, sessionId: await server.createSession(token, set.id) };
    }

    it('closes with 4401 without a token, before any session data', async () => {
      const { sessionId } = await sessionOfSomeone();
      const client = await server.connect(sessionId, null);
      expect(await client.waitForClose()).toBe(4401);
      expect(client.events).toEqual([]);
    });

    it('closes with 4401 for a forged token (wrong key, and alg none)', async () => {
      const { sessionId, token } = await sessionOfSomeone();
      const subject = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sub as string;
      const forged = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(subject).setIssuer('tutorloop').setExpirationTime('1h').sign(new TextEncoder().encode('x'.repeat(40)));
      const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${token.split('.')[1]}.`;
      for (const bad of [forged, none, 'garbage']) {
        const client = await server.connect(sessionId, bad);
        expect(await client.waitForClose()).toBe(4401);
        expect(client.events).toEqual([]);
      }
    });

    it("closes with 4403 on another learner's session, 4404 on an unknown one", async () => {
      const { sessionId } = await sessionOfSomeone();
      const other = await server.register();
      const client = await server.connect(sessionId, other.token);
      expect(await client.waitForClose()).toBe(4403);
      expect(client.events).toEqual([]);
      const missing = await server.connect('does-not-exist', other.token);
      expect(await missing.waitForClose()).toBe(4404);
    });
  });

  describe('a deleted session', () => {
    it('closes its open sockets with 4404, and a reconnect finds nothing', async () => {
      const { client, sessionId, token } = await openSession();
      const second = await server.connect(sessionId, token);
      await second.waitFor('history');
      const deleted = await server.api('DELETE', `/api/sessions/${sessionId}`, { token });
      expect(deleted.status).toBe(204);
      expect(await client.waitForClose()).toBe(4404);
      expect(await second.waitForClose()).toBe(4404);
      expect(client.closeReason).toBe('Session deleted');
      const again = await server.connect(sessionId, token);
      expect(await again.waitForClose()).toBe(4404);
    });
  });
});
