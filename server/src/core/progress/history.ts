/**
 * Session history (SPEC §6 `GET /api/sessions/history`): filters, the order and the cursor.
 * Pure: it pages a learner's sessions as read through the storage port.
 *
 * Order: newest first by creation, ties by id (ascending) — the order `sessions.listByLearner`
 * gives. The cursor names the last row of a page (its creation time and id), so the next page
 * starts strictly after it: sessions created meanwhile sort before it and never shift a page,
 * and a deleted row does not break the cursor that named it.
 */
import type { SessionStatus, SessionType } from '@tutorloop/shared';
import { endOfUtcDay, startOfUtcDay } from './days';

export type Result<T> = { ok: true; value: T } | { ok: false; error: string };

/** What a history row is filtered and ordered by. */
export interface HistorySession {
  id: string;
  type: SessionType;
  status: SessionStatus;
  createdAt: Date;
}

/** Filters, all optional; `from` and `to` bound the creation time, both inclusive. */
export interface HistoryFilter {
  type?: SessionType | undefined;
  status?: SessionStatus | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
}

export interface HistoryCursor {
  createdAt: Date;
  id: string;
}

const datePattern = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The creation-time range of a query: a date alone means the whole UTC day (`from` its first
 * millisecond, `to` its last); a date-time is taken as given. `to` before `from` is refused.
 */
export function resolveRange(query: { from?: string | undefined; to?: string | undefined }): Result<{ from?: Date; to?: Date }> {
  const from = query.from === undefined ? undefined : datePattern.test(query.from) ? startOfUtcDay(new Date(`${query.from}T00:00:00Z`)) : new Date(query.from);
  const to = query.to === undefined ? undefined : datePattern.test(query.to) ? endOfUtcDay(new Date(`${query.to}T00:00:00Z`)) : new Date(query.to);
  if (from && to && to.getTime() < from.getTime()) return { ok: false, error: 'to: must not be before from' };
  return { ok: true, value: { ...(from ? { from } : {}), ...(to ? { to } : {}) } };
}

/** An opaque cursor: base64url of `<creation ms>.<id>`. */
export function encodeCursor(cursor: HistoryCursor): string {
  return Buffer.from(`${cursor.createdAt.getTime()}.${cursor.id}`, 'utf8').toString('base64url');
}

export function decodeCursor(text: string): Result<HistoryCursor> {
  const invalid = { ok: false, error: 'cursor: not a cursor this API gave out (use nextCursor of the page before)' } as const;
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return invalid;
  const decoded = Buffer.from(text, 'base64url').toString('utf8');
  const match = /^(\d{1,15})\.(.+)$/s.exec(decoded);
  if (!match) return invalid;
  return { ok: true, value: { createdAt: new Date(Number(match[1])), id: match[2]! } };
}

/** Newest first, ties by id ascending. */
export function compareHistory(a: HistoryCursor, b: HistoryCursor): number {
  const byTime = b.createdAt.getTime() - a.createdAt.getTime();
  if (byTime !== 0) return byTime;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function matches(session: HistorySession, filter: HistoryFilter): boolean {
  if (filter.type && session.type !== filter.type) return false;
  if (filter.status && session.status !== filter.status) return false;
  const time = session.createdAt.getTime();
  if (filter.from && time < filter.from.getTime()) return false;
  if (filter.to && time > filter.to.getTime()) return false;
  return true;
}

/** One page of the filtered sessions after `cursor`, and the cursor of the next page (null on the last). */
export function pageHistory<S extends HistorySession>(sessions: readonly S[], filter: HistoryFilter, cursor: HistoryCursor | null, limit: number): { page: S[]; nextCursor: string | null } {
  const rows = sessions
    .filter((session) => matches(session, filter) && (!cursor || compareHistory(session, cursor) > 0))
    .sort(compareHistory);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { page, nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
}

/**
 * How long a session ran, in whole seconds: creation to its end, or while it is open, to its
 * last change (the same measure as a summary's `durationSeconds`).
 */
export function sessionSeconds(session: { createdAt: Date; updatedAt: Date; endedAt: Date | null }): number {
  const end = session.endedAt ?? session.updatedAt;
  return Math.max(0, Math.round((end.getTime() - session.createdAt.getTime()) / 1000));
}
