/** Calendar days of a time zone (days.ts): keys, numbers and day bounds, across clock changes. */
import { describe, expect, it } from 'vitest';
import { dayKey, dayNumber, endOfDay, keyOfDayNumber, startOfDay } from './days';

describe('days of a time zone', () => {
  it('puts an instant on the zone’s own calendar day', () => {
    const evening = new Date('2026-03-10T03:30:00Z'); // 20:30 on the 9th in Los Angeles (UTC−7 after 8 March)
    expect(dayKey(evening)).toBe('2026-03-10');
    expect(dayKey(evening, 'America/Los_Angeles')).toBe('2026-03-09');
    expect(dayKey(evening, 'Asia/Tokyo')).toBe('2026-03-10');
    expect(dayNumber(evening, 'America/Los_Angeles')).toBe(dayNumber(evening) - 1);
    expect(keyOfDayNumber(dayNumber(evening, 'America/Los_Angeles'))).toBe('2026-03-09');
  });

  it('bounds a day at the zone’s midnight, a 23-hour day when the clocks go forward', () => {
    // Europe/Berlin: clocks go forward on 29 March 2026 at 02:00 (UTC+1 → UTC+2).
    const day = dayNumber(new Date('2026-03-29T12:00:00Z'), 'Europe/Berlin');
    expect(startOfDay(day, 'Europe/Berlin').toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(startOfDay(day + 1, 'Europe/Berlin').toISOString()).toBe('2026-03-29T22:00:00.000Z');
    expect(endOfDay(new Date('2026-03-29T12:00:00Z'), 'Europe/Berlin').toISOString()).toBe('2026-03-29T21:59:59.999Z');
    // Six days on, in summer time.
    expect(endOfDay(new Date('2026-03-29T12:00:00Z'), 'Europe/Berlin', 6).toISOString()).toBe('2026-04-04T21:59:59.999Z');
  });

  it('starts a day whose midnight does not exist at its first hour', () => {
    // America/Santiago: on 6 September 2026 clocks jump from 00:00 to 01:00 (UTC−4 → UTC−3).
    const day = dayNumber(new Date('2026-09-06T15:00:00Z'), 'America/Santiago');
    expect(keyOfDayNumber(day)).toBe('2026-09-06');
    const start = startOfDay(day, 'America/Santiago');
    expect(dayKey(start, 'America/Santiago')).toBe('2026-09-06');
    expect(dayKey(new Date(start.getTime() - 1), 'America/Santiago')).toBe('2026-09-05');
  });
});
