import { describe, expect, it } from 'vitest';
import { inMemoryBucketStore, LearnerLimits, TokenBuckets, retryHint } from './learner-limits';

function steppingClock(start = Date.UTC(2026, 0, 1)) {
  let now = start;
  return { now: () => new Date(now), advance: (ms: number) => (now += ms) };
}

describe('TokenBuckets', () => {
  it('allows a burst of the limit, then refuses with the time until one token is back', () => {
    const clock = steppingClock();
    const buckets = new TokenBuckets({ limit: 3, windowMs: 3000 }, clock);
    expect([buckets.take('a'), buckets.take('a'), buckets.take('a')]).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
    expect(buckets.take('a')).toEqual({ ok: false, retryAfterMs: 1000 });
    clock.advance(400);
    expect(buckets.take('a')).toEqual({ ok: false, retryAfterMs: 600 });
    clock.advance(600);
    expect(buckets.take('a')).toEqual({ ok: true });
    // Another key has its own bucket.
    expect(buckets.take('b')).toEqual({ ok: true });
  });

  it('never holds more than the limit however long a key was idle', () => {
    const clock = steppingClock();
    const buckets = new TokenBuckets({ limit: 2, windowMs: 1000 }, clock);
    buckets.take('a');
    clock.advance(60_000);
    expect([buckets.take('a'), buckets.take('a'), buckets.take('a')].map((verdict) => verdict.ok)).toEqual([true, true, false]);
  });

  it('forgets keys whose bucket has refilled, so memory stays bounded', () => {
    const clock = steppingClock();
    const buckets = new TokenBuckets({ limit: 1, windowMs: 1000 }, clock);
    for (let index = 0; index < 1023; index += 1) buckets.take(`learner-${index}`);
    expect(buckets.size).toBe(1023);
    clock.advance(1000);
    buckets.take('late');
    expect(buckets.size).toBe(1);
  });
});

describe('LearnerLimits', () => {
  it('keeps frames and session creations in separate budgets', async () => {
    const clock = steppingClock();
    const limits = new LearnerLimits({ frames: { limit: 1, windowMs: 10_000 }, sessions: { limit: 2, windowMs: 600_000 } }, clock);
    expect(await limits.takeFrame('a')).toEqual({ ok: true });
    expect(await limits.takeFrame('a')).toEqual({ ok: false, retryAfterMs: 10_000 });
    expect(await limits.takeSessionCreation('a')).toEqual({ ok: true });
    expect(await limits.takeSessionCreation('a')).toEqual({ ok: true });
    expect(await limits.takeSessionCreation('a')).toEqual({ ok: false, retryAfterMs: 300_000 });
    // Another learner has their own.
    expect(await limits.takeSessionCreation('b')).toEqual({ ok: true });
  });

  it('counts in the store it is given, so instances sharing one store share the budget', async () => {
    const clock = steppingClock();
    const shared = inMemoryBucketStore(clock);
    const options = { frames: { limit: 2, windowMs: 10_000 }, sessions: { limit: 1, windowMs: 600_000 } };
    const [one, two] = [new LearnerLimits(options, clock, shared), new LearnerLimits(options, clock, shared)];
    expect([await one.takeFrame('a'), await two.takeFrame('a'), await one.takeFrame('a')]).toEqual([{ ok: true }, { ok: true }, { ok: false, retryAfterMs: 5000 }]);
    expect([await two.takeSessionCreation('a'), await one.takeSessionCreation('a')]).toEqual([{ ok: true }, { ok: false, retryAfterMs: 600_000 }]);
  });
});

describe('retryHint', () => {
  it('rounds up to whole seconds, at least one', () => {
    expect([retryHint(1), retryHint(1000), retryHint(1001), retryHint(30_000)]).toEqual(['Retry in 1 s.', 'Retry in 1 s.', 'Retry in 2 s.', 'Retry in 30 s.']);
  });
});
