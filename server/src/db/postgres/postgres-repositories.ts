/**
 * PostgreSQL repositories of learners, recall sets, cards, sessions and checklists (drizzle
 * over node-postgres), built per unit of work on that unit's pooled client. Units run
 * concurrently here, so what the SQLite adapter gets from running one unit at a time is taken
 * from the engine: row locks (`FOR UPDATE`) before a read-modify-write, `ON CONFLICT` where a
 * failed statement would abort the transaction. Mirrors sqlite-repositories.ts method by method.
 */
import { and, asc, desc, eq, inArray, max, sql } from 'drizzle-orm';
import type { CardRepository, ReviewLogRecord } from '../../core/storage/cards';
import type { ChecklistRepository } from '../../core/storage/checklists';
import { defaultDesiredRetention, type LearnerRepository, type StoredLearner } from '../../core/storage/learners';
import type { RecallSetRepository } from '../../core/storage/recall-sets';
import { parseTypeState, type SessionTypeCatalog } from '../../core/storage/session-type-state';
import type { SessionRepository, StoredSession } from '../../core/storage/sessions';
import { StorageError } from '../../core/storage/storage-error';
import { toStoredCard, toStoredSession } from '../sqlite-rows';
import type { PostgresDatabase } from './postgres-database';
import { cards, learners, recallPoints, recallSets, reviewLogs, sessionPoints, sessions } from './schema';

/**
 * Locks a session's row until the unit ends: whatever numbers or guards the session's children
 * (message and agent log seqs, the checklist's positions, the one pending action) is then
 * decided by one unit at a time. An unknown session locks nothing; the insert that follows
 * fails on its foreign key (`missing_reference`), as on SQLite.
 */
export async function lockSession(database: PostgresDatabase, sessionId: string): Promise<void> {
  await database.select({ id: sessions.id }).from(sessions).where(eq(sessions.id, sessionId)).for('update');
}

function toLearner(row: typeof learners.$inferSelect): StoredLearner {
  return { id: row.id, username: row.username, passwordHash: row.passwordHash, desiredRetention: row.desiredRetention, tokenVersion: row.tokenVersion, createdAt: row.createdAt };
}

export function postgresLearners(database: PostgresDatabase): LearnerRepository {
  const byId = async (learnerId: string) => (await database.select().from(learners).where(eq(learners.id, learnerId)))[0];
  return {
    async get(learnerId) {
      const row = await byId(learnerId);
      return row ? toLearner(row) : null;
    },
    async findByUsername(username) {
      const [row] = await database.select().from(learners).where(eq(learners.usernameKey, username.toLowerCase()));
      return row ? toLearner(row) : null;
    },
    async create(learner) {
      // ON CONFLICT rather than a failed insert (which would abort the transaction, U5); it also
      // settles two sign-ups racing for one name: the second waits for the first, then skips.
      const [row] = await database
        .insert(learners)
        .values({
          id: learner.id,
          username: learner.username,
          usernameKey: learner.username.toLowerCase(),
          passwordHash: learner.passwordHash,
          desiredRetention: learner.desiredRetention ?? defaultDesiredRetention,
          createdAt: learner.createdAt,
        })
        .onConflictDoNothing({ target: learners.usernameKey })
        .returning();
      return row ? { ok: true, value: toLearner(row) } : { ok: false, error: 'username_taken' };
    },
    async update(learnerId, changes) {
      const set = {
        ...(changes.desiredRetention !== undefined ? { desiredRetention: changes.desiredRetention } : {}),
        ...(changes.passwordHash !== undefined ? { passwordHash: changes.passwordHash } : {}),
        ...(changes.tokenVersion !== undefined ? { tokenVersion: changes.tokenVersion } : {}),
      };
      const row = Object.keys(set).length === 0 ? await byId(learnerId) : (await database.update(learners).set(set).where(eq(learners.id, learnerId)).returning())[0];
      if (!row) throw new StorageError('not_found', `learner ${learnerId} does not exist`);
      return toLearner(row);
    },
    async delete(learnerId) {
      // Model call records point at learners and sessions without a foreign key: they go first, by hand.
      await database.execute(sql`DELETE FROM llm_calls WHERE learner_id = ${learnerId} OR session_id IN (SELECT id FROM sessions WHERE learner_id = ${learnerId})`);
      return (await database.delete(learners).where(eq(learners.id, learnerId)).returning({ id: learners.id })).length > 0;
    },
  };
}

