/**
 * SQLite repositories of learners, recall sets, cards, sessions and checklists (drizzle over
 * better-sqlite3). Synchronous underneath: each method runs to completion before it returns
 * its promise, inside the unit of work sqlite-storage.ts holds open on the connection.
 * Keys, foreign keys and cascades are the schema's; driver errors become StorageErrors there.
 */
import { and, asc, desc, eq, inArray, max, sql } from 'drizzle-orm';
import type { CardRepository, ReviewLogRecord } from '../core/storage/cards';
import type { ChecklistEntry, ChecklistRepository } from '../core/storage/checklists';
import { defaultDesiredRetention, type LearnerRepository, type StoredLearner } from '../core/storage/learners';
import type { RecallSetRepository } from '../core/storage/recall-sets';
import { parseTypeState, type SessionTypeCatalog } from '../core/storage/session-type-state';
import type { SessionRepository, StoredSession } from '../core/storage/sessions';
import { StorageError } from '../core/storage/storage-error';
import type { Database } from './database';
import { cards, learners, recallPoints, recallSets, reviewLogs, sessionPoints, sessions } from './schema';
import { cardFromColumns, sessionRowFromColumns, toStoredSession, typeStateColumns, type CardColumns, type SessionColumnsRow } from './sqlite-rows';

function toLearner(row: typeof learners.$inferSelect): StoredLearner {
  return { id: row.id, username: row.username, passwordHash: row.passwordHash, desiredRetention: row.desiredRetention, tokenVersion: row.tokenVersion, createdAt: row.createdAt };
}

