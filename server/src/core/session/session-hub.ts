/**
 * Keeps one SessionRoom per session that is in use, so every socket of a session (and
 * HTTP steps) share one serialized engine. A room is dropped once idle; its state is all
 * in the repository, so a new room (or a new process) picks up exactly where it was.
 */
import { SessionRoom, type SessionRoomDeps } from './session-room';

export class SessionHub {
  private readonly rooms = new Map<string, SessionRoom>();

  constructor(private readonly deps: SessionRoomDeps) {}

  room(sessionId: string): SessionRoom {
    let room = this.rooms.get(sessionId);
    if (!room) {
      room = new SessionRoom(sessionId, this.deps, () => this.release(sessionId));
      this.rooms.set(sessionId, room);
    }
    return room;
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
