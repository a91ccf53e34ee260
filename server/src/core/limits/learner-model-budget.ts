/**
 * The in-memory model budget of one server process (model-budget.ts): a token bucket of
 * operations per learner (`TURN_RATE_LIMIT` per minute: a burst of that many, then one every
 * 60/N s) and the daily token budget read from `llm_calls` (daily-token-budget.ts). Every
 * operation costs one from the bucket; the daily budget is checked first, so an operation it
 * refuses costs nothing from the bucket. The bucket is counted in a `TokenBucketStore`: memory
 * by default, a table every instance shares on PostgreSQL (SPEC §11).
 */
import type { Clock } from '../ports';
import { DailyTokenBudget, type TokensUsedSince } from './daily-token-budget';
import { inMemoryBucketStore, type RateBudget, type TokenBucketStore } from './learner-limits';
import type { ModelBudget, ModelBudgetVerdict, ModelOperation } from './model-budget';

export interface LearnerModelBudgetOptions {
  /** Operations a learner may start, as a bucket (the limit per window). */
  operations: RateBudget;
  /** Tokens (input + output) per learner per UTC day; 0 = unlimited. */
  dailyTokens: number;
  /** How long a learner's token sum read from storage is trusted, in ms (default 5 s). */
  usageCacheMs?: number;
}

export class LearnerModelBudget implements ModelBudget {
  private readonly buckets: TokenBucketStore;
  private readonly daily: DailyTokenBudget;

  constructor(
    readonly options: LearnerModelBudgetOptions,
    dependencies: { clock: Clock; tokensUsedSince: TokensUsedSince; buckets?: TokenBucketStore },
  ) {
    this.buckets = dependencies.buckets ?? inMemoryBucketStore(dependencies.clock);
    this.daily = new DailyTokenBudget({ limit: options.dailyTokens, cacheMs: options.usageCacheMs ?? 5000 }, dependencies.tokensUsedSince, dependencies.clock);
  }

  /** Every operation costs the same here; the operation is part of the port for budgets that weigh them. */
  async charge(learnerId: string, _operation: ModelOperation): Promise<ModelBudgetVerdict> {
    const daily = await this.daily.check(learnerId);
    if (!daily.ok) {
      return {
        ok: false,
        retryAfterMs: daily.retryAfterMs,
        budget: 'daily_tokens',
        reason: `Your daily model budget of ${this.options.dailyTokens.toLocaleString('en-US')} tokens is used up (it renews at 00:00 UTC)`,
      };
    }
    const rate = await this.buckets.take('model_operations', learnerId, this.options.operations);
    if (!rate.ok) {
      const { limit, windowMs } = this.options.operations;
      return { ok: false, retryAfterMs: rate.retryAfterMs, budget: 'operations', reason: `Too many turns: at most ${limit} per ${windowMs / 1000} seconds across all your sessions` };
    }
    return { ok: true };
  }

  noteUsage(learnerId: string, tokens: number, at: Date): void {
    this.daily.noteUsage(learnerId, tokens, at);
  }
}
