/**
 * A room whose views are read from the stored session (recall, learning, thought and survey
 * rooms): its state, visible history and summary come from the snapshot, and resuming after
 * an interruption means the opening turn (nothing said yet) or the oldest unanswered input.
 * The assessment room, driven by its items and clock, stays on RoomBase.
 */
import type { HistoryMessage, SessionState, SessionSummary } from '@tutorloop/shared';
import type { Clock } from '../ports';
import type { SessionSnapshot } from '../storage/session-snapshot';
import type { Storage } from '../storage/storage';
import { RoomBase, type RoomBaseDeps } from './room-base';
import { buildHistory, isEnded } from './session-view';

export interface ConversationRoomDeps extends RoomBaseDeps {
  storage: Storage;
  clock: Clock;
}

/** A snapshot without messages: enough for the state, the summary and what resume needs. */
export const noMessages = { lastMessages: 0 } as const;

export abstract class ConversationRoom extends RoomBase {
  constructor(sessionId: string, private readonly conversationDeps: ConversationRoomDeps, onIdle?: () => void) {
    super(sessionId, conversationDeps, onIdle);
  }

  /** The learner-facing state of SPEC §5 `state_update`. */
  protected abstract stateOf(snapshot: SessionSnapshot): SessionState;
  /** The summary of an ended session. */
  protected abstract summaryOf(snapshot: SessionSnapshot, now: Date): SessionSummary;
  /** The session's first turn (nothing has been said yet). */
  protected abstract openSession(snapshot: SessionSnapshot): Promise<void>;
  /** Answers every stored input that has no reply yet, in order. */
  protected abstract processUnanswered(): Promise<void>;

  /** Nothing more happens in the session (default: it has ended). */
  protected closedForGood(snapshot: SessionSnapshot): boolean {
    return isEnded(snapshot.session.status);
  }

  /** Resumes an interrupted session: the opening turn, or an unanswered learner input. */
  override resume(): void {
    void this.enqueue(async () => {
      const snapshot = await this.conversationDeps.storage.loadSessionSnapshot(this.sessionId, noMessages);
      if (!snapshot || this.closedForGood(snapshot)) return;
      if (snapshot.session.status === 'pending' || snapshot.messageCount === 0) await this.openSession(snapshot);
      else if (snapshot.oldestUnanswered) await this.processUnanswered();
    });
  }

  override async state(): Promise<SessionState> {
    const snapshot = await this.conversationDeps.storage.loadSessionSnapshot(this.sessionId, noMessages);
    if (!snapshot) throw new Error(`session ${this.sessionId} vanished`);
    return this.stateOf(snapshot);
  }

  override async history(): Promise<HistoryMessage[]> {
    const snapshot = await this.conversationDeps.storage.loadSessionSnapshot(this.sessionId);
    return snapshot ? buildHistory(snapshot.messages, snapshot.actions) : [];
  }

  override async summary(): Promise<SessionSummary | null> {
    const snapshot = await this.conversationDeps.storage.loadSessionSnapshot(this.sessionId, noMessages);
    if (!snapshot || !isEnded(snapshot.session.status)) return null;
    return this.summaryOf(snapshot, this.conversationDeps.clock.now());
  }
}
