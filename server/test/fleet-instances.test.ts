/**
 * Several instances serving one session (SPEC §11): two servers in this process on one real
 * PostgreSQL (helpers/postgres-server.ts), with a socket of the session on each. (The
 * two-process test, with SIGKILL and SIGSTOP, is multi-instance.test.ts.)
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerEvent } from '@tutorloop/shared';
import { sessionTypeCatalog } from '../src/core/session-type-states';
import { isStorageError } from '../src/core/storage/storage-error';
import { openPostgresStorage } from '../src/db/postgres/postgres-storage';
import { startPostgresServer, type PostgresServer } from './helpers/postgres-server';
import { createScriptedProvider, type ScriptedProvider } from './helpers/scripted-provider';
import { startTestServer, type SocketClient, type TestServer } from './helpers/test-server';
import { assessmentSession, at, newLearner } from './storage-contract/fixtures';

let database: PostgresServer;
let url = '';
const servers: TestServer[] = [];

beforeAll(async () => {
  database = await startPostgresServer();
  url = await database.createDatabase('fleet');
}, 60_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await database?.stop();
}, 60_000);

async function start(provider: ScriptedProvider = createScriptedProvider()): Promise<TestServer> {
  const server = await startTestServer({ provider, env: { DATABASE_URL: url, JWT_SECRET: 'one secret for the whole fleet of test servers' } });
  servers.push(server);
  return server;
}

async function query<T extends pg.QueryResultRow>(statement: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(statement, values)).rows;
  } finally {
    await client.end();
  }
}

/** A session on `server`, its socket there open past the opening reply. */
async function openSession(server: TestServer): Promise<{ token: string; sessionId: string; socket: SocketClient }> {
  const { token } = await server.register();
  const set = await server.createSet(token, ['mitochondria make ATP', 'ribosomes build proteins', 'the nucleus holds DNA'], 'Cells');
  const sessionId = await server.createSession(token, set.id);
  const socket = await server.connect(sessionId, token);
  await socket.waitFor('assistant');
  await socket.waitFor('state_update', { where: (event) => event.payload.state.status === 'active' });
  return { token, sessionId, socket };
}

function assistants(events: readonly ServerEvent[]): string[] {
  return events.flatMap((event) => (event.type === 'assistant' ? [event.payload.message] : []));
}

