/** The stats figures (SPEC §6), each from hand-built data with the number worked out in the comment. */
import { describe, expect, it } from 'vitest';
import { SessionType } from '@tutorloop/shared';
import type { CardRecord, RatingName } from '../scheduler/fsrs';
import type { ReviewLogRecord } from '../storage/cards';
import { belowRetention, dailyActivity, dueCounts, reviewStreak, sessionStats, trueRetention, type SessionTimes } from './stats';

const now = new Date('2026-03-10T15:00:00.000Z');
const hours = (count: number) => count * 60 * 60 * 1000;
const days = (count: number) => count * hours(24);
const before = (milliseconds: number) => new Date(now.getTime() - milliseconds);

describe('sessionStats', () => {
  it('counts sessions, completed ones and minutes per type, every type listed', () => {
    const at = (time: string) => new Date(`2026-03-10T${time}Z`);
    const sessions: SessionTimes[] = [
      // 5 min, completed
      { type: 'recall', status: 'completed', createdAt: at('09:00:00'), updatedAt: at('09:05:00'), endedAt: at('09:05:00') },
      // open: 1.5 min to its last change
      { type: 'recall', status: 'active', createdAt: at('10:00:00'), updatedAt: at('10:01:30'), endedAt: null },
      // 10 min, abandoned
      { type: 'assessment', status: 'abandoned', createdAt: at('11:00:00'), updatedAt: at('11:10:00'), endedAt: at('11:10:00') },
    ];
    const stats = sessionStats(sessions);
    expect(stats.total).toBe(3);
    expect(stats.minutes).toBe(16.5); // 5 + 1.5 + 10
    expect(stats.byType.map((entry) => entry.type)).toEqual(SessionType.options);
    expect(stats.byType.find((entry) => entry.type === 'recall')).toEqual({ type: 'recall', sessions: 2, completed: 1, minutes: 6.5 });
    expect(stats.byType.find((entry) => entry.type === 'assessment')).toEqual({ type: 'assessment', sessions: 1, completed: 0, minutes: 10 });
    expect(stats.byType.find((entry) => entry.type === 'learning')).toEqual({ type: 'learning', sessions: 0, completed: 0, minutes: 0 });
  });
});

describe('dueCounts', () => {
  const review = (due: string): Pick<CardRecord, 'state' | 'due'> => ({ state: 'review', due: new Date(due) });
  it('counts due now, by the end of today and by the end of the 7-day week, new points in all of them', () => {
    const cards = [
      null, // never reviewed: new
      { state: 'new' as const, due: new Date('2026-04-01T00:00:00Z') }, // a card still New: new
      review('2026-03-10T14:00:00Z'), // due an hour ago
      review('2026-03-10T23:00:00Z'), // later today
      review('2026-03-11T01:00:00Z'), // tomorrow
      review('2026-03-16T23:59:59.999Z'), // the last moment of day 6 after today: in the week
      review('2026-03-17T00:00:00Z'), // day 7: outside
    ];
    // now: 2 new + 1 due = 3; today: + later today = 4; week: + tomorrow + day 6 = 6.
    expect(dueCounts(cards, now)).toEqual({ dueNow: 3, dueToday: 4, dueNext7Days: 6, newPoints: 2 });
  });
});

describe('trueRetention', () => {
  const log = (rating: RatingName, state: CardRecord['state'], reviewedAt: Date): Pick<ReviewLogRecord, 'rating' | 'previous' | 'reviewedAt'> => ({
    rating,
    previous: { state, due: reviewedAt, stability: 1, difficulty: 5, scheduledDays: 1 },
    reviewedAt,
  });

  it('is the share of review-state reviews in the last 30 days not rated Again', () => {
    const logs = [
      log('good', 'review', before(days(1))), // counted, passed
      log('again', 'review', before(days(2))), // counted, failed
      log('hard', 'review', before(days(29.9))), // counted, passed
      log('good', 'review', before(days(30))), // exactly 30 days ago: outside the window
      log('again', 'new', before(days(3))), // a first review: not a retention review
      log('again', 'relearning', before(days(3))), // relearning: not counted either
      log('easy', 'review', new Date(now.getTime() + hours(1))), // after now: ignored
    ];
    // 2 passed of 3 → 0.6667
    expect(trueRetention(logs, now)).toEqual({ windowDays: 30, reviews: 3, passed: 2, rate: 0.6667 });
  });

  it('is null without reviews to measure, and honours another window', () => {
    expect(trueRetention([log('good', 'new', before(days(1)))], now)).toEqual({ windowDays: 30, reviews: 0, passed: 0, rate: null });
    expect(trueRetention([log('good', 'review', before(days(8))), log('again', 'review', before(days(6)))], now, 7)).toEqual({ windowDays: 7, reviews: 1, passed: 0, rate: 0 });
  });
});

