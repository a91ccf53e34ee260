/**
 * SPEC §11 (issue 24 item 4): two server PROCESSES on one real PostgreSQL serve one session
 * together. Each instance has its own data folder and its own fake Messages API on loopback
 * (so a test can tell which instance ran a turn, and hold that instance's model reply open);
 * they share the database and the JWT secret, so a token of one is valid on the other.
 * The owner of a session is the instance that accepted it first (socket `a` on instance one);
 * the other instance holds socket `b`. Nothing here knows how ownership or fan-out is built:
 * the tests look only at frames, REST and what the storage port reads.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CloseCodes, type AuthResponse, type RecallSetDetail, type ServerEvent, type SessionReplay } from '@tutorloop/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sessionTypeCatalog } from '../src/core/session-type-states';
import type { StoredMessage } from '../src/core/storage/messages';
import { openPostgresStorage, type PostgresStorage } from '../src/db/postgres/postgres-storage';
import { fakeReplies, startFakeAnthropic, type FakeAnthropic, type FakeReply, type FakeScript } from './helpers/fake-anthropic';
import { startPostgresServer, type PostgresServer } from './helpers/postgres-server';
import { postJson, startServerProcess, type ServerProcess } from './helpers/server-process';
import { SocketClient } from './helpers/test-server';

/** The lease's time to live is 5 s: a paused owner has lost it after this long. */
const pastTheLease = 7_000;
/** Waits are generous: two tsx servers, PostgreSQL and other test runs share two cores. */
const wait = { timeoutMs: 30_000 };

interface Instance {
  readonly name: 'one' | 'two';
  fake: FakeAnthropic;
  dataDir: string;
  process: ServerProcess | null;
  /** Tutor replies this instance's fake has given (its default replies are numbered, so each names its instance). */
  replies: number;
}

let database: PostgresServer;
let databaseUrl = '';
let storage: PostgresStorage;
const instances: Instance[] = [];
const sockets: SocketClient[] = [];
const jwtSecret = 'multi-instance-test-secret-0123456789abcdef';

async function startInstance(instance: Instance): Promise<void> {
  instance.process = await startServerProcess(instance.dataDir, {
    DATABASE_URL: databaseUrl,
    JWT_SECRET: jwtSecret,
    LLM_PROVIDER: 'anthropic',
    ANTHROPIC_API_KEY: 'test-key',
    ANTHROPIC_BASE_URL: instance.fake.url,
  });
}

/** A fresh process for an instance that was killed. */
async function ensureRunning(instance: Instance): Promise<void> {
  const child = instance.process?.child;
  if (child && child.exitCode === null && child.signalCode === null) return;
  await startInstance(instance);
}

async function createInstance(name: Instance['name']): Promise<Instance> {
  const fake = await startFakeAnthropic();
  const instance: Instance = { name, fake, dataDir: mkdtempSync(path.join(tmpdir(), `tutorloop-fleet-${name}-`)), process: null, replies: 0 };
  fake.setDefault('tutor', () => {
    instance.replies += 1;
    return fakeReplies.text(`Tutor ${name}, reply ${instance.replies}.`);
  });
  instances.push(instance);
  await startInstance(instance);
  return instance;
}

let one: Instance;
let two: Instance;

beforeAll(async () => {
  database = await startPostgresServer();
  databaseUrl = await database.createDatabase('fleet');
  // Started one after the other: both apply migrations at start, and the test does not
  // depend on the advisory lock that lets them start together.
  one = await createInstance('one');
  two = await createInstance('two');
  storage = await openPostgresStorage(databaseUrl, sessionTypeCatalog, { poolSize: 2 });
}, 180_000);

// A failure shows what the two servers printed (their logs are at LOG_LEVEL=warn).
beforeEach(({ onTestFailed }) => {
  onTestFailed(() => {
    for (const instance of instances) console.info(`instance ${instance.name} printed:\n${instance.process?.output().slice(-3000) ?? '(not running)'}`);
  });
});

afterAll(async () => {
  for (const socket of sockets) socket.close();
  for (const instance of instances) {
    const child = instance.process?.child;
    // A stopped process cannot die of SIGKILL until it is continued.
    child?.kill('SIGCONT');
    child?.kill('SIGKILL');
  }
  await storage?.close();
  await Promise.all(instances.map((instance) => instance.fake.close()));
  await database?.stop();
  for (const instance of instances) rmSync(instance.dataDir, { recursive: true, force: true });
}, 60_000);

