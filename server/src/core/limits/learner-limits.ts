/**
 * Limits counted per learner, across all of their sockets, sessions and HTTP steps
 * (SPEC §8): opening more connections buys nothing. Two token buckets per learner:
 *
 * - frames: every WebSocket frame (valid or not) costs one;
 * - sessions: every session created (`POST /api/sessions`) costs one.
 *
 * What makes a model work (turns, retries, openings, summaries) is charged to the model budget
 * instead (model-budget.ts), with the same kind of bucket.
 *
 * A bucket holds `limit` tokens and refills at `limit / windowMs`, so a learner may send a
 * burst of `limit` and then `limit` per window on average. Pure: time comes from the clock.
 *
 * Where the buckets are counted is a port (`TokenBucketStore`): this process's memory for one
 * server on SQLite, a table every instance shares on PostgreSQL (SPEC §11:
 * db/postgres/fleet-learners/), so a learner's budget is the same whichever instance serves them.
 */
import type { Clock } from '../ports';

export interface RateBudget {
  /** Tokens in a full bucket (the burst allowed). */
  limit: number;
  /** How long an empty bucket takes to refill, in ms. */
  windowMs: number;
}

export interface LearnerLimitsOptions {
  frames: RateBudget;
  sessions: RateBudget;
}

export type LimitVerdict = { ok: true } | { ok: false; retryAfterMs: number };

/**
 * The port: token buckets counted somewhere — one process's memory, or a database every
 * instance shares. One bucket per (`name`, `key`); `budget` is that bucket's size and refill.
 */
export interface TokenBucketStore {
  /** Takes one token from bucket `name` of `key`, or says how long until one is available. */
  take(name: string, key: string, budget: RateBudget): Promise<LimitVerdict>;
}

/** The wait until a bucket holding `tokens` (fewer than one) has a whole token again. */
export function retryAfterFor(tokens: number, budget: RateBudget): number {
  const perMs = budget.limit / budget.windowMs;
  return Math.max(1, Math.ceil((1 - tokens) / perMs));
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/** One token bucket per key. */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();
  private callsSincePrune = 0;

  constructor(
    private readonly budget: RateBudget,
    private readonly clock: Clock,
  ) {}

  /** Takes one token for `key`, or says how long until one is available. */
  take(key: string): LimitVerdict {
    const now = this.clock.now().getTime();
    this.pruneNow(now);
    const bucket = this.refilled(key, now);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { ok: true };
    }
    return { ok: false, retryAfterMs: retryAfterFor(bucket.tokens, this.budget) };
  }

  /** Keys currently tracked (for tests and diagnostics). */
  get size(): number {
    return this.buckets.size;
  }

  private refilled(key: string, now: number): Bucket {
    const { limit, windowMs } = this.budget;
    const bucket = this.buckets.get(key);
    if (!bucket) {
      const fresh = { tokens: limit, updatedAt: now };
      this.buckets.set(key, fresh);
      return fresh;
    }
    const elapsed = Math.max(0, now - bucket.updatedAt);
    bucket.tokens = Math.min(limit, bucket.tokens + (elapsed * limit) / windowMs);
    bucket.updatedAt = now;
    return bucket;
  }

  /** A bucket that would be full again is the same as no bucket: forget it, so memory stays bounded. */
  private pruneNow(now: number): void {
    this.callsSincePrune += 1;
    if (this.callsSincePrune < 1024) return;
    this.callsSincePrune = 0;
    for (const [key, bucket] of this.buckets) {
      if (now - bucket.updatedAt >= this.budget.windowMs) this.buckets.delete(key);
    }
  }
}

/** Buckets in this process's memory (one server: the SQLite deployment). A name keeps the budget it was first used with. */
export function inMemoryBucketStore(clock: Clock): TokenBucketStore {
  const byName = new Map<string, TokenBuckets>();
  return {
    take(name, key, budget) {
      let buckets = byName.get(name);
      if (!buckets) byName.set(name, (buckets = new TokenBuckets(budget, clock)));
      return Promise.resolve(buckets.take(key));
    },
  };
}

/** The per-learner frame and session-creation budgets (the WebSocket adapter and the sessions route). */
export class LearnerLimits {
  constructor(
    readonly options: LearnerLimitsOptions,
    clock: Clock,
    private readonly store: TokenBucketStore = inMemoryBucketStore(clock),
  ) {}

  /** One WebSocket frame from this learner. */
  takeFrame(learnerId: string): Promise<LimitVerdict> {
    return this.store.take('frames', learnerId, this.options.frames);
  }

  /** One session created by this learner. */
  takeSessionCreation(learnerId: string): Promise<LimitVerdict> {
    return this.store.take('sessions', learnerId, this.options.sessions);
  }
}

/** "Retry in 4 s." — the wording every `rate_limited` error ends with. */
export function retryHint(retryAfterMs: number): string {
  return `Retry in ${Math.max(1, Math.ceil(retryAfterMs / 1000))} s.`;
}
