/**
 * Rows of the SQLite schema ↔ records of the storage port. The session's type state is the
 * `type_state` JSON column (migration 0003 filled it on rows written before it existed).
 */
import type { WidgetAnswer, WidgetKind } from '@tutorloop/shared';
import type { GeneratedItem } from '../core/assessment/item-builder';
import type { StoredItem } from '../core/storage/assessments';
import type { StoredCard } from '../core/storage/cards';
import type { StoredMessage } from '../core/storage/messages';
import type { PendingActionRecord } from '../core/storage/pending-actions';
import { readTypeState, type SessionTypeCatalog, type SessionTypeState } from '../core/storage/session-type-state';
import type { StoredSession } from '../core/storage/sessions';
import { StorageError } from '../core/storage/storage-error';
import type { assessmentItems, cards, messages, pendingActions, sessions } from './schema';

type SessionRow = typeof sessions.$inferSelect;
type MessageRow = typeof messages.$inferSelect;
type SessionColumns = Pick<typeof sessions.$inferInsert, 'type' | 'typeState'>;

/** `validated`: the row's type state is known to parse (it is the text of a state this adapter validated and wrote). */
export function toStoredSession(row: SessionRow, sessionTypes: SessionTypeCatalog, validated = false): StoredSession {
  const typeState = validated ? (row.typeState as unknown as SessionTypeState) : readTypeState(sessionTypes, row.id, row.typeState);
  if (typeState.type !== row.type) throw new StorageError('corrupt', `session ${row.id}: a ${row.type} session holds a ${typeState.type} state`);
  return {
    id: row.id,
    learnerId: row.learnerId,
    type: typeState.type,
    status: row.status as StoredSession['status'],
    title: row.title,
    recallSetId: row.recallSetId,
    turn: row.turn,
    endReason: row.endReason,
    typeState,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    endedAt: row.endedAt,
  } as StoredSession;
}

/** The columns a type state is written to. */
export function typeStateColumns(typeState: SessionTypeState): SessionColumns {
  return { type: typeState.type, typeState: typeState as unknown as Record<string, unknown> };
}

export function toStoredCard(row: typeof cards.$inferSelect): StoredCard {
  return {
    id: row.id,
    due: row.due,
    stability: row.stability,
    difficulty: row.difficulty,
    elapsedDays: row.elapsedDays,
    scheduledDays: row.scheduledDays,
    learningSteps: row.learningSteps,
    reps: row.reps,
    lapses: row.lapses,
    state: row.state as StoredCard['state'],
    lastReview: row.lastReview,
  };
}

export function toStoredMessage(row: typeof messages.$inferSelect): StoredMessage {
  return {
    id: row.id,
    sessionId: row.sessionId,
    seq: row.seq,
    role: row.role as StoredMessage['role'],
    content: row.content,
    toolCall: row.toolCall ?? null,
    toolCallId: row.toolCallId,
    widgetAnswer: (row.widgetAnswer as { widgetId: string; response: WidgetAnswer } | null) ?? null,
    clientMessageId: row.clientMessageId,
    answeredAt: row.answeredAt,
    createdAt: row.createdAt,
    stopped: row.stopped,
    supersededBy: row.supersededBy,
  };
}

export function toPendingAction(row: typeof pendingActions.$inferSelect): PendingActionRecord {
  return {
    id: row.id,
    sessionId: row.sessionId,
    toolCallId: row.toolCallId,
    kind: row.kind as WidgetKind,
    props: row.props,
    status: row.status as PendingActionRecord['status'],
    createdAt: row.createdAt,
  };
}

/*
 * The rows of a turn's hot reads, as raw better-sqlite3 statements return them (snake_case
 * columns, timestamps as ms, JSON as text, booleans as 0/1): drizzle's mapping of every field
 * of every row was a tenth of a turn's CPU in the benchmark's profile. Same records as above.
 */

const dateOrNull = (ms: number | null): Date | null => (ms === null ? null : new Date(ms));
const jsonOrNull = (text: string | null): unknown => (text === null ? null : JSON.parse(text));

/** Every column of `messages`, in the order of `MessageColumns`. */
export const messageColumnList = 'id, session_id, seq, role, content, tool_call, tool_call_id, widget_answer, client_message_id, answered_at, stopped, superseded_by, created_at';

export interface MessageColumns {
  id: string;
  session_id: string;
  seq: number;
  role: string;
  content: string;
  tool_call: string | null;
  tool_call_id: string | null;
  widget_answer: string | null;
  client_message_id: string | null;
  answered_at: number | null;
  stopped: number;
  superseded_by: string | null;
  created_at: number;
}

