/**
 * Per-learner state across instances (SPEC §8, §11; issue 24 "Per-learner state"): two servers
 * in this process on one real PostgreSQL (helpers/postgres-server.ts), one learner using both.
 * The learner's turn and frame budgets are one budget whichever instance counts them; signing
 * out everywhere or a new password on one instance closes the learner's sockets on the other;
 * the optimiser runs once for a learner when both instances are asked, or both sweep.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloseCodes, type AuthResponse, type SchedulerStatus, type ServerEvent } from '@tutorloop/shared';
import { uuidGenerator, type Logger } from '../src/core/ports';
import { defaultSchedulerSettings } from '../src/core/scheduler/fsrs';
import { syntheticReviewLog, syntheticTrueWeights } from '../src/core/scheduler/synthetic-log';
import { writeHistory } from '../src/core/scheduler/write-history';
import { openFleetLink, type FleetLink } from '../src/db/postgres/fleet/fleet-link';
import { openFleetLearners } from '../src/db/postgres/fleet-learners/fleet-learners';
import { createBindingOptimizer } from '../src/scheduler/binding-optimizer';
import { SchedulerService } from '../src/services/scheduler';
import { startPostgresServer, type PostgresServer } from './helpers/postgres-server';
import { startTestServer, type SocketClient, type TestServer } from './helpers/test-server';

const now = new Date('2026-11-01T09:00:00.000Z');
const clock = { now: () => now };
const silentLogger: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

let database: PostgresServer;
let url = '';
let one: TestServer;
let two: TestServer;
const opened: FleetLink[] = [];

beforeAll(async () => {
  database = await startPostgresServer();
  url = await database.createDatabase('fleet_learners');
  // One secret, as a deployment shares it: a token from one instance is good on the other.
  const env = { DATABASE_URL: url, JWT_SECRET: 'fleet-learners-test-secret-of-at-least-32-chars', TURN_RATE_LIMIT: '4', WS_RATE_LIMIT: '6' };
  one = await startTestServer({ clock, env });
  two = await startTestServer({ clock, env });
}, 120_000);

afterAll(async () => {
  await Promise.all(opened.map((link) => link.close()));
  await Promise.all([one?.close(), two?.close()]);
  await database?.stop();
}, 60_000);

/** A learner with a session on each instance and a socket open on each, both openings done. */
async function learnerOnBoth() {
  const { token } = await one.register();
  const set = await one.createSet(token, ['mitochondria make ATP', 'ribosomes build proteins'], 'Cells');
  const sockets: SocketClient[] = [];
  for (const server of [one, two]) {
    const socket = await server.connect(await server.createSession(token, set.id), token);
    await socket.waitFor('assistant');
    sockets.push(socket);
  }
  return { token, set, sockets: sockets as [SocketClient, SocketClient] };
}

