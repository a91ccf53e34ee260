/**
 * The persistence port of the session engine. Synchronous (better-sqlite3 is), so a turn
 * step that must be atomic runs inside `transaction` — checklist, card and review log
 * change together or not at all (SPEC §4.1).
 */
import type { SessionMode, SessionStatus, SessionType, WidgetAnswer, WidgetKind } from '@tutorloop/shared';
import type { ToolCall } from '../provider';
import type { CardRecord, RatingName } from '../scheduling/fsrs';

export interface SessionRecord {
  id: string;
  learnerId: string;
  type: SessionType;
  status: SessionStatus;
  mode: SessionMode;
  rabbitholeTopic: string | null;
  recallSetId: string | null;
  title: string;
  turn: number;
  probeIndex: number;
  probeAttempts: number;
  endReason: string | null;
  createdAt: Date;
  updatedAt: Date;
  endedAt: Date | null;
}

export type SessionChanges = Partial<
  Pick<SessionRecord, 'status' | 'mode' | 'rabbitholeTopic' | 'turn' | 'probeIndex' | 'probeAttempts' | 'endReason' | 'endedAt'>
>;

export interface ChecklistEntry {
  pointId: string;
  content: string;
  context: string | null;
  position: number;
  status: 'pending' | 'recalled';
  confidence: number | null;
  turnRecalled: number | null;
  recalledAt: Date | null;
}

export type MessageRole = 'learner' | 'tutor' | 'tool_result';

export interface StoredMessage {
  id: string;
  sessionId: string;
  seq: number;
  role: MessageRole;
  content: string;
  toolCall: ToolCall | null;
  toolCallId: string | null;
  widgetAnswer: { widgetId: string; response: WidgetAnswer } | null;
  clientMessageId: string | null;
  answeredAt: Date | null;
  createdAt: Date;
}

export type NewMessage = Omit<StoredMessage, 'seq' | 'answeredAt'>;

export interface PendingActionRecord {
  id: string;
  sessionId: string;
  toolCallId: string;
  kind: WidgetKind;
  props: Record<string, unknown>;
  status: 'pending' | 'answered' | 'cancelled';
  createdAt: Date;
}

export interface StoredCard extends CardRecord {
  id: string;
}

export interface ReviewLogInput {
  cardId: string;
  sessionId: string;
  rating: RatingName;
  confidence: number | null;
  previous: CardRecord;
  reviewedAt: Date;
}

export interface SessionRepository {
  transaction<T>(work: () => T): T;
  getSession(sessionId: string): SessionRecord | null;
  updateSession(sessionId: string, changes: SessionChanges, now: Date): void;
  getChecklist(sessionId: string): ChecklistEntry[];
  markRecalled(sessionId: string, pointId: string, details: { confidence: number; observation: string; turn: number; at: Date }): void;
  listMessages(sessionId: string): StoredMessage[];
  findMessageByClientId(sessionId: string, clientMessageId: string): StoredMessage | null;
  /** The first learner message or widget answer still without a reply, in order. */
  findOldestUnanswered(sessionId: string): StoredMessage | null;
  appendMessage(message: NewMessage): StoredMessage;
  markAnswered(messageId: string, at: Date): void;
  getPendingAction(sessionId: string): PendingActionRecord | null;
  listActions(sessionId: string): PendingActionRecord[];
  createPendingAction(action: Omit<PendingActionRecord, 'status'>): void;
  resolvePendingAction(actionId: string, status: 'answered' | 'cancelled', response: WidgetAnswer | null, at: Date): void;
  getCard(learnerId: string, pointId: string): StoredCard | null;
  /** Inserts or updates the learner's card for a point; returns its id. */
  saveCard(learnerId: string, pointId: string, card: CardRecord): string;
  addReviewLog(log: ReviewLogInput, id: string): void;
  getDesiredRetention(learnerId: string): number;
}
