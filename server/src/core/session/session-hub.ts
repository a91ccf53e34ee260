/**
 * Keeps one room per session that is in use, so every socket of a session (and HTTP steps)
 * share one serialized engine; the session type's module (session-module.ts) opens it. A room
 * is dropped once idle; its state is all in storage, so a new room (or a new process) picks
 * up exactly where it was.
 */
import type { StoredSession } from '../storage/sessions';
import type { RoomBase } from './room-base';
import type { SessionModules } from './session-module';

export class SessionHub {
  private readonly rooms = new Map<string, RoomBase>();

  constructor(private readonly modules: SessionModules) {}

  /** The room of a session the caller has read (the adapters check ownership first). */
  room(session: Pick<StoredSession, 'id' | 'type'>): RoomBase {
    let room = this.rooms.get(session.id);
    if (!room) {
      room = this.modules[session.type].openRoom(session.id, () => this.release(session.id));
      this.rooms.set(session.id, room);
    }
    return room;
  }

  /** The room of a session if one is open now (nothing is opened). */
  openRoomOf(sessionId: string): RoomBase | null {
    return this.rooms.get(sessionId) ?? null;
  }

  /** Drops the room if nothing is running and nobody listens. */
  release(sessionId: string): void {
    const room = this.rooms.get(sessionId);
    if (room?.idle) this.rooms.delete(sessionId);
  }

  get size(): number {
    return this.rooms.size;
  }

  /** Cancels every in-flight model call and waits for rooms to settle (shutdown). */
  async close(): Promise<void> {
    for (const room of this.rooms.values()) room.close();
    await Promise.all([...this.rooms.values()].map((room) => room.settled()));
    this.rooms.clear();
  }
}
