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
type SessionColumns = Pick<typeof sessions.$inferInsert, 'type' | 'typeState'>;

export function toStoredSession(row: SessionRow, sessionTypes: SessionTypeCatalog): StoredSession {
  const typeState = readTypeState(sessionTypes, row.id, row.typeState);
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
