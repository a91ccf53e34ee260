/**
 * The learner's aggregate figures (SPEC §6 `GET /api/sessions/stats`). Pure: each function
 * takes what was read through the storage port and the time, and returns a shared shape.
 *
 * - Sessions and minutes by type: every session of the learner, all time; a session's length
 *   is `sessionSeconds` (creation to end, or to its last change while open).
 * Days are the calendar days of the time zone asked for (days.ts; UTC unless the client names one).
 * - Due counts: the one definition of due (`pointStatus`, core/scheduler/fsrs.ts) applied to the
 *   cards of the one schedule query (`scheduleOf`, services/recall-sets.ts), at now, at the
 *   end of today and at the end of the sixth day after today (7 calendar days, today included).
 *   New points are due at every horizon, as on the sets list.
 * - True retention: reviews in the window (the `windowDays` × 24 hours up to now) of cards
 *   that were in the review state before the review — first reviews of new cards excluded, as
 *   (re)learning ones would be — and the share of them not rated Again.
 * - Streak: days with at least one review in the review log.
 * - Below desired retention: reviewed points whose retrievability now, under the learner's
 *   parameters, is below the learner's desired retention (new points have none and are not counted).
 * - Activity: for each of the last `activityDays` days (today last), the reviews logged, the
 *   sessions begun and those sessions' minutes (`sessionSeconds`, counted on the day they began).
 */
import { activityDays, retentionWindowDays, SessionType, type ActivityDay, type ProgressStats, type SessionStatus, type SessionTypeStats } from '@tutorloop/shared';
import { pointStatus, type CardRecord } from '../scheduler/fsrs';
import type { ScheduledPoint } from '../scheduler/point-schedule';
import type { ReviewLogRecord } from '../storage/cards';
import { dayMs, dayNumber, endOfDay, keyOfDayNumber } from './days';
import { sessionSeconds } from './history';

/** What the session figures need of a session. */
export interface SessionTimes {
  type: SessionType;
  status: SessionStatus;
  createdAt: Date;
  updatedAt: Date;
  endedAt: Date | null;
}

/** Minutes to one decimal. */
function minutesOf(seconds: number): number {
  return Math.round(seconds / 6) / 10;
}

/** Sessions, completed sessions and minutes per type (every type, zero when unused), and the totals. */
export function sessionStats(sessions: readonly SessionTimes[]): ProgressStats['sessions'] {
  const seconds = new Map<SessionType, number>();
  const byType = new Map<SessionType, Omit<SessionTypeStats, 'minutes'>>(SessionType.options.map((type) => [type, { type, sessions: 0, completed: 0 }]));
  let totalSeconds = 0;
  for (const session of sessions) {
    const entry = byType.get(session.type);
    if (!entry) continue;
    entry.sessions += 1;
    if (session.status === 'completed') entry.completed += 1;
    const length = sessionSeconds(session);
    seconds.set(session.type, (seconds.get(session.type) ?? 0) + length);
    totalSeconds += length;
  }
  return {
    total: sessions.length,
    minutes: minutesOf(totalSeconds),
    byType: [...byType.values()].map((entry) => ({ ...entry, minutes: minutesOf(seconds.get(entry.type) ?? 0) })),
  };
}

/** Due counts at now, the end of today and the end of the 7-day week from today; new points. */
export function dueCounts(cards: ReadonlyArray<Pick<CardRecord, 'state' | 'due'> | null>, now: Date, timeZone = 'UTC'): Omit<ProgressStats['reviews'], 'done' | 'belowDesiredRetention'> {
  const dueBy = (at: Date) => cards.filter((card) => pointStatus(card, at) !== 'scheduled').length;
  return {
    dueNow: dueBy(now),
    dueToday: dueBy(endOfDay(now, timeZone)),
    dueNext7Days: dueBy(endOfDay(now, timeZone, 6)),
    newPoints: cards.filter((card) => pointStatus(card, now) === 'new').length,
  };
}

/** True retention over the window ending at `now` (see the header). */
export function trueRetention(logs: ReadonlyArray<Pick<ReviewLogRecord, 'rating' | 'previous' | 'reviewedAt'>>, now: Date, windowDays = retentionWindowDays): Omit<ProgressStats['retention'], 'desired'> {
  const start = now.getTime() - windowDays * dayMs;
  const counted = logs.filter((log) => log.previous.state === 'review' && log.reviewedAt.getTime() > start && log.reviewedAt.getTime() <= now.getTime());
  const passed = counted.filter((log) => log.rating !== 'again').length;
  return { windowDays, reviews: counted.length, passed, rate: counted.length > 0 ? Math.round((passed / counted.length) * 10_000) / 10_000 : null };
}

/**
 * Current and longest runs of consecutive days with a review. The current run counts back
 * from today, or from yesterday when today has no review yet; reviews after `now` are ignored.
 */
export function reviewStreak(logs: ReadonlyArray<Pick<ReviewLogRecord, 'reviewedAt'>>, now: Date, timeZone = 'UTC'): ProgressStats['streak'] {
  const today = dayNumber(now, timeZone);
  const days = [...new Set(logs.filter((log) => log.reviewedAt.getTime() <= now.getTime()).map((log) => dayNumber(log.reviewedAt, timeZone)))].sort((a, b) => a - b);
  let longest = 0;
  let run = 0;
  for (const [index, day] of days.entries()) {
    run = index > 0 && days[index - 1] === day - 1 ? run + 1 : 1;
    longest = Math.max(longest, run);
  }
  const last = days[days.length - 1];
  // `run` is the run ending on the last review day; it is current only if that day is today or yesterday.
  const current = last !== undefined && today - last <= 1 ? run : 0;
  return { current, longest, lastReviewDay: last === undefined ? null : keyOfDayNumber(last) };
}

/** Reviewed points whose probability of recall now is below `desired` (see the header). */
export function belowRetention(points: ReadonlyArray<Pick<ScheduledPoint, 'retrievability'>>, desired: number): number {
  return points.filter((point) => point.retrievability !== null && point.retrievability < desired).length;
}

/** One entry per day of the `days` ending today in `timeZone`, oldest first (see the header). */
export function dailyActivity(
  logs: ReadonlyArray<Pick<ReviewLogRecord, 'reviewedAt'>>,
  sessions: ReadonlyArray<Pick<SessionTimes, 'createdAt' | 'updatedAt' | 'endedAt'>>,
  now: Date,
  timeZone = 'UTC',
  days = activityDays,
): ActivityDay[] {
  const today = dayNumber(now, timeZone);
  const first = today - days + 1;
  const series = Array.from({ length: days }, (_, index) => ({ reviews: 0, sessions: 0, seconds: 0, day: first + index }));
  const slot = (date: Date) => {
    const day = dayNumber(date, timeZone);
    return day >= first && day <= today && date.getTime() <= now.getTime() ? series[day - first] : undefined;
  };
  for (const log of logs) {
    const entry = slot(log.reviewedAt);
    if (entry) entry.reviews += 1;
  }
  for (const session of sessions) {
    const entry = slot(session.createdAt);
    if (!entry) continue;
    entry.sessions += 1;
    entry.seconds += sessionSeconds(session);
  }
  return series.map((entry) => ({ day: keyOfDayNumber(entry.day), reviews: entry.reviews, sessions: entry.sessions, minutes: minutesOf(entry.seconds) }));
}