export function sqliteLearners(database: Database): LearnerRepository {
  const byKey = (username: string) => database.select().from(learners).where(eq(learners.usernameKey, username.toLowerCase())).get();
  const byId = database.select().from(learners).where(eq(learners.id, sql.placeholder('id'))).prepare();
  // Read by every turn's snapshot: raw, as the other hot reads (sqlite-rows.ts).
  const byIdRaw = database.$client.prepare('SELECT id, username, password_hash, desired_retention, token_version, created_at FROM learners WHERE id = ?');
  type LearnerColumns = { id: string; username: string; password_hash: string; desired_retention: number; token_version: number; created_at: number };
  return {
    async get(learnerId) {
      const row = byIdRaw.get(learnerId) as LearnerColumns | undefined;
      return row
        ? { id: row.id, username: row.username, passwordHash: row.password_hash, desiredRetention: row.desired_retention, tokenVersion: row.token_version, createdAt: new Date(row.created_at) }
        : null;
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
  const columns = 'id, point_id, due, stability, difficulty, elapsed_days, scheduled_days, learning_steps, reps, lapses, state, last_review';
  const byPoint = database.$client.prepare(`SELECT ${columns} FROM cards WHERE learner_id = ? AND point_id = ?`);
  const find = (learnerId: string, pointId: string) => byPoint.get(learnerId, pointId) as CardColumns | undefined;
  // The point ids travel as one JSON array, so the statement is prepared once for any number of them.
  const byPoints = database.$client.prepare(`SELECT ${columns} FROM cards WHERE learner_id = ? AND point_id IN (SELECT value FROM json_each(?))`);
  // A recalled point's review writes these three (record-review.ts), prepared once.
  const fields = 'due, stability, difficulty, elapsed_days, scheduled_days, learning_steps, reps, lapses, state, last_review';
  const writes = {
    update: database.$client.prepare(`UPDATE cards SET (${fields}) = (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) WHERE id = ?`),
    insert: database.$client.prepare(`INSERT INTO cards (id, learner_id, point_id, ${fields}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    log: database.$client.prepare(
      'INSERT INTO review_logs (id, card_id, session_id, rating, confidence, state, due, stability, difficulty, scheduled_days, reviewed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ),
  };
  return {
    async get(learnerId, pointId) {
      const row = find(learnerId, pointId);
      return row ? cardFromColumns(row) : null;
    },
    async listFor(learnerId, pointIds) {
      if (pointIds.length === 0) return new Map();
      const rows = byPoints.all(learnerId, JSON.stringify(pointIds)) as CardColumns[];
      return new Map(rows.map((row) => [row.point_id, cardFromColumns(row)]));
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
      const values = [card.due.getTime(), card.stability, card.difficulty, card.elapsedDays, card.scheduledDays, card.learningSteps, card.reps, card.lapses, card.state, card.lastReview?.getTime() ?? null];
      const existing = find(write.learnerId, write.pointId);
      if (existing) {
        writes.update.run(...values, existing.id);
        return existing.id;
      }
      writes.insert.run(write.newId, write.learnerId, write.pointId, ...values);
      return write.newId;
    },
    async addReviewLog(id, log) {
      const { previous } = log;
      writes.log.run(id, log.cardId, log.sessionId, log.rating, log.confidence, previous.state, previous.due.getTime(), previous.stability, previous.difficulty, previous.scheduledDays, log.reviewedAt.getTime());
    },
  };
}

export function sqliteSessions(database: Database, sessionTypes: SessionTypeCatalog): SessionRepository {
  const bySessionRaw = database.$client.prepare(
    'SELECT id, learner_id, type, status, recall_set_id, title, type_state, turn, end_reason, created_at, updated_at, ended_at FROM sessions WHERE id = ?',
  );
  // Read several times a turn (sqlite-rows.ts, "hot reads").
  const bySession = (id: string) => {
    const row = bySessionRaw.get(id) as SessionColumnsRow | undefined;
    return row ? { row: sessionRowFromColumns(row), validated: row.type_state !== null && written.has(row.type_state) } : undefined;
  };
  // The type-state texts this adapter validated and wrote itself: read back (several times a
  // turn), they are not validated again — zod on every read was ~3 % of a turn. Bounded.
  const written = new Set<string>();
  const remember = (text: string) => {
    if (written.size >= 2000) written.clear();
    written.add(text);
  };
  // Every turn updates its session: prepared once, the record returned built from what was written.
  const updateSession = database.$client.prepare(
    'UPDATE sessions SET status = ?, title = ?, turn = ?, end_reason = ?, ended_at = ?, type = ?, type_state = ?, updated_at = ? WHERE id = ?',
  );
  return {
    async get(sessionId) {
      const found = bySession(sessionId);
      return found ? toStoredSession(found.row, sessionTypes, found.validated) : null;
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
      const found = bySession(sessionId);
      if (!found) throw new StorageError('not_found', `session ${sessionId} does not exist`);
      const current = toStoredSession(found.row, sessionTypes, found.validated);
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
      const text = JSON.stringify(typeState);
      updateSession.run(next.status, next.title, next.turn, next.endReason, next.endedAt?.getTime() ?? null, typeState.type, text, next.updatedAt.getTime(), sessionId);
      remember(text);
      return next;
    },
    async delete(sessionId) {
      // Checklist, messages, actions, items, responses, estimates and agent logs go by ON DELETE CASCADE.
      return database.delete(sessions).where(eq(sessions.id, sessionId)).run().changes > 0;
    },
  };
}

export function sqliteChecklists(database: Database): ChecklistRepository {
  // Read by every turn's snapshot: raw, as the other hot reads (sqlite-rows.ts).
  const list = database.$client.prepare(
    `SELECT sp.point_id AS pointId, rp.content AS content, rp.context AS context, sp.position AS position, sp.status AS status,
       sp.confidence AS confidence, sp.turn_recalled AS turnRecalled, sp.recalled_at AS recalledAt
     FROM session_points sp INNER JOIN recall_points rp ON rp.id = sp.point_id
     WHERE sp.session_id = ? ORDER BY sp.position ASC, sp.point_id ASC`,
  );
  const markRecalled = database.$client.prepare(
    "UPDATE session_points SET status = 'recalled', confidence = ?, observation = ?, turn_recalled = ?, recalled_at = ? WHERE session_id = ? AND point_id = ? AND status = 'pending'",
  );
  type EntryColumns = Omit<ChecklistEntry, 'recalledAt'> & { recalledAt: number | null };
  return {
    async list(sessionId) {
      return (list.all(sessionId) as EntryColumns[]).map((row) => ({ ...row, recalledAt: row.recalledAt === null ? null : new Date(row.recalledAt) }));
    },
    async add(sessionId, pointIds) {
      const last = database.select({ position: max(sessionPoints.position) }).from(sessionPoints).where(eq(sessionPoints.sessionId, sessionId)).get();
      const start = last?.position === null || last?.position === undefined ? 0 : last.position + 1;
      for (const [offset, pointId] of pointIds.entries()) {
        database.insert(sessionPoints).values({ sessionId, pointId, position: start + offset }).run();
      }
    },
    async markRecalled(sessionId, pointId, mark) {
      return markRecalled.run(mark.confidence, mark.observation, mark.turn, mark.at.getTime(), sessionId, pointId).changes > 0;
    },
  };
}
