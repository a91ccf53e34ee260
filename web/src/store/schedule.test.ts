import type { CardView } from '@tutorloop/shared';
import { describe, expect, it } from 'vitest';
import { forecastDueCounts, forecastSeries, formatDecimal, formatRelativeDue, scheduleRows, statusCounts } from './schedule';

// Local-time dates: the forecast buckets by the learner's calendar day, whatever the zone.
const now = new Date(2025, 0, 10, 15, 30);
const at = (day: number, hour = 12, minute = 0) => new Date(2025, 0, day, hour, minute).toISOString();

function card(pointId: string, overrides: Partial<CardView> = {}): CardView {
  return {
    pointId,
    content: `Point ${pointId}`,
    due: now.toISOString(),
    stability: 3.2,
    difficulty: 5.4,
    reps: 2,
    lapses: 0,
    state: 'review',
    lastReview: at(7),
    status: 'due',
    retrievability: 0.85,
    ...overrides,
  };
}

const scheduled = (due: string) => ({ due, status: 'scheduled' as const });

describe('forecastDueCounts', () => {
  it('gives nothing due now and 30 empty days without points', () => {
    expect(forecastDueCounts([], now)).toEqual({ now: 0, days: new Array(30).fill(0) });
  });

  it('counts what the server calls due or new as due now, then scheduled points per calendar day', () => {
    const counts = forecastDueCounts(
      [
        { due: at(1), status: 'due' }, // nine days overdue
        { due: now.toISOString(), status: 'new' }, // never reviewed
        scheduled(at(10, 23, 59)), // later today
        scheduled(at(11, 0, 1)), // just after midnight: tomorrow
        scheduled(at(11, 20)),
        scheduled(at(15)),
      ],
      now,
    );
    expect(counts.now).toBe(2);
    expect(counts.days.slice(0, 6)).toEqual([1, 2, 0, 0, 0, 1]);
  });

  it('keeps day 29 and leaves out anything after the window', () => {
    const counts = forecastDueCounts([scheduled(at(39)), scheduled(at(40)), scheduled(at(70))], now);
    expect(counts.days[29]).toBe(1);
    expect(counts.days.reduce((sum, count) => sum + count, 0)).toBe(1);
  });

  it('counts across a month boundary by calendar days', () => {
    const lateJanuary = new Date(2025, 0, 31, 22, 0);
    expect(forecastDueCounts([scheduled(new Date(2025, 1, 1, 1, 0).toISOString())], lateJanuary).days.slice(0, 2)).toEqual([0, 1]);
  });

  it('shows the same due and new counts as the page: one definition (regression: "0 due" beside "4 due today")', () => {
    const points = [{ due: at(10, 9), status: 'due' as const }, { due: now.toISOString(), status: 'new' as const }, scheduled(at(10, 20))];
    expect(statusCounts(points)).toEqual({ due: 2, new: 1 });
    expect(forecastSeries(points, now)[0]?.count).toBe(statusCounts(points).due);
  });
});

describe('forecastSeries', () => {
  it('labels now, later today, tomorrow and the dates after', () => {
    const series = forecastSeries([scheduled(at(12))], now, 'en-US');
    expect(series).toHaveLength(31);
    expect(series.slice(0, 4)).toEqual([
      { key: 'now', label: 'Now', longLabel: 'Due now', count: 0 },
      { key: 'day-0', label: 'Later', longLabel: 'Later today', count: 0 },
      { key: 'day-1', label: 'Jan 11', longLabel: 'Tomorrow', count: 0 },
      { key: 'day-2', label: 'Jan 12', longLabel: 'Sunday, January 12', count: 1 },
    ]);
    expect(series[30]?.label).toBe('Feb 8');
  });
});

describe('formatRelativeDue', () => {
  it.each<[string, string]>([
    [at(1), 'due now'],
    [now.toISOString(), 'due now'],
    [new Date(now.getTime() + 20_000).toISOString(), 'in under a minute'],
    [new Date(now.getTime() + 60_000).toISOString(), 'in 1 minute'],
    [new Date(now.getTime() + 25 * 60_000).toISOString(), 'in 25 minutes'],
    [new Date(now.getTime() + 60 * 60_000).toISOString(), 'in 1 hour'],
    [new Date(now.getTime() + 5 * 3_600_000).toISOString(), 'in 5 hours'],
    [new Date(now.getTime() + 24 * 3_600_000).toISOString(), 'in 1 day'],
    [new Date(now.getTime() + 3 * 86_400_000).toISOString(), 'in 3 days'],
    [new Date(now.getTime() + 30 * 86_400_000).toISOString(), 'in 30 days'],
    [new Date(now.getTime() + 61 * 86_400_000).toISOString(), 'in 2 months'],
    [new Date(now.getTime() + 400 * 86_400_000).toISOString(), 'in 1 year'],
    ['garbage', 'due now'],
  ])('%s → %s', (due, expected) => {
    expect(formatRelativeDue(due, now)).toBe(expected);
  });
});

describe('scheduleRows', () => {
  const points = [
    { id: 'p2', content: 'Second', position: 1 },
    { id: 'p1', content: 'First', position: 0 },
    { id: 'p3', content: 'Never reviewed', position: 2 },
  ];

  it('follows the set order, and shows a point without a card as new and due now', () => {
    const rows = scheduleRows(points, [card('p1'), card('p2', { state: 'relearning', lapses: 1 }), card('gone')], now);
    expect(rows).toEqual([
      {
        pointId: 'p1',
        content: 'First',
        state: 'review',
        due: now.toISOString(),
        stability: 3.2,
        difficulty: 5.4,
        reps: 2,
        lapses: 0,
        lastReview: at(7),
        status: 'due',
        retrievability: 0.85,
      },
      {
        pointId: 'p2',
        content: 'Second',
        state: 'relearning',
        due: now.toISOString(),
        stability: 3.2,
        difficulty: 5.4,
        reps: 2,
        lapses: 1,
        lastReview: at(7),
        status: 'due',
        retrievability: 0.85,
      },
      {
        pointId: 'p3',
        content: 'Never reviewed',
        state: 'new',
        due: now.toISOString(),
        stability: null,
        difficulty: null,
        reps: 0,
        lapses: 0,
        lastReview: null,
        status: 'new',
        retrievability: null,
      },
    ]);
  });

  it('hides the placeholder stability and difficulty of a card still new', () => {
    const [row] = scheduleRows([points[1]!], [card('p1', { state: 'new', stability: 0, difficulty: 0, reps: 0 })], now);
    expect(row).toMatchObject({ state: 'new', stability: null, difficulty: null });
  });
});

describe('formatDecimal', () => {
  it.each<[number, string]>([
    [12.34, '12.3'],
    [4, '4'],
    [0.456, '0.46'],
    [5.96, '6'],
  ])('%s → %s', (value, expected) => {
    expect(formatDecimal(value)).toBe(expected);
  });
});