/** A raw statement's message row in drizzle's shape, so `toStoredMessage` stays the one mapping to StoredMessage (as `sessionRowFromColumns` does for sessions). */
export function messageFromColumns(row: MessageColumns): StoredMessage {
  return toStoredMessage({
    id: row.id,
    sessionId: row.session_id,
    seq: row.seq,
    role: row.role,
    content: row.content,
    toolCall: jsonOrNull(row.tool_call) as MessageRow['toolCall'],
    toolCallId: row.tool_call_id,
    widgetAnswer: jsonOrNull(row.widget_answer) as MessageRow['widgetAnswer'],
    clientMessageId: row.client_message_id,
    answeredAt: dateOrNull(row.answered_at),
    createdAt: new Date(row.created_at),
    stopped: row.stopped === 1,
    supersededBy: row.superseded_by,
  });
}

export interface SessionColumnsRow {
  id: string;
  learner_id: string;
  type: string;
  status: string;
  recall_set_id: string | null;
  title: string;
  type_state: string | null;
  turn: number;
  end_reason: string | null;
  created_at: number;
  updated_at: number;
  ended_at: number | null;
}

export function sessionRowFromColumns(row: SessionColumnsRow): SessionRow {
  return {
    id: row.id,
    learnerId: row.learner_id,
    type: row.type,
    status: row.status,
    recallSetId: row.recall_set_id,
    title: row.title,
    typeState: jsonOrNull(row.type_state) as SessionRow['typeState'],
    turn: row.turn,
    endReason: row.end_reason,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    endedAt: dateOrNull(row.ended_at),
  };
}

export interface PendingActionColumns {
  id: string;
  session_id: string;
  tool_call_id: string;
  kind: string;
  props: string;
  status: string;
  created_at: number;
}

export function pendingActionFromColumns(row: PendingActionColumns): PendingActionRecord {
  return {
    id: row.id,
    sessionId: row.session_id,
    toolCallId: row.tool_call_id,
    kind: row.kind as WidgetKind,
    props: JSON.parse(row.props) as PendingActionRecord['props'],
    status: row.status as PendingActionRecord['status'],
    createdAt: new Date(row.created_at),
  };
}

export interface CardColumns {
  id: string;
  point_id: string;
  due: number;
  stability: number;
  difficulty: number;
  elapsed_days: number;
  scheduled_days: number;
  learning_steps: number;
  reps: number;
  lapses: number;
  state: string;
  last_review: number | null;
}

export function cardFromColumns(row: CardColumns): StoredCard {
  return {
    id: row.id,
    due: new Date(row.due),
    stability: row.stability,
    difficulty: row.difficulty,
    elapsedDays: row.elapsed_days,
    scheduledDays: row.scheduled_days,
    learningSteps: row.learning_steps,
    reps: row.reps,
    lapses: row.lapses,
    state: row.state as StoredCard['state'],
    lastReview: dateOrNull(row.last_review),
  };
}

type ItemRow = typeof assessmentItems.$inferSelect;

export function toStoredItem(row: ItemRow): StoredItem {
  // Optional fields absent from an item stay absent (not undefined, not null) when read back.
  const item: GeneratedItem = {
    skillId: row.skillId,
    domain: row.domain,
    sectionId: row.sectionId,
    kind: row.kind as GeneratedItem['kind'],
    stem: row.stem,
    ...(row.options ? { options: row.options } : {}),
    ...(row.correctIndex !== null ? { correctIndex: row.correctIndex } : {}),
    correctAnswer: row.correctAnswer,
    ...(row.code ? { code: row.code as unknown as NonNullable<GeneratedItem['code']> } : {}),
    difficulty: row.difficulty,
    level: row.level as GeneratedItem['level'],
    params: row.params,
    fingerprint: row.fingerprint,
  };
  return { id: row.id, sessionId: row.sessionId, position: row.position, item, widgetId: row.widgetId, presentedAt: row.presentedAt };
}

export function itemColumns(stored: StoredItem): typeof assessmentItems.$inferInsert {
  const { item } = stored;
  return {
    id: stored.id,
    sessionId: stored.sessionId,
    position: stored.position,
    sectionId: item.sectionId,
    skillId: item.skillId,
    domain: item.domain,
    kind: item.kind,
    stem: item.stem,
    options: item.options ?? null,
    correctIndex: item.correctIndex ?? null,
    correctAnswer: item.correctAnswer,
    code: (item.code as unknown as Record<string, unknown> | undefined) ?? null,
    difficulty: item.difficulty,
    level: item.level,
    params: item.params,
    fingerprint: item.fingerprint,
    widgetId: stored.widgetId,
    presentedAt: stored.presentedAt,
  };
}