function urlOf(instance: Instance): string {
  if (!instance.process) throw new Error(`instance ${instance.name} is not running`);
  return instance.process.url;
}

let learners = 0;

/** A learner, a recall set and a session, created on instance one. */
async function newSession(): Promise<{ token: string; sessionId: string }> {
  learners += 1;
  const { token } = await postJson<AuthResponse>(urlOf(one), '/api/auth/register', { username: `fleet${process.pid}x${learners}`, password: 'two instances, one truth' });
  const set = await postJson<RecallSetDetail>(
    urlOf(one),
    '/api/recall-sets',
    { name: 'Cells', points: [{ content: 'mitochondria make ATP' }, { content: 'ribosomes build proteins' }, { content: 'the nucleus stores DNA' }] },
    token,
  );
  const { sessionId } = await postJson<{ sessionId: string }>(urlOf(one), '/api/sessions', { type: 'recall', recallSetId: set.id }, token);
  return { token, sessionId };
}

async function connect(instance: Instance, sessionId: string, token: string): Promise<SocketClient> {
  const socket = await SocketClient.open(`${urlOf(instance).replace('http', 'ws')}/sessions/ws/${sessionId}?token=${encodeURIComponent(token)}`);
  sockets.push(socket);
  return socket;
}

/**
 * The session's owner is instance one (socket `a` opened there first, the opening turn
 * finished), and socket `b` is attached on instance two.
 */
async function sessionOnBoth(): Promise<{ token: string; sessionId: string; a: SocketClient; b: SocketClient }> {
  const { token, sessionId } = await newSession();
  const a = await connect(one, sessionId, token);
  await a.waitFor('assistant', wait);
  await a.waitFor('state_update', { ...wait, where: (event) => event.payload.state.status === 'active' });
  const b = await connect(two, sessionId, token);
  await b.waitFor('history', wait);
  return { token, sessionId, a, b };
}

