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
    const perMs = this.budget.limit / this.budget.windowMs;
    return { ok: false, retryAfterMs: Math.max(1, Math.ceil((1 - bucket.tokens) / perMs)) };
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

/** The per-learner frame and session-creation budgets (the WebSocket adapter and the sessions route). */
export class LearnerLimits {
  private readonly frames: TokenBuckets;
  private readonly sessions: TokenBuckets;

  constructor(
    readonly options: LearnerLimitsOptions,
    clock: Clock,
  ) {
    this.frames = new TokenBuckets(options.frames, clock);
    this.sessions = new TokenBuckets(options.sessions, clock);
  }

  /** One WebSocket frame from this learner. */
  takeFrame(learnerId: string): LimitVerdict {
    return this.frames.take(learnerId);
  }

  /** One session created by this learner. */
  takeSessionCreation(learnerId: string): LimitVerdict {
    return this.sessions.take(learnerId);
  }
}

/** "Retry in 4 s." — the wording every `rate_limited` error ends with. */
export function retryHint(retryAfterMs: number): string {
  return `Retry in ${Math.max(1, Math.ceil(retryAfterMs / 1000))} s.`;
}