export function postgresRecallSets(database: PostgresDatabase): RecallSetRepository {
  return {
    async get(setId) {
      return (await database.select().from(recallSets).where(eq(recallSets.id, setId)))[0] ?? null;
    },
    async listByLearner(learnerId) {
      return database.select().from(recallSets).where(eq(recallSets.learnerId, learnerId)).orderBy(desc(recallSets.updatedAt), asc(recallSets.id));
    },
    async listPoints(setId) {
      return database.select().from(recallPoints).where(eq(recallPoints.recallSetId, setId)).orderBy(asc(recallPoints.position), asc(recallPoints.id));
    },
    async listPointsOfSets(setIds) {
      if (setIds.length === 0) return [];
      return database
        .select()
        .from(recallPoints)
        .where(inArray(recallPoints.recallSetId, [...setIds]))
        .orderBy(asc(recallPoints.recallSetId), asc(recallPoints.position), asc(recallPoints.id));
    },
    async create(set) {
      return (await database.insert(recallSets).values({ ...set, updatedAt: set.createdAt }).returning())[0]!;
    },
    async update(setId, changes, now) {
      const [row] = await database
        .update(recallSets)
        .set({
          ...(changes.name !== undefined ? { name: changes.name } : {}),
          ...(changes.description !== undefined ? { description: changes.description } : {}),
          updatedAt: now,
        })
        .where(eq(recallSets.id, setId))
        .returning();
      if (!row) throw new StorageError('not_found', `recall set ${setId} does not exist`);
      return row;
    },
    async delete(setId) {
      // Points, their checklist entries, cards and review logs go by ON DELETE CASCADE; sessions by SET NULL.
      return (await database.delete(recallSets).where(eq(recallSets.id, setId)).returning({ id: recallSets.id })).length > 0;
    },
    async addPoint(point) {
      await database.insert(recallPoints).values(point);
    },
    async updatePoint(pointId, changes) {
      const rows = await database.update(recallPoints).set(changes).where(eq(recallPoints.id, pointId)).returning({ id: recallPoints.id });
      if (rows.length === 0) throw new StorageError('not_found', `recall point ${pointId} does not exist`);
    },
    async deletePoints(pointIds) {
      if (pointIds.length > 0) await database.delete(recallPoints).where(inArray(recallPoints.id, [...pointIds]));
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

export function postgresCards(database: PostgresDatabase): CardRepository {
  return {
    async get(learnerId, pointId) {
      const [row] = await database
        .select()
        .from(cards)
        .where(and(eq(cards.learnerId, learnerId), eq(cards.pointId, pointId)));
      return row ? toStoredCard(row) : null;
    },
    async listFor(learnerId, pointIds) {
      if (pointIds.length === 0) return new Map();
      // One array parameter, however many points (a long IN list would run into the bind limit).
      const rows = await database
        .select()
        .from(cards)
        .where(and(eq(cards.learnerId, learnerId), sql`${cards.pointId} = ANY(${sql.param([...pointIds])}::text[])`));
      return new Map(rows.map((row) => [row.pointId, toStoredCard(row)]));
    },
    async listReviewLogs(cardId) {
      const rows = await database.select().from(reviewLogs).where(eq(reviewLogs.cardId, cardId)).orderBy(asc(reviewLogs.reviewedAt), asc(reviewLogs.id));
      return rows.map(toReviewLog);
    },
    async listReviewLogsByLearner(learnerId) {
      const rows = await database
        .select({ log: reviewLogs, pointId: cards.pointId })
        .from(reviewLogs)
        .innerJoin(cards, eq(cards.id, reviewLogs.cardId))
        .where(eq(cards.learnerId, learnerId))
        .orderBy(asc(reviewLogs.reviewedAt), asc(reviewLogs.id));
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
      // One statement: two units saving the same new card cannot both insert it.
      const [row] = await database
        .insert(cards)
        .values({ id: write.newId, learnerId: write.learnerId, pointId: write.pointId, ...values })
        .onConflictDoUpdate({ target: [cards.learnerId, cards.pointId], set: values })
        .returning({ id: cards.id });
      return row!.id;
    },
    async addReviewLog(id, log) {
      await database.insert(reviewLogs).values({
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
      });
    },
  };
}

export function postgresSessions(database: PostgresDatabase, sessionTypes: SessionTypeCatalog): SessionRepository {
  return {
    async get(sessionId) {
      const [row] = await database.select().from(sessions).where(eq(sessions.id, sessionId));
      return row ? toStoredSession(row, sessionTypes) : null;
    },
    async listByLearner(learnerId) {
      const rows = await database.select().from(sessions).where(eq(sessions.learnerId, learnerId)).orderBy(desc(sessions.createdAt), asc(sessions.id));
      return rows.map((row) => toStoredSession(row, sessionTypes));
    },
    async create(session) {
      const typeState = parseTypeState(sessionTypes, session.typeState);
      const [row] = await database
        .insert(sessions)
        .values({
          id: session.id,
          learnerId: session.learnerId,
          status: session.status ?? 'pending',
          title: session.title,
          recallSetId: session.recallSetId,
          type: typeState.type,
          typeState: typeState as unknown as Record<string, unknown>,
          turn: 0,
          createdAt: session.createdAt,
          updatedAt: session.createdAt,
        })
        .returning();
      return toStoredSession(row!, sessionTypes);
    },
    async update(sessionId, changes, now) {
      // One statement: only the changed columns are set, so a concurrent update waits for the
      // row's lock and this one then applies over its result (what the read FOR UPDATE and the
      // write did in two round trips); a state of another type matches no row.
      const typeState = changes.typeState === undefined ? undefined : parseTypeState(sessionTypes, changes.typeState);
      const [row] = await database
        .update(sessions)
        .set({
          ...(changes.status != null ? { status: changes.status } : {}),
          ...(changes.title != null ? { title: changes.title } : {}),
          ...(changes.turn != null ? { turn: changes.turn } : {}),
          ...(changes.endReason !== undefined ? { endReason: changes.endReason } : {}),
          ...(changes.endedAt !== undefined ? { endedAt: changes.endedAt === null ? null : new Date(changes.endedAt.getTime()) } : {}),
          ...(typeState ? { type: typeState.type, typeState: typeState as unknown as Record<string, unknown> } : {}),
          updatedAt: new Date(now.getTime()),
        })
        .where(typeState ? and(eq(sessions.id, sessionId), eq(sessions.type, typeState.type)) : eq(sessions.id, sessionId))
        .returning();
      if (row) return toStoredSession(row, sessionTypes);
      const [current] = await database.select({ type: sessions.type }).from(sessions).where(eq(sessions.id, sessionId));
      if (!current) throw new StorageError('not_found', `session ${sessionId} does not exist`);
      throw new StorageError('invalid_value', `session ${sessionId} is a ${current.type} session; a ${typeState?.type} state does not fit it`);
    },
    async delete(sessionId) {
      // Checklist, messages, actions, items, responses, estimates and agent logs go by ON DELETE CASCADE.
      return (await database.delete(sessions).where(eq(sessions.id, sessionId)).returning({ id: sessions.id })).length > 0;
    },
  };
}

export function postgresChecklists(database: PostgresDatabase): ChecklistRepository {
  return {
    async list(sessionId) {
      const rows = await database
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
        .orderBy(asc(sessionPoints.position), asc(sessionPoints.pointId));
      return rows.map((row) => ({ ...row, status: row.status as 'pending' | 'recalled' }));
    },
    async add(sessionId, pointIds) {
      if (pointIds.length === 0) return;
      await lockSession(database, sessionId);
      const [last] = await database.select({ position: max(sessionPoints.position) }).from(sessionPoints).where(eq(sessionPoints.sessionId, sessionId));
      const start = last?.position === null || last?.position === undefined ? 0 : last.position + 1;
      await database.insert(sessionPoints).values(pointIds.map((pointId, offset) => ({ sessionId, pointId, position: start + offset })));
    },
    async markRecalled(sessionId, pointId, mark) {
      const rows = await database
        .update(sessionPoints)
        .set({ status: 'recalled', confidence: mark.confidence, observation: mark.observation, turnRecalled: mark.turn, recalledAt: mark.at })
        .where(and(eq(sessionPoints.sessionId, sessionId), eq(sessionPoints.pointId, pointId), eq(sessionPoints.status, 'pending')))
        .returning({ pointId: sessionPoints.pointId });
      return rows.length > 0;
    },
  };
}
