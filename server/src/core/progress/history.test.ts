/** Session history (SPEC §6): range, cursor, order and paging, with hand-built sessions. */
import { describe, expect, it } from 'vitest';
import type { SessionStatus, SessionType } from '@tutorloop/shared';
import { decodeCursor, encodeCursor, pageHistory, resolveRange, sessionSeconds, type HistorySession } from './history';

/** The cursor a page gave out, decoded (the test fails if there is none). */
function cursorOf(text: string | null) {
  if (text === null) throw new Error('expected a next cursor');
  const decoded = decodeCursor(text);
  if (!decoded.ok) throw new Error(decoded.error);
  return decoded.value;
}

function session(id: string, createdAt: string, type: SessionType = 'recall', status: SessionStatus = 'completed'): HistorySession {
  return { id, type, status, createdAt: new Date(createdAt) };
}

describe('resolveRange', () => {
  it('takes a date alone as the whole UTC day, both ends inclusive', () => {
    expect(resolveRange({ from: '2026-01-05', to: '2026-01-06' })).toEqual({
      ok: true,
      value: { from: new Date('2026-01-05T00:00:00.000Z'), to: new Date('2026-01-06T23:59:59.999Z') },
    });
  });

  it('takes a date-time as given, in its own offset', () => {
    expect(resolveRange({ from: '2026-01-05T10:00:00+02:00' })).toEqual({ ok: true, value: { from: new Date('2026-01-05T08:00:00.000Z') } });
    expect(resolveRange({})).toEqual({ ok: true, value: {} });
  });

  it('refuses an end before the start, naming the field', () => {
    expect(resolveRange({ from: '2026-01-06', to: '2026-01-05' })).toEqual({ ok: false, error: 'to: must not be before from' });
  });
});

describe('cursor', () => {
  it('round-trips the last row of a page, ids with dots included', () => {
    const cursor = { createdAt: new Date('2026-01-05T09:00:00.000Z'), id: 'a.b.c' };
    const decoded = decodeCursor(encodeCursor(cursor));
    expect(decoded).toEqual({ ok: true, value: cursor });
  });

  it('refuses text it did not give out', () => {
    for (const text of ['not a cursor!', Buffer.from('hello').toString('base64url'), '']) {
      expect(decodeCursor(text)).toEqual({ ok: false, error: 'cursor: not a cursor this API gave out (use nextCursor of the page before)' });
    }
  });
});

describe('pageHistory', () => {
  const sessions = [
    session('s1', '2026-01-01T09:00:00Z'),
    session('s3b', '2026-01-03T09:00:00Z', 'assessment'),
    session('s3a', '2026-01-03T09:00:00Z', 'learning', 'active'),
    session('s4', '2026-01-04T09:00:00Z', 'recall', 'abandoned'),
    session('s5', '2026-01-05T09:00:00Z'),
  ];

  it('pages newest first, ties by id, until the last page (no cursor)', () => {
    const first = pageHistory(sessions, {}, null, 2);
    expect(first.page.map((row) => row.id)).toEqual(['s5', 's4']);
    const second = pageHistory(sessions, {}, cursorOf(first.nextCursor), 2);
    expect(second.page.map((row) => row.id)).toEqual(['s3a', 's3b']);
    const third = pageHistory(sessions, {}, cursorOf(second.nextCursor), 2);
    expect(third).toEqual({ page: [sessions[0]], nextCursor: null });
    // Exactly a page left: no next cursor.
    expect(pageHistory(sessions, {}, null, 5).nextCursor).toBeNull();
  });

  it('does not shift a later page when a session is created meanwhile', () => {
    const first = pageHistory(sessions, {}, null, 2);
    const withNewer = [...sessions, session('s6', '2026-01-06T09:00:00Z')];
    const second = pageHistory(withNewer, {}, cursorOf(first.nextCursor), 2);
    expect(second.page.map((row) => row.id)).toEqual(['s3a', 's3b']);
  });

  it('filters by type, status and creation range (inclusive)', () => {
    expect(pageHistory(sessions, { type: 'recall' }, null, 10).page.map((row) => row.id)).toEqual(['s5', 's4', 's1']);
    expect(pageHistory(sessions, { status: 'completed' }, null, 10).page.map((row) => row.id)).toEqual(['s5', 's3b', 's1']);
    const range = { from: new Date('2026-01-03T09:00:00Z'), to: new Date('2026-01-04T09:00:00Z') };
    expect(pageHistory(sessions, range, null, 10).page.map((row) => row.id)).toEqual(['s4', 's3a', 's3b']);
    expect(pageHistory(sessions, { ...range, type: 'recall', status: 'completed' }, null, 10)).toEqual({ page: [], nextCursor: null });
  });
});

describe('sessionSeconds', () => {
  it('measures creation to end, or to the last change while open, in whole seconds', () => {
    const createdAt = new Date('2026-01-05T09:00:00.000Z');
    expect(sessionSeconds({ createdAt, updatedAt: new Date('2026-01-05T09:30:00Z'), endedAt: new Date('2026-01-05T09:06:30.400Z') })).toBe(390);
    expect(sessionSeconds({ createdAt, updatedAt: new Date('2026-01-05T09:01:30Z'), endedAt: null })).toBe(90);
    expect(sessionSeconds({ createdAt, updatedAt: new Date('2026-01-05T08:00:00Z'), endedAt: null })).toBe(0);
  });
});