describe('reviewStreak', () => {
  const on = (time: string) => ({ reviewedAt: new Date(time) });

  it('finds the longest run and the current one ending today, one count per UTC day', () => {
    const logs = [
      on('2026-03-01T08:00:00Z'),
      on('2026-03-02T08:00:00Z'),
      on('2026-03-02T20:00:00Z'), // same day again
      on('2026-03-03T23:59:00Z'),
      on('2026-03-07T10:00:00Z'),
      on('2026-03-09T23:30:00Z'),
      on('2026-03-10T00:30:00Z'), // an hour later, but the next UTC day
    ];
    // runs: 1–3 March (3), 7 March (1), 9–10 March (2, ending today)
    expect(reviewStreak(logs, now)).toEqual({ current: 2, longest: 3, lastReviewDay: '2026-03-10' });
  });

  it('keeps the current streak alive through today until a day is missed', () => {
    const logs = [on('2026-03-08T10:00:00Z'), on('2026-03-09T10:00:00Z')];
    expect(reviewStreak(logs, now)).toEqual({ current: 2, longest: 2, lastReviewDay: '2026-03-09' });
    expect(reviewStreak([on('2026-03-08T10:00:00Z')], now)).toEqual({ current: 0, longest: 1, lastReviewDay: '2026-03-08' });
    expect(reviewStreak([], now)).toEqual({ current: 0, longest: 0, lastReviewDay: null });
    // A review after now does not count yet.
    expect(reviewStreak([on('2026-03-10T16:00:00Z')], now)).toEqual({ current: 0, longest: 0, lastReviewDay: null });
  });
});

describe('belowRetention', () => {
  it('counts reviewed points whose recall probability now is below the desired retention', () => {
    const points = [{ retrievability: null }, { retrievability: 0.95 }, { retrievability: 0.9 }, { retrievability: 0.8999 }, { retrievability: 0.4 }];
    // Never reviewed: not counted; 0.9 is not below 0.9; 0.8999 and 0.4 are.
    expect(belowRetention(points, 0.9)).toBe(2);
    expect(belowRetention(points, 0.8)).toBe(1);
    expect(belowRetention(points, 0.99)).toBe(4);
  });
});

describe('dailyActivity', () => {
  const at = (time: string) => new Date(time);
  it('gives the last 30 UTC days, today last, with reviews, sessions begun and their minutes', () => {
    const logs = [
      { reviewedAt: at('2026-03-10T09:00:00Z') },
      { reviewedAt: at('2026-03-10T14:59:00Z') },
      { reviewedAt: at('2026-03-10T16:00:00Z') }, // after now: not yet
      { reviewedAt: at('2026-03-09T23:59:59Z') },
      { reviewedAt: at('2026-02-09T12:00:00Z') }, // the first day of the 30: 9 Feb … 10 Mar
      { reviewedAt: at('2026-02-08T12:00:00Z') }, // the day before: outside
    ];
    const sessions = [
      // Begun yesterday just before midnight, 20 minutes long: counted on the day it began.
      { createdAt: at('2026-03-09T23:50:00Z'), updatedAt: at('2026-03-10T00:10:00Z'), endedAt: at('2026-03-10T00:10:00Z') },
      // Today, open, 1.5 minutes to its last change.
      { createdAt: at('2026-03-10T10:00:00Z'), updatedAt: at('2026-03-10T10:01:30Z'), endedAt: null },
      { createdAt: at('2026-01-01T10:00:00Z'), updatedAt: at('2026-01-01T10:30:00Z'), endedAt: null }, // long ago
    ];
    const series = dailyActivity(logs, sessions, now);
    expect(series).toHaveLength(30);
    expect(series[0]).toEqual({ day: '2026-02-09', reviews: 1, sessions: 0, minutes: 0 });
    expect(series[28]).toEqual({ day: '2026-03-09', reviews: 1, sessions: 1, minutes: 20 });
    expect(series[29]).toEqual({ day: '2026-03-10', reviews: 2, sessions: 1, minutes: 1.5 });
    // Every day present, consecutive, the idle ones zero.
    expect(series.slice(1, 28).every((day) => day.reviews === 0 && day.sessions === 0 && day.minutes === 0)).toBe(true);
    expect(new Set(series.map((day) => day.day)).size).toBe(30);
    expect(series.reduce((sum, day) => sum + day.reviews, 0)).toBe(4);
  });
});

describe('days in the learner’s time zone', () => {
  it('counts the streak, today and the activity on the zone’s calendar', () => {
    // now: 15:00 UTC on 10 March = 08:00 on the 10th in Los Angeles (UTC−7).
    const logs = [
      { reviewedAt: new Date('2026-03-09T03:00:00Z') }, // the 8th at 20:00 in Los Angeles, the 9th in UTC
      { reviewedAt: new Date('2026-03-10T05:00:00Z') }, // the 9th at 22:00 in Los Angeles, the 10th in UTC
    ];
    // UTC: reviews on the 9th and the 10th, today. Los Angeles: the 8th and the 9th, yesterday.
    expect(reviewStreak(logs, now)).toEqual({ current: 2, longest: 2, lastReviewDay: '2026-03-10' });
    expect(reviewStreak(logs, now, 'America/Los_Angeles')).toEqual({ current: 2, longest: 2, lastReviewDay: '2026-03-09' });
    const zoned = dailyActivity(logs, [], now, 'America/Los_Angeles');
    expect(zoned.at(-1)).toEqual({ day: '2026-03-10', reviews: 0, sessions: 0, minutes: 0 });
    expect(zoned.slice(-3, -1).map((day) => [day.day, day.reviews])).toEqual([
      ['2026-03-08', 1],
      ['2026-03-09', 1],
    ]);
    // Due "today" ends at midnight in Los Angeles: 07:00 UTC on the 11th.
    const review = (due: string): Pick<CardRecord, 'state' | 'due'> => ({ state: 'review', due: new Date(due) });
    const cards = [review('2026-03-11T06:00:00Z'), review('2026-03-11T08:00:00Z')];
    expect(dueCounts(cards, now).dueToday).toBe(0);
    expect(dueCounts(cards, now, 'America/Los_Angeles').dueToday).toBe(1);
  });
});