describe('two instances on one PostgreSQL', () => {
  it('deliver the same frames in the same order to a socket on each, for chats and the end sent through either', async () => {
    const [a, b] = [await start(), await start()];
    const { token, sessionId, socket: onA } = await openSession(a);
    const onB = await b.connect(sessionId, token);
    const history = await onB.waitFor('history');
    expect(history.payload.messages.map((message) => message.content)).toEqual(['Tutor reply for turn 0.']);
    const [fromA, fromB] = [onA.events.length, onB.events.length];

    const replied = async (turn: number) => {
      for (const socket of [onA, onB]) await socket.waitFor('assistant', { from: socket === onA ? fromA : fromB, where: (event) => event.payload.message === `Tutor reply for turn ${turn}.` });
    };
    onB.send({ type: 'chat', payload: { message: 'mitochondria make ATP', clientMessageId: 'b1' } });
    await replied(1);
    onA.send({ type: 'chat', payload: { message: 'ribosomes build proteins', clientMessageId: 'a1' } });
    await replied(2);
    onB.send({ type: 'end_session', payload: {} });
    for (const socket of [onA, onB]) await socket.waitFor('session_complete', { from: socket === onA ? fromA : fromB });

    const seenOnA = onA.events.slice(fromA);
    const seenOnB = onB.events.slice(fromB);
    expect(assistants(seenOnA)).toEqual(['Tutor reply for turn 1.', 'Tutor reply for turn 2.']);
    expect(seenOnB).toEqual(seenOnA);
    expect(seenOnA.map((event) => event.type)).toContain('assistant_delta');
    onA.close();
    onB.close();
  }, 60_000);

  it('store and answer once a chat sent with one clientMessageId to both instances', async () => {
    const [a, b] = [await start(), await start()];
    const { token, sessionId, socket: onA } = await openSession(a);
    const onB = await b.connect(sessionId, token);
    await onB.waitFor('history');
    const from = onA.events.length;

    onA.send({ type: 'chat', payload: { message: 'the nucleus holds DNA', clientMessageId: 'twice' } });
    onB.send({ type: 'chat', payload: { message: 'the nucleus holds DNA', clientMessageId: 'twice' } });
    await onA.waitFor('assistant', { from });
    // B's frames reach the owner in order: once the next chat from B is answered, its resend was handled.
    onB.send({ type: 'chat', payload: { message: 'mitochondria make ATP', clientMessageId: 'next' } });
    await onA.waitFor('state_update', { from, where: (event) => event.payload.state.recalledCount === 2 });
    await onA.waitFor('assistant', { from, where: (event) => event.payload.message === 'Tutor reply for turn 2.' });

    expect(assistants(onA.events.slice(from))).toEqual(['Tutor reply for turn 1.', 'Tutor reply for turn 2.']);
    const stored = await query<{ role: string; content: string }>('SELECT role, content FROM messages WHERE session_id = $1 ORDER BY seq', [sessionId]);
    expect(stored.map((row) => [row.role, row.content])).toEqual([
      ['tutor', 'Tutor reply for turn 0.'],
      ['learner', 'the nucleus holds DNA'],
      ['tutor', 'Tutor reply for turn 1.'],
      ['learner', 'mitochondria make ATP'],
      ['tutor', 'Tutor reply for turn 2.'],
    ]);
    // Listed, not counted, so a failure says which error came.
    expect(onA.events.filter((event) => event.type === 'error')).toEqual([]);
    expect(onB.events.filter((event) => event.type === 'error')).toEqual([]);
    onA.close();
    onB.close();
  }, 60_000);

  it('give a socket attaching on the other instance mid-reply the state, history and text so far, nothing doubled', async () => {
    const provider = createScriptedProvider();
    const [a, b] = [await start(provider), await start()];
    const { token, sessionId, socket: onA } = await openSession(a);
    provider.chunkDelayMs = 300;
    const from = onA.events.length;
    onA.send({ type: 'chat', payload: { message: 'mitochondria make ATP', clientMessageId: 'mid' } });
    await onA.waitFor('assistant_delta', { from });

    const onB = await b.connect(sessionId, token);
    const reply = await onB.waitFor('assistant', { timeoutMs: 10_000 });
    expect(reply.payload.message).toBe('Tutor reply for turn 1.');
    const history = onB.events.find((event) => event.type === 'history');
    expect(history?.type === 'history' && history.payload.messages.map((message) => message.content)).toEqual(['Tutor reply for turn 0.', 'mitochondria make ATP']);
    // The text streamed before the attach (one delta) and after it adds up to the reply, once.
    const streamed = onB.events.flatMap((event) => (event.type === 'assistant_delta' && event.payload.messageId === reply.payload.messageId ? [event.payload.delta] : []));
    expect(streamed.join('')).toBe(reply.payload.message);
    expect(assistants(onB.events)).toEqual(['Tutor reply for turn 1.']);
    expect(onB.events.filter((event) => event.type === 'history')).toHaveLength(1);
    provider.chunkDelayMs = 0;
    onA.close();
    onB.close();
  }, 60_000);

  it('log what a turn emits while a log write is held up in one later write, and both sockets still get every delta in order (issue 27)', async () => {
    const provider = createScriptedProvider();
    const [a, b] = [await start(provider), await start()];
    const { token, sessionId, socket: onA } = await openSession(a);
    const onB = await b.connect(sessionId, token);
    await onB.waitFor('history');
    const [fromA, fromB] = [onA.events.length, onB.events.length];
    const last = (await query<{ last: string }>('SELECT coalesce(max(id), 0) AS last FROM session_events WHERE session_id = $1', [sessionId]))[0]!.last;
    // Hold every write to the log (reads go on), so the turn's first write waits while the rest of
    // the turn — three chunks 20 ms apart, the reply committed — is emitted behind it.
    const blocker = new pg.Client({ connectionString: url });
    await blocker.connect();
    await blocker.query('BEGIN');
    await blocker.query('LOCK TABLE session_events IN EXCLUSIVE MODE');
    provider.chunkDelayMs = 20;
    onA.send({ type: 'chat', payload: { message: 'mitochondria make ATP', clientMessageId: 'held' } });
    while ((await query('SELECT 1 FROM messages WHERE session_id = $1 AND content = $2', [sessionId, 'Tutor reply for turn 1.'])).length === 0) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await blocker.query('COMMIT');
    await blocker.end();

    for (const [socket, from] of [[onA, fromA], [onB, fromB]] as const) {
      await socket.waitFor('assistant', { from, timeoutMs: 10_000 });
      await socket.waitFor('state_update', { from: socket.events.findIndex((event, index) => index >= from && event.type === 'assistant') });
    }
    const seenOnA = onA.events.slice(fromA);
    const seenOnB = onB.events.slice(fromB);
    expect(seenOnB).toEqual(seenOnA);
    const reply = seenOnA.find((event) => event.type === 'assistant');
    const streamed = seenOnA.flatMap((event) => (event.type === 'assistant_delta' ? [event.payload.delta] : []));
    expect(streamed).toEqual(['Tutor ', 'reply ', 'for turn 1.']);
    expect(reply?.type === 'assistant' && reply.payload.message).toBe('Tutor reply for turn 1.');
    // One write per tick would be one statement per chunk; what waited went in one (now() is a statement's own here).
    const writes = (await query<{ writes: number }>('SELECT count(DISTINCT created_at)::int AS writes FROM session_events WHERE session_id = $1 AND id > $2', [sessionId, last]))[0]!.writes;
    expect(writes).toBeLessThanOrEqual(3);
    provider.chunkDelayMs = 0;
    onA.close();
    onB.close();
  }, 60_000);

  it('answer an HTTP step sent to the instance that does not run the session', async () => {
    const [a, b] = [await start(), await start()];
    const { token, sessionId, socket: onA } = await openSession(a);
    const from = onA.events.length;
    const step = await b.api<{ reply: { message: string } | null; state: { recalledCount: number } }>('POST', `/api/sessions/${sessionId}/step`, { token, body: { message: 'ribosomes build proteins' } });
    expect(step.status).toBe(200);
    expect(step.body.reply?.message).toBe('Tutor reply for turn 1.');
    expect(step.body.state.recalledCount).toBe(1);
    // The socket on the running instance saw the turn too.
    await onA.waitFor('assistant', { from });
    onA.close();
  }, 60_000);

  it('close the sockets on every instance when the session is deleted through one', async () => {
    const [a, b] = [await start(), await start()];
    const { token, sessionId, socket: onA } = await openSession(a);
    const onB = await b.connect(sessionId, token);
    await onB.waitFor('history');
    expect((await b.api('DELETE', `/api/sessions/${sessionId}`, { token })).status).toBe(204);
    for (const socket of [onA, onB]) {
      await new Promise<void>((resolve) => (socket.closeCode !== null ? resolve() : socket.socket.once('close', () => resolve())));
      expect(socket.closeCode).toBe(4404);
    }
  }, 60_000);
});

