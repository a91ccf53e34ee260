/**
 * The fleet's statements (SPEC §11; fleet-schema.ts): leases from the database clock, the
 * event log and the command table, presence and heartbeats. Each is one statement on the pool,
 * so none holds a connection between two awaits; the database clock (`now()`) decides every
 * expiry, so instances whose clocks differ agree on it.
 */
import type pg from 'pg';
import type { LoggedEvent } from '../../../core/fleet/event-router';

/**
 * The channels instances wake each other on. A command's payload is a session id; an event's is
 * the session id, then a space and the writing instance's id when an owner wrote it (its own
 * sockets got those rows from the write itself, so it skips the read: `eventWakeUp`).
 */
export const eventsChannel = 'tutorloop_events';
export const commandsChannel = 'tutorloop_commands';

/** The session an events wake-up is for, and the instance that wrote the rows (null: read them anywhere). */
export function eventWakeUp(payload: string): { sessionId: string; writer: string | null } {
  const space = payload.lastIndexOf(' ');
  return space < 0 ? { sessionId: payload, writer: null } : { sessionId: payload.slice(0, space), writer: payload.slice(space + 1) };
}

export interface FleetTimings {
  /** How long a lease lasts unless renewed. */
  leaseTtlMs: number;
  /** A presence row counts while its instance's heartbeat is younger than this. */
  presenceStaleMs: number;
  /** Events older than this are swept. */
  eventRetentionMs: number;
}

/** A command taken by a session's owner; `retaken`: an earlier lease had taken it and may have run it. */
export interface TakenCommand {
  id: number;
  target: string;
  command: unknown;
  retaken: boolean;
}

