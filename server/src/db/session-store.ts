/** The SQLite adapter of the session engine's repository port. */
import { and, asc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { WidgetAnswer, WidgetKind } from '@tutorloop/shared';
import type { CardRecord } from '../core/scheduling/fsrs';
import type {
  ChecklistEntry,
  PendingActionRecord,
  ReviewLogInput,
  SessionChanges,
  SessionRecord,
  SessionRepository,
  StoredCard,
  StoredMessage,
} from '../core/session/session-repository';
import type { Database } from './database';
import { cards, learners, messages, pendingActions, recallPoints, reviewLogs, sessionPoints, sessions } from './schema';

type SessionRow = typeof sessions.$inferSelect;
type MessageRow = typeof messages.$inferSelect;
type CardRow = typeof cards.$inferSelect;
type ActionRow = typeof pendingActions.$inferSelect;

export function toSessionRecord(row: SessionRow): SessionRecord {
  return {
    id: row.id,
    learnerId: row.learnerId,
    type: row.type as SessionRecord['type'],
    status: row.status as SessionRecord['status'],
    mode: row.mode as SessionRecord['mode'],
    rabbitholeTopic: row.rabbitholeTopic,
    recallSetId: row.recallSetId,
    title: row.title,
    turn: row.turn,
    probeIndex: row.probeIndex,
    probeAttempts: row.probeAttempts,
    endReason: row.endReason,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    endedAt: row.endedAt,
  };
}

function toMessage(row: MessageRow): StoredMessage {
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
  };
}

export function toCardRecord(row: CardRow): StoredCard {
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
    state: row.state as CardRecord['state'],
    lastReview: row.lastReview,
  };
}

