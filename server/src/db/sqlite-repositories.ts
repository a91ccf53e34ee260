/**
 * SQLite repositories of learners, recall sets, cards, sessions and checklists (drizzle over
 * better-sqlite3). Synchronous underneath: each method runs to completion before it returns
 * its promise, inside the unit of work sqlite-storage.ts holds open on the connection.
 * Keys, foreign keys and cascades are the schema's; driver errors become StorageErrors there.
 */
import { and, asc, desc, eq, inArray, max, sql } from 'drizzle-orm';
import type { CardRepository, ReviewLogRecord } from '../core/storage/cards';
import type { ChecklistRepository } from '../core/storage/checklists';
import { defaultDesiredRetention, type LearnerRepository, type StoredLearner } from '../core/storage/learners';
import type { RecallSetRepository } from '../core/storage/recall-sets';
import { parseTypeState, type SessionTypeCatalog } from '../core/storage/session-type-state';
import type { SessionRepository, StoredSession } from '../core/storage/sessions';
import { StorageError } from '../core/storage/storage-error';
import type { Database } from './database';
import { cards, learners, recallPoints, recallSets, reviewLogs, sessionPoints, sessions } from './schema';
import { toStoredCard, toStoredSession, typeStateColumns } from './sqlite-rows';

function toLearner(row: typeof learners.$inferSelect): StoredLearner {
  return { id: row.id, username: row.username, passwordHash: row.passwordHash, desiredRetention: row.desiredRetention, tokenVersion: row.tokenVersion, createdAt: row.createdAt };
}

export function sqliteLearners(database: Database): LearnerRepository {
  const byKey = (username: string) => database.select().from(learners).where(eq(learners.usernameKey, username.toLowerCase())).get();
  const byId = database.select().from(learners).where(eq(learners.id, sql.placeholder('id'))).prepare();
  return {
    async get(learnerId) {
      const row = byId.get({ id: learnerId });
      return row ? toLearner(row) : null;
    },
    async findByUsername(username) {
      const row = byKey(username);
      return row ? toLearner(row) : null;
    },
    async create(learner) {
      // Checked first rather than caught: a constraint error would abort a PostgreSQL transaction.
      if (byKey(learner.username)) return { ok: false, error: 'username_taken' };
      const row = database
        .insert(learners)
        .values({
          id: learner.id,
          username: learner.username,
          usernameKey: learner.username.toLowerCase(),
          passwordHash: learner.passwordHash,
          desiredRetention: learner.desiredRetention ?? defaultDesiredRetention,
          createdAt: learner.createdAt,
        })
        .returning()
        .get();
      return { ok: true, value: toLearner(row) };
    },
    async update(learnerId, changes) {
      const set = {
        ...(changes.desiredRetention !== undefined ? { desiredRetention: changes.desiredRetention } : {}),
        ...(changes.passwordHash !== undefined ? { passwordHash: changes.passwordHash } : {}),
        ...(changes.tokenVersion !== undefined ? { tokenVersion: changes.tokenVersion } : {}),
      };
      const row =
        Object.keys(set).length === 0
          ? byId.get({ id: learnerId })
          : database.update(learners).set(set).where(eq(learners.id, learnerId)).returning().get();
      if (!row) throw new StorageError('not_found', `learner ${learnerId} does not exist`);
      return toLearner(row);
    },
    async delete(learnerId) {
      // Model call records point at learners and sessions without a foreign key: they go first, by hand.
      database.$client.prepare('DELETE FROM llm_calls WHERE learner_id = ? OR session_id IN (SELECT id FROM sessions WHERE learner_id = ?)').run(learnerId, learnerId);
      // Everything else of theirs hangs on the learner through ON DELETE CASCADE (schema.ts).
      return database.delete(learners).where(eq(learners.id, learnerId)).run().changes > 0;
    },
  };
}

