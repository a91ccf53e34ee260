import { describe, expect, it } from 'vitest';
import { LearnerModelBudget } from './learner-model-budget';
import { budgetRefusalMessage, modelOperations } from './model-budget';

function steppingClock(start = '2026-03-02T09:00:00.000Z') {
  let now = Date.parse(start);
  return { now: () => new Date(now), advance: (ms: number) => (now += ms) };
}

describe('LearnerModelBudget (SPEC §8: every operation that calls a model, one budget per learner)', () => {
  it('charges turns, retries, openings, summaries and proposals to the same bucket', async () => {
    const clock = steppingClock();
    const budget = new LearnerModelBudget({ operations: { limit: 5, windowMs: 60_000 }, dailyTokens: 0 }, { clock, tokensUsedSince: async () => 0 });
    const verdicts = [];
    for (const operation of modelOperations) verdicts.push(await budget.charge('a', operation));
    expect(verdicts).toEqual(modelOperations.map(() => ({ ok: true })));
    expect(await budget.charge('a', 'retry')).toEqual({
      ok: false,
      retryAfterMs: 12_000,
      budget: 'operations',
      reason: 'Too many turns: at most 5 per 60 seconds across all your sessions',
    });
    // Another learner has a full bucket.
    expect(await budget.charge('b', 'opening')).toEqual({ ok: true });
    clock.advance(12_000);
    expect(await budget.charge('a', 'retry')).toEqual({ ok: true });
  });

  it('refuses every operation once the day’s tokens are spent, until 00:00 UTC, without taking from the bucket', async () => {
    const clock = steppingClock('2026-03-02T18:00:00.000Z');
    let used = 2_000_000;
    const budget = new LearnerModelBudget({ operations: { limit: 2, windowMs: 60_000 }, dailyTokens: 2_000_000, usageCacheMs: 1000 }, { clock, tokensUsedSince: async () => used });
    for (const operation of ['turn', 'opening', 'summary'] as const) {
      expect(await budget.charge('a', operation)).toEqual({
        ok: false,
        retryAfterMs: 6 * 3_600_000,
        budget: 'daily_tokens',
        reason: 'Your daily model budget of 2,000,000 tokens is used up (it renews at 00:00 UTC)',
      });
    }
    used = 0;
    clock.advance(6 * 3_600_000);
    // The refusals cost nothing from the bucket: both tokens are there.
    expect([await budget.charge('a', 'turn'), await budget.charge('a', 'turn'), (await budget.charge('a', 'turn')).ok]).toEqual([{ ok: true }, { ok: true }, false]);
  });

  it('counts recorded usage between reads', async () => {
    const clock = steppingClock();
    const budget = new LearnerModelBudget({ operations: { limit: 100, windowMs: 60_000 }, dailyTokens: 1000 }, { clock, tokensUsedSince: async () => 0 });
    expect(await budget.charge('a', 'turn')).toEqual({ ok: true });
    budget.noteUsage('a', 1200, clock.now());
    expect(await budget.charge('a', 'turn')).toMatchObject({ ok: false, budget: 'daily_tokens' });
  });
});

describe('budgetRefusalMessage', () => {
  it('ends with the retry hint, with or without a consequence (SPEC §5 rate_limited)', () => {
    const refusal = { reason: 'Too many turns: at most 8 per 60 seconds across all your sessions', retryAfterMs: 7001 };
    expect(budgetRefusalMessage(refusal, 'this message was not sent.')).toBe('Too many turns: at most 8 per 60 seconds across all your sessions; this message was not sent. Retry in 8 s.');
    expect(budgetRefusalMessage(refusal)).toBe('Too many turns: at most 8 per 60 seconds across all your sessions. Retry in 8 s.');
  });
});