function toAction(row: ActionRow): PendingActionRecord {
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

/**
 * The queries a turn runs several times, prepared once: building a drizzle query and
 * compiling its statement cost more CPU per turn than running it (measured by `pnpm bench`).
 */
function prepareQueries(database: Database) {
  const id = sql.placeholder('id');
  const sessionId = sql.placeholder('sessionId');
  return {
    session: database.select().from(sessions).where(eq(sessions.id, id)).prepare(),
    checklist: database
      .select({
        pointId: sessionPoints.pointId,
        content: recallPoints.content,
        context: recallPoints.context,
        position: sessionPoints.position,
        status: sessionPoints.status,
        confidence: sessionPoints.confidence,
        turnRecalled: sessionPoints.turnRecalled,
        recalledAt: sessionPoints.recalledAt,
      })
      .from(sessionPoints)
      .innerJoin(recallPoints, eq(recallPoints.id, sessionPoints.pointId))
      .where(eq(sessionPoints.sessionId, sessionId))
      .orderBy(asc(sessionPoints.position))
      .prepare(),
    messages: database.select().from(messages).where(eq(messages.sessionId, sessionId)).orderBy(asc(messages.seq)).prepare(),
    messageByClientId: database
      .select()
      .from(messages)
      .where(and(eq(messages.sessionId, sessionId), eq(messages.clientMessageId, sql.placeholder('clientMessageId'))))
      .prepare(),
    oldestUnanswered: database
      .select()
      .from(messages)
      .where(and(eq(messages.sessionId, sessionId), ne(messages.role, 'tutor'), isNull(messages.answeredAt)))
      .orderBy(asc(messages.seq))
      .limit(1)
      .prepare(),
    pendingAction: database
      .select()
      .from(pendingActions)
      .where(and(eq(pendingActions.sessionId, sessionId), eq(pendingActions.status, 'pending')))
      .prepare(),
    card: database
      .select()
      .from(cards)
      .where(and(eq(cards.learnerId, sql.placeholder('learnerId')), eq(cards.pointId, sql.placeholder('pointId'))))
      .prepare(),
    retention: database.select({ value: learners.desiredRetention }).from(learners).where(eq(learners.id, id)).prepare(),
    nextSeq: database.$client.prepare('SELECT COALESCE(MAX(seq), 0) + 1 AS seq FROM messages WHERE session_id = ?'),
  };
}

export class SqliteSessionRepository implements SessionRepository {
  private readonly queries: ReturnType<typeof prepareQueries>;

  constructor(private readonly database: Database) {
    this.queries = prepareQueries(database);
  }

  transaction<T>(work: () => T): T {
    return this.database.$client.transaction(work)();
  }

  getSession(sessionId: string): SessionRecord | null {
    const row = this.queries.session.get({ id: sessionId });
    return row ? toSessionRecord(row) : null;
  }

  updateSession(sessionId: string, changes: SessionChanges, now: Date): void {
    this.database
      .update(sessions)
      .set({ ...changes, updatedAt: now })
      .where(eq(sessions.id, sessionId))
      .run();
  }

  getChecklist(sessionId: string): ChecklistEntry[] {
    return this.queries.checklist.all({ sessionId }).map((row) => ({ ...row, status: row.status as ChecklistEntry['status'] }));
  }

  markRecalled(sessionId: string, pointId: string, details: { confidence: number; observation: string; turn: number; at: Date }): void {
    this.database
      .update(sessionPoints)
      .set({
        status: 'recalled',
        confidence: details.confidence,
        observation: details.observation,
        turnRecalled: details.turn,
        recalledAt: details.at,
      })
      .where(and(eq(sessionPoints.sessionId, sessionId), eq(sessionPoints.pointId, pointId), eq(sessionPoints.status, 'pending')))
      .run();
  }

  listMessages(sessionId: string): StoredMessage[] {
    return this.queries.messages.all({ sessionId }).map(toMessage);
  }

  findMessageByClientId(sessionId: string, clientMessageId: string): StoredMessage | null {
    const row = this.queries.messageByClientId.get({ sessionId, clientMessageId });
    return row ? toMessage(row) : null;
  }

  findOldestUnanswered(sessionId: string): StoredMessage | null {
    const row = this.queries.oldestUnanswered.get({ sessionId });
    return row ? toMessage(row) : null;
  }

  appendMessage(message: Omit<StoredMessage, 'seq' | 'answeredAt'>): StoredMessage {
    const { seq } = this.queries.nextSeq.get(message.sessionId) as { seq: number };
    const row = this.database
      .insert(messages)
      .values({
        id: message.id,
        sessionId: message.sessionId,
        seq,
        role: message.role,
        content: message.content,
        toolCall: message.toolCall,
        toolCallId: message.toolCallId,
        widgetAnswer: message.widgetAnswer,
        clientMessageId: message.clientMessageId,
        createdAt: message.createdAt,
      })
      .returning()
      .get();
    return toMessage(row);
  }

  markAnswered(messageId: string, at: Date): void {
    this.database.update(messages).set({ answeredAt: at }).where(eq(messages.id, messageId)).run();
  }

  getPendingAction(sessionId: string): PendingActionRecord | null {
    const row = this.queries.pendingAction.get({ sessionId });
    return row ? toAction(row) : null;
  }

  listActions(sessionId: string): PendingActionRecord[] {
    return this.database
      .select()
      .from(pendingActions)
      .where(eq(pendingActions.sessionId, sessionId))
      .orderBy(asc(pendingActions.createdAt))
      .all()
      .map(toAction);
  }

  createPendingAction(action: Omit<PendingActionRecord, 'status'>): void {
    this.database.insert(pendingActions).values({ ...action, status: 'pending' }).run();
  }

  resolvePendingAction(actionId: string, status: 'answered' | 'cancelled', response: WidgetAnswer | null, at: Date): void {
    this.database.update(pendingActions).set({ status, response, answeredAt: at }).where(eq(pendingActions.id, actionId)).run();
  }

  getCard(learnerId: string, pointId: string): StoredCard | null {
    const row = this.queries.card.get({ learnerId, pointId });
    return row ? toCardRecord(row) : null;
  }

  saveCard(learnerId: string, pointId: string, card: CardRecord): string {
    const existing = this.getCard(learnerId, pointId);
    const values = {
      due: card.due,
      stability: card.stability,
      difficulty: card.difficulty,
      elapsedDays: card.elapsedDays,
      scheduledDays: card.scheduledDays,
      learningSteps: card.learningSteps,
      reps: card.reps,
      lapses: card.lapses,
      state: card.state,
      lastReview: card.lastReview,
    };
    if (existing) {
      this.database.update(cards).set(values).where(eq(cards.id, existing.id)).run();
      return existing.id;
    }
    const id = crypto.randomUUID();
    this.database.insert(cards).values({ id, learnerId, pointId, ...values }).run();
    return id;
  }

  addReviewLog(log: ReviewLogInput, id: string): void {
    this.database
      .insert(reviewLogs)
      .values({
        id,
        cardId: log.cardId,
        sessionId: log.sessionId,
        rating: log.rating,
        confidence: log.confidence,
        state: log.previous.state,
        due: log.previous.due,
        stability: log.previous.stability,
        difficulty: log.previous.difficulty,
        scheduledDays: log.previous.scheduledDays,
        reviewedAt: log.reviewedAt,
      })
      .run();
  }

  getDesiredRetention(learnerId: string): number {
    const row = this.queries.retention.get({ id: learnerId });
    return row?.value ?? 0.9;
  }

  /** Cards of a learner for a set of points (used by the sets list and the schedule view). */
  cardsFor(learnerId: string, pointIds: string[]): Map<string, StoredCard> {
    if (pointIds.length === 0) return new Map();
    const rows = this.database
      .select()
      .from(cards)
      .where(and(eq(cards.learnerId, learnerId), inArray(cards.pointId, pointIds)))
      .all();
    return new Map(rows.map((row) => [row.pointId, toCardRecord(row)]));
  }
}
