/**
 * The delivery side of a fleet's event log (SPEC §11; README.md here): one router per session
 * with listeners on this instance. It takes the session's logged events in id order, from the
 * owner's own writes or from a read after a wake-up, skips what it delivered already, and hands
 * each event to whom it is for:
 *
 * - an event with a target goes only to the listener of that id — the opening events of an
 *   attach, the replies to a sender, the events an HTTP step collects;
 * - an untargeted event goes to every socket that has seen its `_attached` marker: before that
 *   marker, the owner copies what it broadcast to the attaching socket as targeted events, so a
 *   socket sees neither a gap nor a duplicate between its opening events and the broadcasts;
 * - the internal markers (`_attached`, `_settled`, `_terminate`) never reach a client.
 *
 * Pure: no I/O; the hub feeds it rows.
 */
import type { ServerEvent } from '@tutorloop/shared';

/** Events only instances exchange, never sent to a client (their type starts with `_`). */
export type FleetMarker = { type: '_attached' } | { type: '_settled' } | { type: '_terminate' };
export type FleetEvent = ServerEvent | FleetMarker;

export function isFleetMarker(event: FleetEvent): event is FleetMarker {
  return event.type === '_attached' || event.type === '_settled' || event.type === '_terminate';
}

/** One row of the log. */
export interface LoggedEvent {
  id: number;
  target: string | null;
  event: FleetEvent;
}

export interface RoutedListener {
  readonly id: string;
  deliver(event: ServerEvent): void;
  /** A socket takes broadcasts once attached; an HTTP step takes only what is targeted at it. */
  readonly kind: 'socket' | 'step';
  /** The owner settled the step's command (`_settled`). */
  settled?(): void;
  /** The session was deleted (`_terminate`). */
  terminate?(): void;
}

export class EventRouter {
  /** The highest id handled: rows at or below it were delivered (or skipped) already. */
  cursor: number;
  private readonly listeners = new Map<string, RoutedListener & { attached: boolean }>();

  constructor(cursor = 0) {
    this.cursor = cursor;
  }

  add(listener: RoutedListener): void {
    this.listeners.set(listener.id, { ...listener, deliver: listener.deliver, attached: false });
  }

  remove(id: string): void {
    this.listeners.delete(id);
  }

  get size(): number {
    return this.listeners.size;
  }

  /** Delivers the rows not handled yet, in id order; returns whether a `_terminate` was among them. */
  accept(rows: readonly LoggedEvent[]): { terminated: boolean } {
    let terminated = false;
    for (const row of [...rows].sort((a, b) => a.id - b.id)) {
      if (row.id <= this.cursor) continue;
      this.cursor = row.id;
      if (row.event.type === '_terminate') {
        terminated = true;
        for (const listener of [...this.listeners.values()]) listener.terminate?.();
        continue;
      }
      if (row.target !== null) {
        const listener = this.listeners.get(row.target);
        if (!listener) continue;
        if (row.event.type === '_attached') listener.attached = true;
        else if (row.event.type === '_settled') listener.settled?.();
        else if (!isFleetMarker(row.event)) listener.deliver(row.event);
        continue;
      }
      if (isFleetMarker(row.event)) continue;
      for (const listener of [...this.listeners.values()]) {
        if (listener.kind === 'socket' && listener.attached) listener.deliver(row.event);
      }
    }
    return { terminated };
  }
}