/** The first `assistant` or `error` event from index `from`. */
async function answerTo(socket: SocketClient, from: number): Promise<ServerEvent> {
  for (let attempt = 0; attempt < 500; attempt += 1) {
    const found = socket.events.slice(from).find((event) => event.type === 'assistant' || event.type === 'error');
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no answer; got ${JSON.stringify(socket.events.slice(from).map((event) => event.type))}`);
}

describe('per-learner budgets across instances', () => {
  it('a turn budget spent on one instance is refused on the other, and the refused message is not stored', async () => {
    const { token, sockets } = await learnerOnBoth();
    const [onOne, onTwo] = sockets;
    // Spend what is left of the budget (the two openings took from it too) on the first instance.
    let answered = 0;
    for (;;) {
      const from = onOne.events.length;
      onOne.send({ type: 'chat', payload: { message: `mitochondria make ATP, try ${answered}` } });
      const answer = await answerTo(onOne, from);
      if (answer.type === 'error') break;
      answered += 1;
      expect(answered).toBeLessThan(4);
    }
    expect(answered).toBe(2);

    const from = onTwo.events.length;
    onTwo.send({ type: 'chat', payload: { message: 'ribosomes build proteins', clientMessageId: 'refused' } });
    expect(await answerTo(onTwo, from)).toEqual({
      type: 'error',
      payload: { code: 'rate_limited', message: 'Too many turns: at most 4 per 60 seconds across all your sessions; this message was not sent. Retry in 15 s.' },
    });
    const sessionOnTwo = (await two.api<{ sessions: Array<{ id: string }> }>('GET', '/api/sessions', { token })).body.sessions;
    for (const { id } of sessionOnTwo) {
      const replay = await two.api<{ messages: Array<{ content: string }> }>('GET', `/api/sessions/${id}/replay`, { token });
      expect(replay.body.messages.map((message) => message.content)).not.toContain('ribosomes build proteins');
    }
    for (const socket of sockets) socket.close();
  });

  it('a frame budget spent on one instance is refused on the other, and both connections stay open', async () => {
    const { sockets } = await learnerOnBoth();
    const [onOne, onTwo] = sockets;
    const start = onOne.events.length;
    for (let index = 0; index < 6; index += 1) onOne.sendRaw('{bad');
    for (let index = 0; index < 6; index += 1) await onOne.waitFor('error', { from: start + index });
    expect(onOne.events.slice(start).map((event) => (event.type === 'error' ? event.payload.code : event.type))).toEqual(Array(6).fill('invalid_json'));

    const from = onTwo.events.length;
    onTwo.sendRaw('{bad');
    expect(await answerTo(onTwo, from)).toEqual({
      type: 'error',
      payload: { code: 'rate_limited', message: 'Too many messages: at most 6 per 10 seconds across all your connections. Retry in 2 s.' },
    });
    expect([onOne.closeCode, onTwo.closeCode]).toEqual([null, null]);
    for (const socket of sockets) socket.close();
  });
});

describe('revocation across instances', () => {
  it('signing out everywhere on one instance closes the learner’s sockets on the other, and a new password does too', async () => {
    const { token, sockets } = await learnerOnBoth();
    const [onOne, onTwo] = sockets;
    expect((await one.api('POST', '/api/me/sign-out-everywhere', { token })).status).toBe(204);
    expect([await onTwo.waitForClose(), onTwo.closeReason]).toEqual([CloseCodes.unauthorized, 'Signed out: sign in again']);
    expect(await onOne.waitForClose()).toBe(CloseCodes.unauthorized);
    // The old token is refused by the other instance too.
    expect((await two.api('GET', '/api/me', { token })).status).toBe(401);

    const username = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sub as string;
    const learner = (await one.server.storage.read((reader) => reader.learners.get(username)))!;
    const login = await two.api<AuthResponse>('POST', '/api/auth/login', { body: { username: learner.username, password: 'correct horse battery' } });
    expect(login.status).toBe(200);
    const sessionId = (await one.api<{ sessions: Array<{ id: string }> }>('GET', '/api/sessions', { token: login.body.token })).body.sessions[0]!.id;
    const reopened = await one.connect(sessionId, login.body.token);
    await reopened.waitFor('history');
    const changed = await two.api('POST', '/api/me/password', { token: login.body.token, body: { currentPassword: 'correct horse battery', newPassword: 'a brand new secret' } });
    expect(changed.status).toBe(200);
    expect([await reopened.waitForClose(), reopened.closeReason]).toEqual([CloseCodes.unauthorized, 'Signed out: sign in again']);
  });
});

describe('a revocation an instance did not hear', () => {
  it('closes the socket once the instance’s listening connection is back (it checks its sockets’ tokens again)', async () => {
    const { token, sockets } = await learnerOnBoth();
    const learnerId = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sub as string;
    // Revoked with no announcement (as if sent while nobody listened): the token version moves in storage only.
    await one.server.storage.transaction(async (tx) => {
      const learner = (await tx.learners.get(learnerId))!;
      await tx.learners.update(learnerId, { tokenVersion: learner.tokenVersion + 1 });
    });
    expect(sockets.map((socket) => socket.closeCode)).toEqual([null, null]);
    // Cut both instances' listening connections (one each, shared by rooms and revocations): each reconnects and checks its open sockets.
    const direct = new pg.Client({ connectionString: url });
    await direct.connect();
    try {
      const cut = await direct.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'tutorloop-fleet'");
      expect(cut.rowCount).toBe(2);
    } finally {
      await direct.end();
    }
    for (const socket of sockets) expect([await socket.waitForClose(15_000), socket.closeReason]).toEqual([CloseCodes.unauthorized, 'Signed out: sign in again']);
  }, 60_000);
});

/** A learner with 500 synthetic reviews (enough for the automatic optimiser), written through the storage port. */
async function learnerWithHistory(server: TestServer) {
  const { token, learner } = await server.register();
  const log = syntheticReviewLog({ weights: syntheticTrueWeights, cards: 100, reviewsPerCard: 5, seed: learner.id, start: new Date('2026-01-01T00:00:00.000Z'), spreadDays: 60 }).map((reviews) =>
    reviews.filter((review) => review.reviewedAt < now),
  );
  const set = await server.createSet(token, log.map((_, index) => `synthetic point ${index}`));
  await server.server.storage.transaction(async (tx) => {
    for (const [index, reviews] of log.entries()) {
      await writeHistory(tx, { learnerId: learner.id, pointId: set.points[index]!.id, reviews }, defaultSchedulerSettings, uuidGenerator);
    }
  });
  return { token, learnerId: learner.id };
}

async function idleOn(server: TestServer, token: string): Promise<SchedulerStatus> {
  for (let attempt = 0; attempt < 1200; attempt += 1) {
    const status = (await server.api<SchedulerStatus>('GET', '/api/me/scheduler', { token })).body;
    if (status.optimization.state === 'idle' || status.optimization.state === 'failed') return status;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('optimisation did not finish');
}

describe("the optimiser across instances", () => {
  it('optimises once when the same learner asks both instances at once', async () => {
    const { token } = await learnerWithHistory(one);
    const asked = await Promise.all([one, two].map((server) => server.api<SchedulerStatus>('POST', '/api/me/scheduler/optimize', { token })));
    expect(asked.map((response) => response.status)).toEqual([202, 202]);
    const [afterOne, afterTwo] = [await idleOn(one, token), await idleOn(two, token)];
    expect(afterOne.runs).toHaveLength(1);
    expect(afterTwo).toEqual(afterOne);
    expect(afterOne.optimization).toEqual({ state: 'idle', progress: null, error: null });
  }, 120_000);

  it('optimises a learner once when two instances sweep at the same time', async () => {
    const { token, learnerId } = await learnerWithHistory(one);
    // Two instances' schedulers as the servers build them, each with its own claims on the shared table.
    const schedulers = [];
    for (const server of [one, two]) {
      const link = await openFleetLink(url, silentLogger);
      opened.push(link);
      const fleet = openFleetLearners(link, { clock, logger: silentLogger });
      schedulers.push(new SchedulerService({ storage: server.server.storage, optimizer: createBindingOptimizer(), clock, ids: uuidGenerator, logger: silentLogger, claims: fleet.claims }));
    }
    const swept = await Promise.all(schedulers.map((scheduler) => scheduler.sweep()));
    // Both found the learner due; only one of them optimised.
    for (const due of swept) expect(due).toContain(learnerId);
    await Promise.all(schedulers.map((scheduler) => scheduler.idle()));
    await Promise.all(schedulers.map((scheduler) => scheduler.close()));
    const status = (await two.api<SchedulerStatus>('GET', '/api/me/scheduler', { token })).body;
    expect(status.runs).toHaveLength(1);
    expect(status.parameters.source).toBe('optimised');
  }, 120_000);
});
