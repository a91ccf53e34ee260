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
import type { SessionTypeCatalog } from './session-type-state';
import type { SessionReader, StoredSession } from './sessions';

/**
 * What a session type's snapshots load beyond what every session has, declared by the type
 * (its module's `snapshotNeeds`) and handed to storage in the registry's catalog — so storage
 * loads by declaration and names no type.
 */
export interface SnapshotNeeds {
  /** The checklist by position, with the learner's cards for its points. */
  readonly checklist?: boolean;
  /** Assessment items by position and their responses. */
  readonly assessment?: boolean;
}

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
  /** The checklist by position, when the type's snapshot needs it (`SnapshotNeeds.checklist`); else empty. */
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
  /** Items by position and responses, when the type's snapshot needs them (`SnapshotNeeds.assessment`); else null. */
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
export async function assembleSessionSnapshot(
  sources: SnapshotSources,
  sessionTypes: SessionTypeCatalog,
  sessionId: string,
  options: SnapshotOptions = {},
): Promise<SessionSnapshot | null> {
  const session = await sources.sessions.get(sessionId);
  if (!session) return null;
  const needs = sessionTypes.snapshotNeeds[session.type];
  const learner = await sources.learners.get(session.learnerId);
  const checklist = needs.checklist ? await sources.checklists.list(sessionId) : [];
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
    assessment: needs.assessment
      ? { items: await sources.assessments.listItems(sessionId), responses: await sources.assessments.listResponses(sessionId) }
      : null,
  };
}