export function sqliteRecallSets(database: Database): RecallSetRepository {
  return {
    async get(setId) {
      return database.select().from(recallSets).where(eq(recallSets.id, setId)).get() ?? null;
    },
    async listByLearner(learnerId) {
      return database.select().from(recallSets).where(eq(recallSets.learnerId, learnerId)).orderBy(desc(recallSets.updatedAt), asc(recallSets.id)).all();
    },
    async listPoints(setId) {
      return database.select().from(recallPoints).where(eq(recallPoints.recallSetId, setId)).orderBy(asc(recallPoints.position), asc(recallPoints.id)).all();
    },
    async listPointsOfSets(setIds) {
      if (setIds.length === 0) return [];
      return database
        .select()
        .from(recallPoints)
        .where(inArray(recallPoints.recallSetId, [...setIds]))
        .orderBy(asc(recallPoints.recallSetId), asc(recallPoints.position), asc(recallPoints.id))
        .all();
    },
    async create(set) {
      return database.insert(recallSets).values({ ...set, updatedAt: set.createdAt }).returning().get();
    },
    async update(setId, changes, now) {
      const row = database
        .update(recallSets)
        .set({
          ...(changes.name !== undefined ? { name: changes.name } : {}),
          ...(changes.description !== undefined ? { description: changes.description } : {}),
          updatedAt: now,
        })
        .where(eq(recallSets.id, setId))
        .returning()
        .get();
      if (!row) throw new StorageError('not_found', `recall set ${setId} does not exist`);
      return row;
    },
    async delete(setId) {
      // Points, their checklist entries, cards and review logs go by ON DELETE CASCADE; sessions by SET NULL.
      return database.delete(recallSets).where(eq(recallSets.id, setId)).run().changes > 0;
    },
    async addPoint(point) {
      database.insert(recallPoints).values(point).run();
    },
    async updatePoint(pointId, changes) {
      const result = database.update(recallPoints).set(changes).where(eq(recallPoints.id, pointId)).run();
      if (result.changes === 0) throw new StorageError('not_found', `recall point ${pointId} does not exist`);
    },
    async deletePoints(pointIds) {
      if (pointIds.length > 0) database.delete(recallPoints).where(inArray(recallPoints.id, [...pointIds])).run();
    },
  };
}

function toReviewLog(row: typeof reviewLogs.$inferSelect): ReviewLogRecord {
  return {
    id: row.id,
    cardId: row.cardId,
    sessionId: row.sessionId,
    rating: row.rating as ReviewLogRecord['rating'],
    confidence: row.confidence,
    previous: { state: row.state as ReviewLogRecord['previous']['state'], due: row.due, stability: row.stability, difficulty: row.difficulty, scheduledDays: row.scheduledDays },
    reviewedAt: row.reviewedAt,
  };
}

export function sqliteCards(database: Database): CardRepository {
  const byPoint = database
    .select()
    .from(cards)
    .where(and(eq(cards.learnerId, sql.placeholder('learnerId')), eq(cards.pointId, sql.placeholder('pointId'))))
    .prepare();
  const find = (learnerId: string, pointId: string) => byPoint.get({ learnerId, pointId });
  // The point ids travel as one JSON array, so the statement is prepared once for any number of them.
  const byPoints = database
    .select()
    .from(cards)
    .where(and(eq(cards.learnerId, sql.placeholder('learnerId')), sql`${cards.pointId} IN (SELECT value FROM json_each(${sql.placeholder('pointIds')}))`))
    .prepare();
  return {
    async get(learnerId, pointId) {
      const row = find(learnerId, pointId);
      return row ? toStoredCard(row) : null;
    },
    async listFor(learnerId, pointIds) {
      if (pointIds.length === 0) return new Map();
      const rows = byPoints.all({ learnerId, pointIds: JSON.stringify(pointIds) });
      return new Map(rows.map((row) => [row.pointId, toStoredCard(row)]));
    },
    async listReviewLogs(cardId) {
      const rows = database.select().from(reviewLogs).where(eq(reviewLogs.cardId, cardId)).orderBy(asc(reviewLogs.reviewedAt), asc(reviewLogs.id)).all();
      return rows.map(toReviewLog);
    },
    async listReviewLogsByLearner(learnerId) {
      const rows = database
        .select({ log: reviewLogs, pointId: cards.pointId })
        .from(reviewLogs)
        .innerJoin(cards, eq(cards.id, reviewLogs.cardId))
        .where(eq(cards.learnerId, learnerId))
        .orderBy(asc(reviewLogs.reviewedAt), asc(reviewLogs.id))
        .all();
      return rows.map((row) => ({ ...toReviewLog(row.log), pointId: row.pointId }));
    },
    async save(write) {
      const { card } = write;
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
      const existing = find(write.learnerId, write.pointId);
      if (existing) {
        database.update(cards).set(values).where(eq(cards.id, existing.id)).run();
        return existing.id;
      }
      database.insert(cards).values({ id: write.newId, learnerId: write.learnerId, pointId: write.pointId, ...values }).run();
      return write.newId;
    },
    async addReviewLog(id, log) {
      database
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
    },
  };
}

