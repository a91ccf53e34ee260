/**
 * The daily token budget per learner (SPEC §8): input + output tokens of the learner's model
 * calls (`llm_calls`) since the start of the current UTC day. A calendar day rather than a
 * rolling 24 h: the budget renews at one moment everybody can be told (00:00 UTC), and the
 * time to wait is exact without reading when each call was made.
 *
 * Storage is not asked on every charge: a learner's sum is read at most once per `cacheMs`
 * (concurrent charges share one read), and the calls this process records in between are
 * added to it as they happen (`noteUsage`). Calls another instance records are seen at the
 * next read, so a learner may overshoot by what a few seconds of operations cost — the
 * operations budget bounds that. Pure: time comes from the clock, the sum from `usedSince`.
 */
import type { Clock } from '../ports';
import type { LimitVerdict } from './learner-limits';

const dayMs = 86_400_000;

export interface DailyTokenBudgetOptions {
  /** Tokens (input + output) a learner may spend per UTC day; 0 = unlimited. */
  limit: number;
  /** How long a sum read from storage is trusted, in ms. */
  cacheMs: number;
}

/** Input + output tokens of the learner's recorded model calls made at or after `since`. */
export type TokensUsedSince = (learnerId: string, since: Date) => Promise<number>;

interface Usage {
  /** Start of the UTC day the count belongs to, in ms. */
  day: number;
  tokens: number;
  readAt: number;
  /** A read in progress, shared by the charges that arrive meanwhile. */
  reading: Promise<number> | null;
}

/** The start of the UTC day that holds `ms`. */
export function utcDayStart(ms: number): number {
  return Math.floor(ms / dayMs) * dayMs;
}

export class DailyTokenBudget {
  private readonly usage = new Map<string, Usage>();
  private callsSincePrune = 0;

  constructor(
    readonly options: DailyTokenBudgetOptions,
    private readonly usedSince: TokensUsedSince,
    private readonly clock: Clock,
  ) {}

  /** Admits the learner while their tokens of today are under the limit; else says how long until the day renews. */
  async check(learnerId: string): Promise<LimitVerdict> {
    if (this.options.limit === 0) return { ok: true };
    const now = this.clock.now().getTime();
    this.prune(now);
    const day = utcDayStart(now);
    const tokens = await this.tokensToday(learnerId, day, now);
    if (tokens < this.options.limit) return { ok: true };
    return { ok: false, retryAfterMs: Math.max(1, day + dayMs - now) };
  }

  /** Tokens just recorded for the learner: added to a count of the same day, if one is held. */
  noteUsage(learnerId: string, tokens: number, at: Date): void {
    const usage = this.usage.get(learnerId);
    if (usage && usage.day === utcDayStart(at.getTime())) usage.tokens += Math.max(0, tokens);
  }

  /** Learners whose count is held (for tests and diagnostics). */
  get size(): number {
    return this.usage.size;
  }

  private tokensToday(learnerId: string, day: number, now: number): Promise<number> | number {
    const held = this.usage.get(learnerId);
    if (held && held.day === day) {
      if (now - held.readAt < this.options.cacheMs) return held.tokens;
      if (held.reading) return held.reading;
    }
    const usage: Usage = held && held.day === day ? held : { day, tokens: 0, readAt: Number.NEGATIVE_INFINITY, reading: null };
    this.usage.set(learnerId, usage);
    const reading = this.usedSince(learnerId, new Date(day)).then(
      (tokens) => {
        usage.tokens = tokens;
        usage.readAt = now;
        usage.reading = null;
        return tokens;
      },
      (error: unknown) => {
        usage.reading = null;
        throw error;
      },
    );
    usage.reading = reading;
    return reading;
  }

  /** A count older than the cache is as good as none: forget it, so memory stays bounded. */
  private prune(now: number): void {
    this.callsSincePrune += 1;
    if (this.callsSincePrune < 1024) return;
    this.callsSincePrune = 0;
    for (const [learnerId, usage] of this.usage) {
      if (!usage.reading && now - usage.readAt >= this.options.cacheMs) this.usage.delete(learnerId);
    }
  }
}
