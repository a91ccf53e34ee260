/**
 * Everything a turn needs about its session, read at once from one consistent state: a turn
 * loads a snapshot, decides in pure code, and commits its decisions in one transaction per
 * phase — instead of asking storage again at every step.
 */
import type { AssessmentReader, StoredItem, StoredResponse } from './assessments';
import type { CardReader, StoredCard } from './cards';
import type { ChecklistEntry, ChecklistReader } from './checklists';
import { defaultDesiredRetention, type LearnerReader } from './learners';
import type { MessageReader, StoredMessage } from './messages';
import type { PendingActionReader, PendingActionRecord } from './pending-actions';
import type { SessionReader, StoredSession } from './sessions';

/** What a snapshot includes beyond the essentials. */
export interface SnapshotOptions {
  /** Only the last N messages (the evaluator needs 10); all of them when absent. */
  lastMessages?: number;
}

/** One session as committed (or, inside a transaction, as that transaction sees it). */
export interface SessionSnapshot {
  session: StoredSession;
  /** The learner's FSRS target retention. */
  desiredRetention: number;
  /** Recall sessions: the checklist by position; empty for other types. */
  checklist: ChecklistEntry[];
  /** The learner's cards for the checklist's points, keyed by point id (points never reviewed are absent). */
  cards: Map<string, StoredCard>;
  /** The conversation by `seq` (the last `lastMessages` when asked). */
  messages: StoredMessage[];
  /** How many messages the session has in all. */
  messageCount: number;
  /** The first learner message or tool result without a reply, whether or not it is among `messages`. */
  oldestUnanswered: StoredMessage | null;
  /** The one pending action, if any. */
  pendingAction: PendingActionRecord | null;
  /** Every action of the session, oldest first (the history shows answered widgets). */
  actions: PendingActionRecord[];
  /** Assessment sessions, and learning sessions' practice items: items by position and responses; null for other types. */
  assessment: { items: StoredItem[]; responses: StoredResponse[] } | null;
}

/** The readers a snapshot is assembled from. */
export interface SnapshotSources {
  learners: LearnerReader;
  sessions: SessionReader;
  checklists: ChecklistReader;
  cards: CardReader;
  messages: MessageReader;
  pendingActions: PendingActionReader;
  assessments: AssessmentReader;
}

/**
 * Assembles a snapshot from readers that all see one state (an adapter calls it inside its
 * read or write unit, never across two). Null for an unknown session.
 */
export async function assembleSessionSnapshot(sources: SnapshotSources, sessionId: string, options: SnapshotOptions = {}): Promise<SessionSnapshot | null> {
  const session = await sources.sessions.get(sessionId);
  if (!session) return null;
  const learner = await sources.learners.get(session.learnerId);
  const checklist = session.type === 'recall' ? await sources.checklists.list(sessionId) : [];
  const cards = await sources.cards.listFor(session.learnerId, checklist.map((entry) => entry.pointId));
  const messages = await sources.messages.list(sessionId, options.lastMessages === undefined ? {} : { last: options.lastMessages });
  const actions = await sources.pendingActions.list(sessionId);
  return {
    session,
    desiredRetention: learner?.desiredRetention ?? defaultDesiredRetention,
    checklist,
    cards,
    messages,
    messageCount: await sources.messages.count(sessionId),
    oldestUnanswered: await sources.messages.findOldestUnanswered(sessionId),
    pendingAction: actions.find((action) => action.status === 'pending') ?? null,
    actions,
    assessment:
      session.type === 'assessment' || session.type === 'learning'
        ? { items: await sources.assessments.listItems(sessionId), responses: await sources.assessments.listResponses(sessionId) }
        : null,
  };
}
