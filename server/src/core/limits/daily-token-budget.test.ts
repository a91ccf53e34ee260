import { describe, expect, it } from 'vitest';
import { DailyTokenBudget, utcDayStart } from './daily-token-budget';

function steppingClock(start: string) {
  let now = Date.parse(start);
  return { now: () => new Date(now), advance: (ms: number) => (now += ms), set: (at: string) => (now = Date.parse(at)) };
}

/** A usage table the test fills, recording every read (learner and since). */
function usageTable() {
  const tokens = new Map<string, number>();
  const reads: Array<{ learnerId: string; since: string }> = [];
  return {
    tokens,
    reads,
    usedSince: async (learnerId: string, since: Date) => {
      reads.push({ learnerId, since: since.toISOString() });
      return tokens.get(learnerId) ?? 0;
    },
  };
}

describe('DailyTokenBudget (SPEC §8 daily token budget)', () => {
  it('admits while the day’s tokens are under the limit, then refuses until 00:00 UTC', async () => {
    const clock = steppingClock('2026-03-02T21:30:00.000Z');
    const table = usageTable();
    const budget = new DailyTokenBudget({ limit: 1000, cacheMs: 5000 }, table.usedSince, clock);
    table.tokens.set('a', 999);
    expect(await budget.check('a')).toEqual({ ok: true });
    expect(table.reads).toEqual([{ learnerId: 'a', since: '2026-03-02T00:00:00.000Z' }]);
    table.tokens.set('a', 1000);
    clock.advance(5000);
    // 21:30:05 → midnight is 2 h 29 min 55 s away.
    expect(await budget.check('a')).toEqual({ ok: false, retryAfterMs: 8_995_000 });
    // Another learner is not affected.
    expect(await budget.check('b')).toEqual({ ok: true });
  });

  it('reads storage at most once per cache period, one read shared by concurrent checks', async () => {
    const clock = steppingClock('2026-03-02T09:00:00.000Z');
    const table = usageTable();
    const budget = new DailyTokenBudget({ limit: 1000, cacheMs: 5000 }, table.usedSince, clock);
    await Promise.all([budget.check('a'), budget.check('a'), budget.check('a')]);
    expect(table.reads).toHaveLength(1);
    clock.advance(4999);
    table.tokens.set('a', 5000);
    // Within the cache period the held count answers: still admitted, no read.
    expect(await budget.check('a')).toEqual({ ok: true });
    expect(table.reads).toHaveLength(1);
    clock.advance(1);
    expect((await budget.check('a')).ok).toBe(false);
    expect(table.reads).toHaveLength(2);
  });

  it('adds the calls recorded meanwhile to the held count, so the limit holds between reads', async () => {
    const clock = steppingClock('2026-03-02T09:00:00.000Z');
    const table = usageTable();
    const budget = new DailyTokenBudget({ limit: 1000, cacheMs: 60_000 }, table.usedSince, clock);
    table.tokens.set('a', 400);
    expect(await budget.check('a')).toEqual({ ok: true });
    budget.noteUsage('a', 599, clock.now());
    expect(await budget.check('a')).toEqual({ ok: true });
    budget.noteUsage('a', 1, clock.now());
    expect((await budget.check('a')).ok).toBe(false);
    // A call of yesterday (a late record) does not count against today.
    budget.noteUsage('b', 10_000, new Date('2026-03-01T23:59:59.000Z'));
    expect(await budget.check('b')).toEqual({ ok: true });
    expect(table.reads.map((read) => read.learnerId)).toEqual(['a', 'b']);
  });

  it('renews at 00:00 UTC: the next day counts from its own start', async () => {
    const clock = steppingClock('2026-03-02T23:59:58.000Z');
    const table = usageTable();
    const budget = new DailyTokenBudget({ limit: 100, cacheMs: 60_000 }, table.usedSince, clock);
    table.tokens.set('a', 150);
    expect(await budget.check('a')).toEqual({ ok: false, retryAfterMs: 2000 });
    clock.advance(2000);
    table.tokens.set('a', 0);
    // The held count was yesterday's: read again, from the new day's start, though the cache period has not passed.
    expect(await budget.check('a')).toEqual({ ok: true });
    expect(table.reads.at(-1)).toEqual({ learnerId: 'a', since: '2026-03-03T00:00:00.000Z' });
  });

  it('with a limit of 0 admits everything and never reads storage', async () => {
    const clock = steppingClock('2026-03-02T09:00:00.000Z');
    const table = usageTable();
    table.tokens.set('a', 1e12);
    const budget = new DailyTokenBudget({ limit: 0, cacheMs: 5000 }, table.usedSince, clock);
    expect(await budget.check('a')).toEqual({ ok: true });
    expect(table.reads).toEqual([]);
  });

  it('forgets counts older than the cache period, so memory stays bounded', async () => {
    const clock = steppingClock('2026-03-02T09:00:00.000Z');
    const table = usageTable();
    const budget = new DailyTokenBudget({ limit: 10, cacheMs: 1000 }, table.usedSince, clock);
    for (let index = 0; index < 1023; index += 1) await budget.check(`learner-${index}`);
    expect(budget.size).toBe(1023);
    clock.advance(1000);
    await budget.check('late');
    expect(budget.size).toBe(1);
  });

  it('a failed read rejects the check and the next check reads again', async () => {
    const clock = steppingClock('2026-03-02T09:00:00.000Z');
    let fail = true;
    const budget = new DailyTokenBudget({ limit: 10, cacheMs: 5000 }, async () => {
      if (fail) throw new Error('database is locked');
      return 3;
    }, clock);
    await expect(budget.check('a')).rejects.toThrow('database is locked');
    fail = false;
    expect(await budget.check('a')).toEqual({ ok: true });
  });

  it('utcDayStart is midnight UTC of the same day', () => {
    expect(new Date(utcDayStart(Date.parse('2026-03-02T23:59:59.999Z'))).toISOString()).toBe('2026-03-02T00:00:00.000Z');
    expect(new Date(utcDayStart(Date.parse('2026-03-03T00:00:00.000Z'))).toISOString()).toBe('2026-03-03T00:00:00.000Z');
  });
});