export function sqliteSessions(database: Database, sessionTypes: SessionTypeCatalog): SessionRepository {
  const bySession = database.select().from(sessions).where(eq(sessions.id, sql.placeholder('id'))).prepare();
  // Every turn updates its session: prepared once, the record returned built from what was written.
  const updateSession = database.$client.prepare(
    'UPDATE sessions SET status = ?, title = ?, turn = ?, end_reason = ?, ended_at = ?, type = ?, type_state = ?, updated_at = ? WHERE id = ?',
  );
  return {
    async get(sessionId) {
      const row = bySession.get({ id: sessionId });
      return row ? toStoredSession(row, sessionTypes) : null;
    },
    async listByLearner(learnerId) {
      return database.select().from(sessions).where(eq(sessions.learnerId, learnerId)).orderBy(desc(sessions.createdAt), asc(sessions.id)).all().map((row) => toStoredSession(row, sessionTypes));
    },
    async create(session) {
      const typeState = parseTypeState(sessionTypes, session.typeState);
      const row = database
        .insert(sessions)
        .values({
          id: session.id,
          learnerId: session.learnerId,
          status: session.status ?? 'pending',
          title: session.title,
          recallSetId: session.recallSetId,
          ...typeStateColumns(typeState),
          turn: 0,
          createdAt: session.createdAt,
          updatedAt: session.createdAt,
        })
        .returning()
        .get();
      return toStoredSession(row, sessionTypes);
    },
    async update(sessionId, changes, now) {
      const row = bySession.get({ id: sessionId });
      if (!row) throw new StorageError('not_found', `session ${sessionId} does not exist`);
      const current = toStoredSession(row, sessionTypes);
      const typeState = changes.typeState === undefined ? current.typeState : parseTypeState(sessionTypes, changes.typeState);
      if (typeState.type !== current.type) {
        throw new StorageError('invalid_value', `session ${sessionId} is a ${current.type} session; a ${typeState.type} state does not fit it`);
      }
      const next = {
        ...current,
        status: changes.status ?? current.status,
        title: changes.title ?? current.title,
        turn: changes.turn ?? current.turn,
        endReason: changes.endReason !== undefined ? changes.endReason : current.endReason,
        endedAt: changes.endedAt !== undefined ? (changes.endedAt === null ? null : new Date(changes.endedAt.getTime())) : current.endedAt,
        typeState,
        updatedAt: new Date(now.getTime()),
      } as StoredSession;
      updateSession.run(next.status, next.title, next.turn, next.endReason, next.endedAt?.getTime() ?? null, typeState.type, JSON.stringify(typeState), next.updatedAt.getTime(), sessionId);
      return next;
    },
    async delete(sessionId) {
      // Checklist, messages, actions, items, responses, estimates and agent logs go by ON DELETE CASCADE.
      return database.delete(sessions).where(eq(sessions.id, sessionId)).run().changes > 0;
    },
  };
}

export function sqliteChecklists(database: Database): ChecklistRepository {
  const list = database
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
    .where(eq(sessionPoints.sessionId, sql.placeholder('sessionId')))
    .orderBy(asc(sessionPoints.position), asc(sessionPoints.pointId))
    .prepare();
  return {
    async list(sessionId) {
      return list.all({ sessionId }).map((row) => ({ ...row, status: row.status as 'pending' | 'recalled' }));
    },
    async add(sessionId, pointIds) {
      const last = database.select({ position: max(sessionPoints.position) }).from(sessionPoints).where(eq(sessionPoints.sessionId, sessionId)).get();
      const start = last?.position === null || last?.position === undefined ? 0 : last.position + 1;
      for (const [offset, pointId] of pointIds.entries()) {
        database.insert(sessionPoints).values({ sessionId, pointId, position: start + offset }).run();
      }
    },
    async markRecalled(sessionId, pointId, mark) {
      const result = database
        .update(sessionPoints)
        .set({ status: 'recalled', confidence: mark.confidence, observation: mark.observation, turnRecalled: mark.turn, recalledAt: mark.at })
        .where(and(eq(sessionPoints.sessionId, sessionId), eq(sessionPoints.pointId, pointId), eq(sessionPoints.status, 'pending')))
        .run();
      return result.changes > 0;
    },
  };
}
