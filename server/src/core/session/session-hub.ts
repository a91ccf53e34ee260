/**
 * Keeps one room per session that is in use, so every socket of a session (and HTTP steps)
 * share one serialized engine: a SessionRoom for recall sessions, an AssessmentRoom for
 * assessments. A room is dropped once idle; its state is all in the database, so a new room
 * (or a new process) picks up exactly where it was.
 */
import type { Catalog } from '../assessment';
import { AssessmentRoom, type CodeRunner } from '../assessment-session/assessment-room';
import type { StoredSession } from '../storage/sessions';
import type { RoomBase } from './room-base';
import { SessionRoom, type SessionRoomDeps } from './session-room';

export interface SessionHubDeps extends SessionRoomDeps {
  /** Assessment sessions: absent in setups that only run recall sessions (some tests). */
  assessment?: { catalog: Catalog; codeRunner: CodeRunner };
}

export class SessionHub {
  private readonly rooms = new Map<string, RoomBase>();

  constructor(private readonly deps: SessionHubDeps) {}

  /** The room of a session the caller has read (the adapters check ownership first). */
  room(session: Pick<StoredSession, 'id' | 'type'>): RoomBase {
    let room = this.rooms.get(session.id);
    if (!room) {
      room = this.create(session);
      this.rooms.set(session.id, room);
    }
    return room;
  }

  private create({ id: sessionId, type }: Pick<StoredSession, 'id' | 'type'>): RoomBase {
    const onIdle = () => this.release(sessionId);
    if (type === 'assessment') {
      if (!this.deps.assessment) throw new Error('assessment sessions are not configured on this server');
      return new AssessmentRoom(sessionId, { ...this.deps, ...this.deps.assessment }, onIdle);
    }
    return new SessionRoom(sessionId, this.deps, onIdle);
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
