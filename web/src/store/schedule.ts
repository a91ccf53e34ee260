import type { CardState, CardView, PointStatus, RecallPoint } from '@tutorloop/shared';

/** Days shown by the review forecast: today (day 0) and the 29 days after it. */
export const forecastDays = 30;

const dayMs = 24 * 60 * 60 * 1000;

/** Local midnight of the day `date` falls on. */
function startOfLocalDay(date: Date): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate());
}

/**
 * Calendar days from `from`'s day to `to`'s day, in local time (what "tomorrow" means to the
 * learner). Rounding absorbs the 23- and 25-hour days of a daylight-saving change.
 */
function calendarDaysBetween(from: Date, to: Date): number {
  return Math.round((startOfLocalDay(to).getTime() - startOfLocalDay(from).getTime()) / dayMs);
}

/** What the forecast needs of a point: when it is due, and the server's verdict on it now. */
export type ForecastPoint = { due: string; status: PointStatus };

/**
 * The review forecast: `now` counts every point the server calls due now — never reviewed or
 * FSRS due ≤ now, exactly the set's "due" count (one definition, server/src/core/recall/fsrs.ts
 * `pointStatus`); `days[d]` counts the points scheduled later on calendar day d (0 = later
 * today). Points due after the window are not counted.
 */
export function forecastDueCounts(points: ReadonlyArray<ForecastPoint>, now: Date, days = forecastDays): { now: number; days: number[] } {
  const counts = new Array<number>(days).fill(0);
  let dueNow = 0;
  for (const point of points) {
    if (point.status !== 'scheduled') {
      dueNow += 1;
      continue;
    }
    const due = new Date(point.due);
    const day = Number.isNaN(due.getTime()) ? 0 : Math.max(0, calendarDaysBetween(now, due));
    if (day < days) counts[day] = (counts[day] ?? 0) + 1;
  }
  return { now: dueNow, days: counts };
}

/** One bar of the forecast chart. */
export interface ForecastDay {
  /** `now`, then `day-0` (later today), `day-1`, … */
  key: string;
  /** Short axis label: `Now`, `Later`, then `Jan 5`, … */
  label: string;
  /** Long label for the accessible table: `Due now`, `Later today`, `Tomorrow`, `Sunday, January 5`. */
  longLabel: string;
  count: number;
}

/** The forecast counts with their dates, ready to draw and to read out. */
export function forecastSeries(points: ReadonlyArray<ForecastPoint>, now: Date, locale?: string): ForecastDay[] {
  const today = startOfLocalDay(now);
  const counts = forecastDueCounts(points, now);
  return [
    { key: 'now', label: 'Now', longLabel: 'Due now', count: counts.now },
    ...counts.days.map((count, day) => {
      const date = new Date(today.getFullYear(), today.getMonth(), today.getDate() + day);
      const label = day === 0 ? 'Later' : date.toLocaleDateString(locale, { month: 'short', day: 'numeric' });
      const longLabel =
        day === 0
          ? 'Later today'
          : day === 1
            ? 'Tomorrow'
            : date.toLocaleDateString(locale, { weekday: 'long', month: 'long', day: 'numeric' });
      return { key: `day-${day}`, label, longLabel, count };
    }),
  ];
}

/** Due now (new points included) and new, counted from the server's statuses: the page's numbers. */
export function statusCounts(points: ReadonlyArray<{ status: PointStatus }>): { due: number; new: number } {
  return {
    due: points.filter((point) => point.status !== 'scheduled').length,
    new: points.filter((point) => point.status === 'new').length,
  };
}

function plural(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/**
 * When a card is next due, relative to `now`: `due now` once due (overdue included), then
 * `in 5 minutes`, `in 3 hours`, `in 3 days`, `in 2 months`, `in 1 year`.
 */
export function formatRelativeDue(dueIso: string, now: Date): string {
  const due = new Date(dueIso);
  if (Number.isNaN(due.getTime())) return 'due now';
  const ms = due.getTime() - now.getTime();
  if (ms <= 0) return 'due now';
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return 'in under a minute';
  if (minutes < 60) return `in ${plural(minutes, 'minute')}`;
  const hours = Math.round(ms / 3_600_000);
  if (hours < 24) return `in ${plural(hours, 'hour')}`;
  const days = Math.round(ms / dayMs);
  if (days < 31) return `in ${plural(days, 'day')}`;
  if (days < 365) return `in ${plural(Math.round(days / 30.44), 'month')}`;
  return `in ${plural(Math.round(days / 365.25), 'year')}`;
}

export const cardStateLabels: Record<CardState, string> = {
  new: 'New',
  learning: 'Learning',
  review: 'Review',
  relearning: 'Relearning',
};

/** One row of a set's schedule table. */
export interface ScheduleRow {
  pointId: string;
  content: string;
  state: CardState;
  /** ISO date the point is next due; `now` for a point never reviewed. */
  due: string;
  /** Days; null for a point never reviewed. */
  stability: number | null;
  /** FSRS difficulty (1–10); null for a point never reviewed. */
  difficulty: number | null;
  reps: number;
  lapses: number;
  lastReview: string | null;
  /** What the point needs now, as the server decided it. */
  status: PointStatus;
  /** Predicted probability of recall now; null for a point never reviewed. */
  retrievability: number | null;
}

/**
 * The schedule of every point of a set, in the set's order. A point without a card (never
 * reviewed) is New and due now; a card whose point is no longer in the set is left out.
 */
export function scheduleRows(
  points: ReadonlyArray<Pick<RecallPoint, 'id' | 'content' | 'position'>>,
  cards: readonly CardView[],
  now: Date,
): ScheduleRow[] {
  const cardsByPoint = new Map(cards.map((card) => [card.pointId, card]));
  return [...points]
    .sort((a, b) => a.position - b.position)
    .map((point) => {
      const card = cardsByPoint.get(point.id);
      if (!card || card.state === 'new') {
        return {
          pointId: point.id,
          content: point.content,
          state: 'new',
          due: card?.due ?? now.toISOString(),
          stability: null,
          difficulty: null,
          reps: card?.reps ?? 0,
          lapses: card?.lapses ?? 0,
          lastReview: card?.lastReview ?? null,
          status: 'new',
          retrievability: null,
        };
      }
      return {
        pointId: point.id,
        content: point.content,
        state: card.state,
        due: card.due,
        stability: card.stability,
        difficulty: card.difficulty,
        reps: card.reps,
        lapses: card.lapses,
        lastReview: card.lastReview,
        status: card.status,
        retrievability: card.retrievability,
      };
    });
}

/** `0.934` → `93%`: a probability of recall as the learner reads it. */
export function formatPercent(value: number): string {
  return `${Math.round(value * 100)}%`;
}

/** `12.3` → `12.3`, `4` → `4`, `0.456` → `0.46`: enough precision to compare, no noise. */
export function formatDecimal(value: number): string {
  const digits = Math.abs(value) < 1 ? 2 : 1;
  return String(Number(value.toFixed(digits)));
}