describe('a takeover', () => {
  it('lets the other instance run the session once the lease expired (its holder stalled), both sockets still served, nothing doubled', async () => {
    const [a, b] = [await start(), await start()];
    const { token, sessionId, socket: onA } = await openSession(a);
    const onB = await b.connect(sessionId, token);
    await onB.waitFor('history');
    const [fromA, fromB] = [onA.events.length, onB.events.length];
    // As if A froze past its lease and a third instance took it and died: the lease is expired and not A's.
    await query("UPDATE session_leases SET owner = 'stalled', epoch = epoch + 1, expires_at = now() - interval '1 second' WHERE session_id = $1", [sessionId]);

    onB.send({ type: 'chat', payload: { message: 'mitochondria make ATP', clientMessageId: 'after-takeover' } });
    for (const [socket, from] of [[onA, fromA], [onB, fromB]] as const) {
      await socket.waitFor('state_update', { from, timeoutMs: 15_000, where: (event) => event.payload.state.recalledCount === 1 });
      expect(assistants(socket.events.slice(from))).toEqual(['Tutor reply for turn 1.']);
      // The new owner cannot know what the stalled one had sent: each socket gets the history again.
      const resync = await socket.waitFor('history', { from });
      expect(resync.payload.messages.map((message) => message.content)).toEqual(['Tutor reply for turn 0.']);
    }
    const [lease] = await query<{ owner: string; epoch: string }>('SELECT owner, epoch FROM session_leases WHERE session_id = $1', [sessionId]);
    expect(lease?.owner).not.toBe('stalled');
    expect(Number(lease?.epoch)).toBeGreaterThan(2);
    const stored = await query<{ role: string }>('SELECT role FROM messages WHERE session_id = $1 ORDER BY seq', [sessionId]);
    expect(stored.map((row) => row.role)).toEqual(['tutor', 'learner', 'tutor']);
    onA.close();
    onB.close();
  }, 60_000);
});

