/**
 * The shared per-learner stores on a real PostgreSQL (SPEC §11; db/postgres/fleet-learners/):
 * the token buckets give the verdicts the in-memory buckets give, and under concurrent takes
 * from two instances never more tokens than the bucket holds; job claims are held by one
 * instance at a time and taken over once expired.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenBuckets, type LimitVerdict } from '../src/core/limits/learner-limits';
import type { Logger } from '../src/core/ports';
import { migratePostgres, openPool } from '../src/db/postgres/postgres-database';
import { PgJobClaims } from '../src/db/postgres/fleet-learners/pg-job-claims';
import { PgTokenBuckets } from '../src/db/postgres/fleet-learners/pg-token-buckets';
import { startPostgresServer, type PostgresServer } from './helpers/postgres-server';

const silentLogger: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

let database: PostgresServer;
let pool: ReturnType<typeof openPool>;

beforeAll(async () => {
  database = await startPostgresServer();
  pool = openPool(await database.createDatabase('learner_stores'), { max: 8 });
  // The tables come with the migrations (server/drizzle-postgres/0002_learner_state.sql).
  await migratePostgres(pool);
}, 120_000);

afterAll(async () => {
  await pool?.end();
  await database?.stop();
}, 60_000);

function steppingClock(start = Date.UTC(2026, 0, 1)) {
  let now = start;
  return { now: () => new Date(now), advance: (ms: number) => (now += ms) };
}

describe('PgTokenBuckets', () => {
  it('gives the verdicts of the in-memory buckets for the same takes at the same times', async () => {
    const clock = steppingClock();
    const budget = { limit: 3, windowMs: 3000 };
    const shared = new PgTokenBuckets(pool, clock, silentLogger);
    const memory = new TokenBuckets(budget, clock);
    const steps: Array<[advanceMs: number, key: string]> = [[0, 'a'], [0, 'a'], [0, 'a'], [0, 'a'], [400, 'a'], [600, 'a'], [0, 'a'], [0, 'b'], [60_000, 'a'], [0, 'a'], [0, 'a'], [0, 'a'], [1, 'a']];
    const fromPostgres: LimitVerdict[] = [];
    const fromMemory: LimitVerdict[] = [];
    for (const [advanceMs, key] of steps) {
      clock.advance(advanceMs);
      fromPostgres.push(await shared.take('frames', key, budget));
      fromMemory.push(memory.take(key));
    }
    expect(fromPostgres).toEqual(fromMemory);
    expect(fromPostgres.slice(0, 6)).toEqual([{ ok: true }, { ok: true }, { ok: true }, { ok: false, retryAfterMs: 1000 }, { ok: false, retryAfterMs: 600 }, { ok: true }]);
  });

  it('hands out exactly the bucket’s tokens when two instances take at once, and budgets are kept apart by name', async () => {
    const clock = steppingClock(Date.UTC(2026, 1, 1));
    const [one, two] = [new PgTokenBuckets(pool, clock, silentLogger), new PgTokenBuckets(pool, clock, silentLogger)];
    const budget = { limit: 5, windowMs: 60_000 };
    const verdicts = await Promise.all(Array.from({ length: 24 }, (_, index) => (index % 2 ? one : two).take('turns', 'learner', budget)));
    expect(verdicts.filter((verdict) => verdict.ok)).toHaveLength(5);
    expect(await one.take('sessions', 'learner', budget)).toEqual({ ok: true });
  });

  it('forgets buckets that are full again, and only those', async () => {
    const clock = steppingClock(Date.UTC(2026, 2, 1));
    const buckets = new PgTokenBuckets(pool, clock, silentLogger);
    await buckets.take('prune', 'idle', { limit: 2, windowMs: 1000 });
    clock.advance(1000);
    await buckets.take('prune', 'busy', { limit: 2, windowMs: 1000 });
    expect(await buckets.prune()).toBeGreaterThanOrEqual(1);
    const left = await pool.query<{ learner_id: string }>("SELECT learner_id FROM learner_budget_buckets WHERE budget = 'prune'");
    expect(left.rows.map((row) => row.learner_id)).toEqual(['busy']);
  });
});

describe('PgJobClaims', () => {
  it('lets one instance hold a learner’s job until it releases it', async () => {
    const [one, two] = [new PgJobClaims(pool), new PgJobClaims(pool)];
    expect(await Promise.all([one.claim('ada', 'optimize'), two.claim('ada', 'optimize')]).then((granted) => granted.filter(Boolean))).toEqual([true]);
    expect(await two.held('ada', 'optimize')).toBe(true);
    // Held: neither may claim it again, the holder included, while it runs.
    expect([await one.claim('ada', 'optimize'), await two.claim('ada', 'optimize')]).toEqual([false, false]);
    // Another learner's job is free.
    expect(await two.claim('bob', 'optimize')).toBe(true);
    // Releasing a claim one does not hold changes nothing; the holder's release frees it.
    await Promise.all([one.release('ada', 'optimize'), two.release('ada', 'optimize')]);
    expect(await one.held('ada', 'optimize')).toBe(false);
    expect(await one.claim('ada', 'optimize')).toBe(true);
  });

  it('takes over an expired claim (an instance that died holding it)', async () => {
    const dead = new PgJobClaims(pool, 0);
    const alive = new PgJobClaims(pool);
    expect(await dead.claim('cleo', 'optimize')).toBe(true);
    expect(await alive.held('cleo', 'optimize')).toBe(false);
    expect(await alive.claim('cleo', 'optimize')).toBe(true);
    // The dead instance's release, should it come back, does not free the new holder's claim.
    await dead.release('cleo', 'optimize');
    expect(await alive.held('cleo', 'optimize')).toBe(true);
  });
});
