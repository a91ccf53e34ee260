/**
 * Limits counted per learner, across all of their sockets, sessions and HTTP steps
 * (SPEC §8): opening more connections buys nothing. Two token buckets per learner:
 *
 * - frames: every WebSocket frame (valid or not) costs one;
 * - turns: every message that makes the tutor work (a chat message, a widget answer, a
 *   rabbit-hole change, an HTTP step) costs one more.
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
  turns: RateBudget;
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

/** The per-learner frame and turn budgets, shared by the WebSocket adapter and the HTTP step route. */
export class LearnerLimits {
  private readonly frames: TokenBuckets;
  private readonly turns: TokenBuckets;

  constructor(
    readonly options: LearnerLimitsOptions,
    clock: Clock,
  ) {
    this.frames = new TokenBuckets(options.frames, clock);
    this.turns = new TokenBuckets(options.turns, clock);
  }

  /** One WebSocket frame from this learner. */
  takeFrame(learnerId: string): LimitVerdict {
    return this.frames.take(learnerId);
  }

  /** One turn of tutor work for this learner. */
  takeTurn(learnerId: string): LimitVerdict {
    return this.turns.take(learnerId);
  }
}

/** "Retry in 4 s." — the wording every `rate_limited` error ends with. */
export function retryHint(retryAfterMs: number): string {
  return `Retry in ${Math.max(1, Math.ceil(retryAfterMs / 1000))} s.`;
}
