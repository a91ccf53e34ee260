/**
 * Calendar days for progress figures (SPEC §6 stats): the days of a time zone — the client
 * names its own (`?timeZone=Europe/Paris`, the browser's), UTC otherwise. Day numbers count
 * whole calendar days since 1970-01-01 in that zone, so consecutive days differ by exactly 1
 * whatever daylight saving does to their length. Pure: Intl's time-zone data, no clock.
 */

export const dayMs = 24 * 60 * 60 * 1000;

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let found = formatters.get(timeZone);
  if (!found) {
    found = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    formatters.set(timeZone, found);
  }
  return found;
}

/** The wall-clock fields of `date` in `timeZone`. */
function wallClock(date: Date, timeZone: string): { year: number; month: number; day: number; hour: number; minute: number; second: number } {
  const fields: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(date)) if (part.type !== 'literal') fields[part.type] = Number(part.value);
  return { year: fields.year!, month: fields.month!, day: fields.day!, hour: fields.hour! % 24, minute: fields.minute!, second: fields.second! };
}

/** The calendar day `date` falls on in `timeZone`, as `YYYY-MM-DD`. */
export function dayKey(date: Date, timeZone = 'UTC'): string {
  if (timeZone === 'UTC') return date.toISOString().slice(0, 10);
  const { year, month, day } = wallClock(date, timeZone);
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Whole calendar days in `timeZone` since 1970-01-01: consecutive days differ by exactly 1. */
export function dayNumber(date: Date, timeZone = 'UTC'): number {
  if (timeZone === 'UTC') return Math.floor(date.getTime() / dayMs);
  const { year, month, day } = wallClock(date, timeZone);
  return Date.UTC(year, month - 1, day) / dayMs;
}

/** The `YYYY-MM-DD` of a day number. */
export function keyOfDayNumber(day: number): string {
  return new Date(day * dayMs).toISOString().slice(0, 10);
}

/** How far the zone's wall clock is ahead of UTC at `date`, in ms. */
function offsetMs(date: Date, timeZone: string): number {
  const wall = wallClock(date, timeZone);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return asUtc - Math.floor(date.getTime() / 1000) * 1000;
}

/** The first instant of day number `day` in `timeZone` (its midnight, or the first time after it when a clock change skips midnight). */
export function startOfDay(day: number, timeZone = 'UTC'): Date {
  let instant = day * dayMs;
  if (timeZone === 'UTC') return new Date(instant);
  // Local midnight = UTC midnight of that date minus the offset then; two passes settle a change of offset.
  for (let pass = 0; pass < 2; pass += 1) instant = day * dayMs - offsetMs(new Date(instant), timeZone);
  // A clock change at midnight can leave the instant in the day before: step to the day's first hour.
  while (dayNumber(new Date(instant), timeZone) < day) instant += 60 * 60 * 1000;
  return new Date(instant);
}

/** The last millisecond of the day `days` after the one `date` falls on in `timeZone` (0: the same day). */
export function endOfDay(date: Date, timeZone = 'UTC', days = 0): Date {
  return new Date(startOfDay(dayNumber(date, timeZone) + days + 1, timeZone).getTime() - 1);
}

/** Midnight UTC of the day `date` falls on (history's date filters are UTC days). */
export function startOfUtcDay(date: Date): Date {
  return startOfDay(dayNumber(date), 'UTC');
}

/** The last millisecond of the UTC day `days` after the one `date` falls on (0: the same day). */
export function endOfUtcDay(date: Date, days = 0): Date {
  return endOfDay(date, 'UTC', days);
}