describe('a command taken by an owner that lost the session before running it', () => {
  it('is run by the new owner exactly once; a chat without a clientMessageId is dropped rather than risk storing it twice', async () => {
    const [a, b] = [await start(), await start()];
    const { token, sessionId, socket: onA } = await openSession(a);
    const onB = await b.connect(sessionId, token);
    await onB.waitFor('history');
    const [fromA, fromB] = [onA.events.length, onB.events.length];
    // As if an owner took two frames of B's socket and froze past its lease before running them
    // (the row a taker leaves until the command ran): the lease expired, and is not A's any more.
    const [stalled] = await query<{ epoch: string }>("UPDATE session_leases SET owner = 'stalled', epoch = epoch + 1, expires_at = now() - interval '1 second' WHERE session_id = $1 RETURNING epoch", [sessionId]);
    const taken = (frame: unknown) =>
      query("INSERT INTO session_commands (session_id, target, frame, taken_by, taken_epoch) VALUES ($1, 'a-socket-of-b', $2::jsonb, 'stalled', $3)", [sessionId, JSON.stringify({ kind: 'frame', frame }), stalled?.epoch]);
    await taken({ type: 'chat', payload: { message: 'the nucleus holds DNA' } });
    await taken({ type: 'chat', payload: { message: 'mitochondria make ATP', clientMessageId: 'taken-then-lost' } });

    for (const [socket, from] of [[onA, fromA], [onB, fromB]] as const) {
      await socket.waitFor('state_update', { from, timeoutMs: 15_000, where: (event) => event.payload.state.recalledCount === 1 });
      await socket.waitFor('assistant', { from, where: (event) => event.payload.message === 'Tutor reply for turn 1.' });
    }
    // The new owner takes commands again: the one it ran is not among them.
    onB.send({ type: 'chat', payload: { message: 'ribosomes build proteins', clientMessageId: 'after' } });
    for (const [socket, from] of [[onA, fromA], [onB, fromB]] as const) {
      await socket.waitFor('assistant', { from, where: (event) => event.payload.message === 'Tutor reply for turn 2.' });
      expect(assistants(socket.events.slice(from))).toEqual(['Tutor reply for turn 1.', 'Tutor reply for turn 2.']);
    }
    const stored = await query<{ role: string; content: string }>('SELECT role, content FROM messages WHERE session_id = $1 ORDER BY seq', [sessionId]);
    expect(stored.map((row) => [row.role, row.content])).toEqual([
      ['tutor', 'Tutor reply for turn 0.'],
      ['learner', 'mitochondria make ATP'],
      ['tutor', 'Tutor reply for turn 1.'],
      ['learner', 'ribosomes build proteins'],
      ['tutor', 'Tutor reply for turn 2.'],
    ]);
    // Each command is removed once it ran (or was dropped).
    let left = -1;
    for (let attempt = 0; attempt < 200 && left !== 0; attempt += 1) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 50));
      left = (await query('SELECT 1 FROM session_commands WHERE session_id = $1', [sessionId])).length;
    }
    expect(left).toBe(0);
    onA.close();
    onB.close();
  }, 60_000);
});

describe('fencing', () => {
  it('refuses a commit made under a lease that was taken over, and writes nothing', async () => {
    const storage = await openPostgresStorage(url, sessionTypeCatalog, { poolSize: 2 });
    try {
      const learnerId = 'fenced-learner';
      const sessionId = 'fenced-session';
      await storage.transaction(async (tx) => {
        await tx.learners.create(newLearner(learnerId));
        await tx.sessions.create(assessmentSession(sessionId, learnerId));
      });
      await query("INSERT INTO session_leases (session_id, owner, epoch, expires_at) VALUES ($1, 'me', 1, now() + interval '1 minute')", [sessionId]);
      const fence = { sessionId, owner: 'me', epoch: 1 };
      const rename = (title: string) => storage.runFenced(fence, () => storage.transaction((tx) => tx.sessions.update(sessionId, { title }, at(5))));

      await rename('while held');
      // Another instance takes the session over (a paused holder's lease expired).
      await query("UPDATE session_leases SET owner = 'other', epoch = epoch + 1 WHERE session_id = $1", [sessionId]);
      const refused = await rename('after the takeover').then(() => null, (error: unknown) => error);
      expect(isStorageError(refused, 'fenced')).toBe(true);
      const stored = await storage.read((reader) => reader.sessions.get(sessionId));
      expect(stored?.title).toBe('while held');
    } finally {
      await storage.close();
    }
  }, 60_000);
});
