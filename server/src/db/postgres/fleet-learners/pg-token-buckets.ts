/**
 * Token buckets in PostgreSQL (the `TokenBucketStore` port of core/limits/learner-limits.ts),
 * so a learner's frame, session and model-operation budgets are one budget across every
 * instance (SPEC §8, §11). The same bucket as in memory — `limit` tokens, refilled at
 * `limit / windowMs` — taken in one statement, one round trip: an `INSERT … ON CONFLICT … DO
 * UPDATE` refills and takes under the row's lock, so two instances taking at once are
 * serialised by the engine and never both get the last token.
 *
 * Time is the clock the server is given (as for the in-memory buckets and every other rule),
 * not the database's: tests run on a fixed clock, and instances run NTP-synchronised. A row's
 * time never moves back, so an instance whose clock lags refills nothing twice; a bucket never
 * holds more than `limit`, whatever the skew.
 */
import type pg from 'pg';
import type { Clock, Logger } from '../../../core/ports';
import { retryAfterFor, type LimitVerdict, type RateBudget, type TokenBucketStore } from '../../../core/limits/learner-limits';

/** Takes between two prunes of full buckets. */
const pruneEvery = 1024;

// $1 learner, $2 budget name, $3 limit, $4 window (ms), $5 now (ms). The refill is written out
// in each place it is used: ON CONFLICT's SET cannot name an expression.
const refilled = 'LEAST($3::float8, bucket.tokens + GREATEST(0, $5::bigint - bucket.updated_at_ms) * $3::float8 / $4::bigint)';
const takeStatement = `
  INSERT INTO learner_budget_buckets AS bucket (learner_id, budget, tokens, updated_at_ms, window_ms, taken)
  VALUES ($1, $2, $3::float8 - 1, $5::bigint, $4::bigint, true)
  ON CONFLICT (learner_id, budget) DO UPDATE SET
    tokens = CASE WHEN ${refilled} >= 1 THEN ${refilled} - 1 ELSE ${refilled} END,
    taken = ${refilled} >= 1,
    updated_at_ms = GREATEST(bucket.updated_at_ms, $5::bigint),
    window_ms = $4::bigint
  RETURNING tokens, taken`;

export class PgTokenBuckets implements TokenBucketStore {
  private takesSincePrune = 0;

  constructor(
    private readonly pool: pg.Pool,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  async take(name: string, key: string, budget: RateBudget): Promise<LimitVerdict> {
    const now = this.clock.now().getTime();
    this.pruneSometimes(now);
    const result = await this.pool.query<{ tokens: number; taken: boolean }>(takeStatement, [key, name, budget.limit, budget.windowMs, now]);
    const row = result.rows[0]!;
    return row.taken ? { ok: true } : { ok: false, retryAfterMs: retryAfterFor(row.tokens, budget) };
  }

  /** Forgets buckets that are full again (idle for their window), so the table stays small. */
  async prune(now = this.clock.now().getTime()): Promise<number> {
    const result = await this.pool.query('DELETE FROM learner_budget_buckets WHERE updated_at_ms + window_ms <= $1::bigint', [now]);
    return result.rowCount ?? 0;
  }

  private pruneSometimes(now: number): void {
    this.takesSincePrune += 1;
    if (this.takesSincePrune < pruneEvery) return;
    this.takesSincePrune = 0;
    // Off the take's path: a failed prune only leaves rows for the next one.
    this.prune(now).catch((error: unknown) => this.logger.warn({ err: error }, 'could not prune budget buckets'));
  }
}
