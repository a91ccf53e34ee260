/**
 * Calendar days for progress figures (SPEC §6 stats): UTC days, because learners have no
 * time-zone setting yet. When one is added, these are the functions that take it. Pure.
 */

export const dayMs = 24 * 60 * 60 * 1000;

/** The UTC day `date` falls on, as `YYYY-MM-DD`. */
export function utcDayKey(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** Whole UTC days since the epoch: consecutive days differ by exactly 1. */
export function utcDayNumber(date: Date): number {
  return Math.floor(date.getTime() / dayMs);
}

/** Midnight UTC of the day `date` falls on. */
export function startOfUtcDay(date: Date): Date {
  return new Date(utcDayNumber(date) * dayMs);
}

/** The last millisecond of the UTC day `days` after the one `date` falls on (0: the same day). */
export function endOfUtcDay(date: Date, days = 0): Date {
  return new Date((utcDayNumber(date) + days + 1) * dayMs - 1);
}