export class FleetStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly timings: FleetTimings,
  ) {}

  async heartbeat(instanceId: string): Promise<void> {
    await this.pool.query('INSERT INTO fleet_instances (id, heartbeat_at) VALUES ($1, now()) ON CONFLICT (id) DO UPDATE SET heartbeat_at = now()', [instanceId]);
  }

  /** Removes the instance and its listeners (a clean shutdown). */
  async leave(instanceId: string): Promise<void> {
    await this.pool.query('WITH gone AS (DELETE FROM session_presence WHERE instance_id = $1) DELETE FROM fleet_instances WHERE id = $1', [instanceId]);
  }

  /**
   * Takes the session's lease if nobody holds a live one (or it is this instance's already):
   * the new epoch, or null (held by another instance, or the session is gone).
   */
  async acquire(sessionId: string, owner: string): Promise<number | null> {
    try {
      const result = await this.pool.query<{ epoch: string }>(
        `INSERT INTO session_leases (session_id, owner, epoch, expires_at) VALUES ($1, $2, 1, now() + $3 * interval '1 millisecond')
         ON CONFLICT (session_id) DO UPDATE SET owner = EXCLUDED.owner, epoch = session_leases.epoch + 1, expires_at = EXCLUDED.expires_at
         WHERE session_leases.expires_at < now() OR session_leases.owner = EXCLUDED.owner
         RETURNING epoch`,
        [sessionId, owner, this.timings.leaseTtlMs],
      );
      return result.rows[0] ? Number(result.rows[0].epoch) : null;
    } catch (error) {
      // 23503: the session was deleted meanwhile; there is nothing to run.
      if ((error as { code?: unknown }).code === '23503') return null;
      throw error;
    }
  }

  /** Renews the leases still held; returns the session ids among `leases` that were lost. */
  async renew(owner: string, leases: ReadonlyArray<{ sessionId: string; epoch: number }>): Promise<Set<string>> {
    if (leases.length === 0) return new Set();
    const result = await this.pool.query<{ session_id: string }>(
      `UPDATE session_leases SET expires_at = now() + $4 * interval '1 millisecond'
       FROM unnest($2::text[], $3::bigint[]) AS held(session_id, epoch)
       WHERE session_leases.session_id = held.session_id AND session_leases.epoch = held.epoch AND session_leases.owner = $1
       RETURNING session_leases.session_id`,
      [owner, leases.map((lease) => lease.sessionId), leases.map((lease) => lease.epoch), this.timings.leaseTtlMs],
    );
    const kept = new Set(result.rows.map((row) => row.session_id));
    return new Set(leases.filter((lease) => !kept.has(lease.sessionId)).map((lease) => lease.sessionId));
  }

  async release(sessionId: string, owner: string, epoch: number): Promise<void> {
    await this.pool.query('DELETE FROM session_leases WHERE session_id = $1 AND owner = $2 AND epoch = $3', [sessionId, owner, epoch]);
  }

  /** The sessions among `sessionIds` whose lease is live now. */
  async liveLeases(sessionIds: readonly string[]): Promise<Set<string>> {
    if (sessionIds.length === 0) return new Set();
    const result = await this.pool.query<{ session_id: string }>('SELECT session_id FROM session_leases WHERE session_id = ANY($1::text[]) AND expires_at > now()', [sessionIds]);
    return new Set(result.rows.map((row) => row.session_id));
  }

  /**
   * Appends `events` to the session's log in order, only while `owner` holds the lease at
   * `epoch` (the check and the insert are one statement; FOR SHARE makes a takeover wait for
   * it), and wakes every instance (naming the owner that wrote, `eventWakeUp`). Returns the
   * rows written, or null when fenced.
   */
  async append(sessionId: string, fence: { owner: string; epoch: number } | null, events: ReadonlyArray<{ target: string | null; event: unknown }>): Promise<LoggedEvent[] | null> {
    const rows = events.map(({ target, event }) => ({ target, event }));
    const lease = fence ? 'SELECT 1 FROM session_leases WHERE session_id = $1 AND owner = $3 AND epoch = $4 FOR SHARE' : 'SELECT 1';
    const result = await this.pool.query<{ id: string; target: string | null; event: LoggedEvent['event'] }>(
      `WITH lease AS (${lease}),
       written AS (
         INSERT INTO session_events (session_id, target, event)
         SELECT $1, row.value->>'target', row.value->'event' FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS row(value, n)
         WHERE EXISTS (SELECT 1 FROM lease) ORDER BY row.n
         RETURNING id, target, event)
       SELECT id, target, event, pg_notify('${eventsChannel}', ${fence ? "$1 || ' ' || $3" : '$1'}) FROM written`,
      fence ? [sessionId, JSON.stringify(rows), fence.owner, fence.epoch] : [sessionId, JSON.stringify(rows)],
    );
    if (result.rows.length === 0) return null;
    return result.rows.map((row) => ({ id: Number(row.id), target: row.target, event: row.event })).sort((a, b) => a.id - b.id);
  }

  async eventsAfter(sessionId: string, afterId: number): Promise<LoggedEvent[]> {
    const result = await this.pool.query<{ id: string; target: string | null; event: LoggedEvent['event'] }>('SELECT id, target, event FROM session_events WHERE session_id = $1 AND id > $2 ORDER BY id', [sessionId, afterId]);
    return result.rows.map((row) => ({ id: Number(row.id), target: row.target, event: row.event }));
  }

  async lastEventId(sessionId: string): Promise<number> {
    const result = await this.pool.query<{ id: string | null }>('SELECT max(id) AS id FROM session_events WHERE session_id = $1', [sessionId]);
    return Number(result.rows[0]?.id ?? 0);
  }

  /** Queues a command for the session's owner and wakes the instances. */
  async addCommand(sessionId: string, target: string, command: unknown): Promise<void> {
    await this.pool.query(
      `WITH added AS (INSERT INTO session_commands (session_id, target, frame) VALUES ($1, $2, $3::jsonb) RETURNING id)
       SELECT id, pg_notify('${commandsChannel}', $1) FROM added`,
      [sessionId, target, JSON.stringify(command)],
    );
  }

  /**
   * Takes the session's queued commands for the lease holder `fence`, in the order they were
   * queued, marking them taken under its (owner, epoch); they stay until `finishCommand`. With
   * `retake` (a new holder's first take) it also takes those an earlier lease took and never
   * finished — their taker lost the lease, so it can no longer commit them — and says so
   * (`retaken`). Only while `fence` holds the lease (checked in the same statement; FOR SHARE
   * makes a takeover wait for it), so a stalled former owner takes nothing: else [].
   */
  async takeCommands(sessionId: string, fence: { owner: string; epoch: number }, options: { retake: boolean }): Promise<TakenCommand[]> {
    const result = await this.pool.query<{ id: string; target: string; frame: unknown; retaken: boolean }>(
      `WITH lease AS (SELECT 1 FROM session_leases WHERE session_id = $1 AND owner = $2 AND epoch = $3 FOR SHARE),
       queued AS (
         SELECT id, taken_epoch IS NOT NULL AS retaken FROM session_commands
         WHERE session_id = $1 AND (taken_epoch IS NULL OR $4) AND EXISTS (SELECT 1 FROM lease)
         FOR UPDATE)
       UPDATE session_commands SET taken_by = $2, taken_epoch = $3 FROM queued WHERE session_commands.id = queued.id
       RETURNING session_commands.id, target, frame, queued.retaken`,
      [sessionId, fence.owner, fence.epoch, options.retake],
    );
    return result.rows.map((row) => ({ id: Number(row.id), target: row.target, command: row.frame, retaken: row.retaken })).sort((a, b) => a.id - b.id);
  }

  /** Removes a command that ran, unless another lease took it since (its new taker runs it). */
  async finishCommand(id: number, fence: { owner: string; epoch: number }): Promise<void> {
    await this.pool.query('DELETE FROM session_commands WHERE id = $1 AND taken_by = $2 AND taken_epoch = $3', [id, fence.owner, fence.epoch]);
  }

  async addPresence(listenerId: string, sessionId: string, instanceId: string): Promise<void> {
    await this.pool.query('INSERT INTO session_presence (listener_id, session_id, instance_id) VALUES ($1, $2, $3) ON CONFLICT (listener_id) DO NOTHING', [listenerId, sessionId, instanceId]);
  }

  async removePresence(listenerId: string): Promise<void> {
    await this.pool.query('DELETE FROM session_presence WHERE listener_id = $1', [listenerId]);
  }

  /** True while a listener of the session is connected to a live instance anywhere. */
  async listened(sessionId: string): Promise<boolean> {
    const result = await this.pool.query(
      `SELECT 1 FROM session_presence p JOIN fleet_instances i ON i.id = p.instance_id
       WHERE p.session_id = $1 AND i.heartbeat_at > now() - $2 * interval '1 millisecond' LIMIT 1`,
      [sessionId, this.timings.presenceStaleMs],
    );
    return (result.rowCount ?? 0) > 0;
  }

  /** The sessions among `sessionIds` listened to on a live instance: `listened` for many sessions in one statement. */
  async listenedAmong(sessionIds: readonly string[]): Promise<Set<string>> {
    if (sessionIds.length === 0) return new Set();
    const result = await this.pool.query<{ session_id: string }>(
      `SELECT DISTINCT p.session_id FROM session_presence p JOIN fleet_instances i ON i.id = p.instance_id
       WHERE p.session_id = ANY($1::text[]) AND i.heartbeat_at > now() - $2 * interval '1 millisecond'`,
      [sessionIds, this.timings.presenceStaleMs],
    );
    return new Set(result.rows.map((row) => row.session_id));
  }

  /** Drops old events and commands, dead instances and their listeners. */
  async sweep(): Promise<void> {
    const { eventRetentionMs, presenceStaleMs } = this.timings;
    await this.pool.query("DELETE FROM session_events WHERE created_at < now() - $1 * interval '1 millisecond'", [eventRetentionMs]);
    await this.pool.query("DELETE FROM session_commands WHERE created_at < now() - $1 * interval '1 millisecond'", [eventRetentionMs]);
    await this.pool.query(
      "WITH dead AS (DELETE FROM fleet_instances WHERE heartbeat_at < now() - $1 * interval '1 millisecond' RETURNING id) DELETE FROM session_presence WHERE instance_id IN (SELECT id FROM dead) OR instance_id NOT IN (SELECT id FROM fleet_instances)",
      [presenceStaleMs],
    );
  }
}