async function replay(instance: Instance, sessionId: string, token: string): Promise<SessionReplay['messages']> {
  const response = await fetch(`${urlOf(instance)}/api/sessions/${sessionId}/replay`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  return ((await response.json()) as SessionReplay).messages;
}

/** Every stored message of the session, superseded replies too, read through the storage port. */
function stored(sessionId: string): Promise<StoredMessage[]> {
  return storage.read((reader) => reader.messages.list(sessionId, { includeSuperseded: true }));
}

/** Waits until a socket has seen `count` whole replies since event `from`. */
async function waitForReplies(socket: SocketClient, from: number, count: number): Promise<Array<Extract<ServerEvent, { type: 'assistant' }>>> {
  await socket.waitFor('assistant', { ...wait, from, where: () => socket.events.slice(from).filter((event) => event.type === 'assistant').length >= count });
  return socket.events.slice(from).filter((event): event is Extract<ServerEvent, { type: 'assistant' }> => event.type === 'assistant');
}

/** A tutor reply script that reports when this instance's model was asked, then answers `reply`. */
function announcing(reply: FakeReply): { script: FakeScript; asked: Promise<void> } {
  let resolve!: () => void;
  const asked = new Promise<void>((done) => (resolve = done));
  return {
    asked,
    script: () => {
      resolve();
      return reply;
    },
  };
}

/** Which instance's model was asked first for the turn. */
function firstAsked(onOne: Promise<void>, onTwo: Promise<void>): Promise<'one' | 'two'> {
  return Promise.race([onOne.then(() => 'one' as const), onTwo.then(() => 'two' as const)]);
}

/** Each learner message of a replay with the visible tutor replies after it (the greeting, before any, is left out). */
function answers(messages: SessionReplay['messages']): Array<[string, string[]]> {
  const pairs: Array<[string, string[]]> = [];
  for (const message of messages) {
    if (message.role === 'learner') pairs.push([message.content, []]);
    else pairs.at(-1)?.[1].push(message.content);
  }
  return pairs;
}

describe('two server processes on one PostgreSQL (SPEC §11)', () => {
  it('both sockets receive every frame of every turn, in the same order', { timeout: 90_000 }, async () => {
    const { a, b } = await sessionOnBoth();
    const fromA = a.events.length;
    const fromB = b.events.length;
    const messages = ['I think mitochondria make ATP', 'not sure about the rest', 'ribosomes build proteins'];
    for (const [index, message] of messages.entries()) {
      // Turns are sent from either socket: a frame sent to the instance that does not own the session counts too.
      (index % 2 === 0 ? a : b).send({ type: 'chat', payload: { message, clientMessageId: `order-${index}` } });
      await waitForReplies(a, fromA, index + 1);
      await waitForReplies(b, fromB, index + 1);
    }
    b.send({ type: 'end_session', payload: {} });
    await a.waitFor('session_complete', { ...wait, from: fromA });
    await b.waitFor('session_complete', { ...wait, from: fromB });

    const untilComplete = (socket: SocketClient, from: number) => {
      const events = socket.events.slice(from);
      return events.slice(0, events.findIndex((event) => event.type === 'session_complete') + 1);
    };
    const seenByA = untilComplete(a, fromA);
    expect(seenByA.filter((event) => event.type === 'assistant')).toHaveLength(messages.length);
    expect(untilComplete(b, fromB)).toEqual(seenByA);
  });

  it('a chat sent twice with one clientMessageId, once to each instance, is stored and answered once', { timeout: 90_000 }, async () => {
    const { token, sessionId, a, b } = await sessionOnBoth();
    const fromA = a.events.length;
    const fromB = b.events.length;
    a.send({ type: 'chat', payload: { message: 'the nucleus stores DNA', clientMessageId: 'sent-twice' } });
    b.send({ type: 'chat', payload: { message: 'the nucleus stores DNA', clientMessageId: 'sent-twice' } });
    await waitForReplies(a, fromA, 1);
    await waitForReplies(b, fromB, 1);
    // A later turn, sent once the first is answered: by its reply, whatever the resend caused has happened.
    a.send({ type: 'chat', payload: { message: 'that is all I know', clientMessageId: 'after' } });
    const repliesOnA = await waitForReplies(a, fromA, 2);
    const repliesOnB = await waitForReplies(b, fromB, 2);

    const history = await replay(two, sessionId, token);
    expect(answers(history)).toEqual([
      ['the nucleus stores DNA', [expect.any(String)]],
      ['that is all I know', [expect.any(String)]],
    ]);
    const learnerRows = (await stored(sessionId)).filter((message) => message.role === 'learner');
    expect(learnerRows.map((message) => [message.content, message.clientMessageId])).toEqual([
      ['the nucleus stores DNA', 'sent-twice'],
      ['that is all I know', 'after'],
    ]);
    // Each socket saw one reply per stored learner message, the same ones.
    const visibleTutor = history.filter((message) => message.role === 'tutor').slice(-2);
    expect(repliesOnA.map((event) => [event.payload.messageId, event.payload.message])).toEqual(visibleTutor.map((message) => [message.id, message.content]));
    expect(repliesOnB).toEqual(repliesOnA);
    a.close();
    b.close();
  });

  it('SIGKILL of the instance running a turn: the other takes over within 10 s and answers the message exactly once', { timeout: 90_000 }, async () => {
    await ensureRunning(one);
    const { token, sessionId, a, b } = await sessionOnBoth();
    const held = announcing(fakeReplies.hang());
    const takeover = announcing(fakeReplies.text('Tutor two finishes what one began.'));
    one.fake.enqueue('tutor', held.script);
    two.fake.enqueue('tutor', takeover.script);
    const historyOnB = await b.waitFor('history');
    const fromB = b.events.length;
    b.send({ type: 'chat', payload: { message: 'ribosomes build proteins', clientMessageId: 'before-the-kill' } });
    // The owner runs the turn; its model reply is held open, so the kill lands mid-turn.
    expect(await firstAsked(held.asked, takeover.asked)).toBe('one');
    one.process!.child.kill('SIGKILL');
    const killedAt = Date.now();
    await a.waitForClose(wait.timeoutMs);

    const [reply] = await waitForReplies(b, fromB, 1);
    const seconds = (Date.now() - killedAt) / 1000;
    console.info(`takeover after ${seconds.toFixed(1)} s (owner SIGKILLed mid-turn → the reply on the other instance's socket)`);
    expect(reply!.payload.message).toBe('Tutor two finishes what one began.');
    expect(seconds).toBeLessThan(10);

    // The replay equals what the surviving socket saw: its history on attach, then the learner's message and the one reply.
    const history = await replay(two, sessionId, token);
    const seen = [...historyOnB.payload.messages.map((message) => [message.role, message.content]), ['learner', 'ribosomes build proteins'], ['tutor', reply!.payload.message]];
    console.info(`replay after the takeover: ${JSON.stringify(history.map((message) => [message.role, message.content]))}`);
    expect(history.map((message) => [message.role, message.content])).toEqual(seen);
    expect(history.at(-1)!.id).toBe(reply!.payload.messageId);
    // Nothing lost or duplicated in the store either: the message once, answered once, no superseded or stray reply.
    const rows = await stored(sessionId);
    expect(rows.map((message) => [message.role, message.content, message.supersededBy])).toEqual(seen.map(([role, content]) => [role, content, null]));
    expect(rows.find((message) => message.clientMessageId === 'before-the-kill')?.answeredAt).toBeInstanceOf(Date);
    b.close();
  });

  it("SIGSTOP of the owner past its lease: the other finishes the turns, and after SIGCONT the old owner's commit is refused", { timeout: 120_000 }, async () => {
    await ensureRunning(one);
    const { token, sessionId, a, b } = await sessionOnBoth();
    // The paused owner's reply arrives while it sleeps; after SIGCONT it would commit it.
    const stale = announcing(fakeReplies.text('A stale reply from the paused owner.', { eventDelayMs: 100 }));
    const takeover = announcing(fakeReplies.text('Tutor two answers while one sleeps.'));
    one.fake.enqueue('tutor', stale.script);
    two.fake.enqueue('tutor', takeover.script);
    const fromA = a.events.length;
    const fromB = b.events.length;
    b.send({ type: 'chat', payload: { message: 'what does the nucleus do', clientMessageId: 'during-the-pause' } });
    expect(await firstAsked(stale.asked, takeover.asked)).toBe('one');
    const child = one.process!.child;
    child.kill('SIGSTOP');
    try {
      await new Promise((resolve) => setTimeout(resolve, pastTheLease));
      const [first] = await waitForReplies(b, fromB, 1);
      expect(first!.payload.message).toBe('Tutor two answers while one sleeps.');
      // Another turn, sent to and finished by instance two while one is still paused.
      b.send({ type: 'chat', payload: { message: 'and the ribosomes?', clientMessageId: 'second-during-the-pause' } });
      await waitForReplies(b, fromB, 2);
    } finally {
      child.kill('SIGCONT');
    }
    // After the resume, a turn through the old owner's socket: by its reply, the old owner has
    // long had its stale reply in hand and tried to commit it.
    a.send({ type: 'chat', payload: { message: 'one more thing', clientMessageId: 'after-the-pause' } });
    await waitForReplies(b, fromB, 3);
    await waitForReplies(a, fromA, 1);

    const history = await replay(one, sessionId, token);
    expect(answers(history).map(([learner, replies]) => [learner, replies.length])).toEqual([
      ['what does the nucleus do', 1],
      ['and the ribosomes?', 1],
      ['one more thing', 1],
    ]);
    const rows = await stored(sessionId);
    expect(rows.filter((message) => message.content === 'A stale reply from the paused owner.')).toEqual([]);
    expect(rows.filter((message) => message.role === 'learner').map((message) => message.content)).toEqual(['what does the nucleus do', 'and the ribosomes?', 'one more thing']);
    expect(rows.filter((message) => message.role === 'tutor')).toHaveLength(4);
    // No socket was shown the refused reply as a whole reply.
    for (const socket of [a, b]) {
      expect(socket.events.filter((event) => event.type === 'assistant' && event.payload.message === 'A stale reply from the paused owner.')).toEqual([]);
    }
    a.close();
    b.close();
  });

  it("sign-out-everywhere on one instance closes the learner's socket on the other", { timeout: 90_000 }, async () => {
    await ensureRunning(one);
    const { token, a, b } = await sessionOnBoth();
    const response = await fetch(`${urlOf(two)}/api/me/sign-out-everywhere`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBeLessThan(300);
    expect(await a.waitForClose(wait.timeoutMs)).toBe(CloseCodes.unauthorized);
    expect(await b.waitForClose(wait.timeoutMs)).toBe(CloseCodes.unauthorized);
  });
});
