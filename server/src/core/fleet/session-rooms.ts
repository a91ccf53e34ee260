/**
 * What the socket and HTTP adapters need of "the room of a session", whoever runs it: the
 * single-instance SessionHub (its RoomBase is the handle) or, with several instances on one
 * PostgreSQL, the fleet's hub (db/postgres/fleet), whose handle relays to the instance that
 * holds the session's lease (SPEC §11).
 */
import type { ClientMessage, HistoryMessage, SessionState, SessionSummary } from '@tutorloop/shared';
import type { SessionListener } from '../session/room-base';
import type { StoredSession } from '../storage/sessions';

export interface RoomHandle {
  /** The opening events (SPEC §5) to `listener`, then every event of the session; `terminate` closes its connection when the session is deleted. */
  attach(listener: SessionListener, terminate?: () => void): Promise<void>;
  /** One validated client frame; errors meant for the sender go to `reply`. */
  handle(message: ClientMessage, reply: SessionListener): Promise<void>;
  detach(listener: SessionListener): void;
  /** Adds a listener without the opening events (an HTTP step collecting its turn's events). */
  subscribe(listener: SessionListener): void;
  /** Waits until what was asked through this handle has run. */
  settled(): Promise<void>;
  resume(): void;
  state(): Promise<SessionState>;
  history(): Promise<HistoryMessage[]>;
  summary(): Promise<SessionSummary | null>;
  /** Cancels in-flight work. */
  close(): void;
  /** Closes every connection to the session (it was deleted). */
  terminate(): void;
}

export interface SessionRooms {
  /** The room of a session the caller has read (the adapters check ownership first). */
  room(session: Pick<StoredSession, 'id' | 'type'>): RoomHandle;
  /** The room of a session if one may be running now (nothing is opened). */
  openRoomOf(sessionId: string): RoomHandle | null;
  /** Drops what is kept for the session if nothing runs and nobody listens. */
  release(sessionId: string): void;
  /** Cancels in-flight work and waits for it (shutdown). */
  close(): Promise<void>;
}
