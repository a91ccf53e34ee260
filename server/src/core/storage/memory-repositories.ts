/**
 * The in-memory repositories of learners, recall sets, cards, sessions and checklists, over a
 * `MemoryState`. They enforce what the SQL schema enforces — keys, unique indexes, foreign
 * keys and cascades — so a test on memory fails where the database would.
 */
import type { CardRepository, StoredCard } from './cards';
import type { ChecklistEntry, ChecklistRepository } from './checklists';
import { defaultDesiredRetention, type LearnerRepository, type StoredLearner } from './learners';
import { copy, key, sortBy, type CardRow, type MemoryState, type SessionPointRow } from './memory-state';
import type { RecallSetRepository } from './recall-sets';
import { parseTypeState, type SessionTypeCatalog } from './session-type-state';
import type { SessionRepository, StoredSession } from './sessions';
import { StorageError } from './storage-error';

export function conflict(what: string): StorageError {
  return new StorageError('conflict', `${what} already exists`);
}

export function missingReference(what: string): StorageError {
  return new StorageError('missing_reference', `${what} does not exist`);
}

export function notFound(what: string): StorageError {
  return new StorageError('not_found', `${what} does not exist`);
}

/** Throws `missing_reference` unless `table` has `id`. */
export function requireRow(state: MemoryState, table: 'learners' | 'recallSets' | 'recallPoints' | 'cards' | 'sessions' | 'items', id: string, what: string): void {
  if (!state.rows(table).has(id)) throw missingReference(`${what} ${id}`);
}

/** Deletes points and what hangs on them: checklist entries, cards, review logs. */
export function deletePointsCascade(state: MemoryState, pointIds: ReadonlySet<string>): void {
  const cardIds = new Set(state.where('cards', (card) => pointIds.has(card.pointId)).map((card) => card.id));
  state.remove('reviewLogs', state.where('reviewLogs', (log) => cardIds.has(log.cardId)).map((log) => log.id));
  state.remove('cards', cardIds);
  state.remove('sessionPoints', state.where('sessionPoints', (row) => pointIds.has(row.pointId)).map((row) => key(row.sessionId, row.pointId)));
  state.remove('recallPoints', pointIds);
}

/**
 * Deletes a learner and everything of theirs (what the schema's cascades do in SQL, plus
 * their model call records — by learner or by session — which have no foreign key).
 */
function deleteLearnerCascade(state: MemoryState, learnerId: string, deleteSession: (sessionId: string) => void): void {
  const sessionIds = new Set(state.where('sessions', (session) => session.learnerId === learnerId).map((session) => session.id));
  state.remove('llmCalls', state.where('llmCalls', (call) => call.learnerId === learnerId || (call.sessionId !== null && sessionIds.has(call.sessionId))).map((call) => call.id));
  for (const sessionId of sessionIds) deleteSession(sessionId);
  const setIds = new Set(state.where('recallSets', (set) => set.learnerId === learnerId).map((set) => set.id));
  deletePointsCascade(state, new Set(state.where('recallPoints', (point) => setIds.has(point.recallSetId)).map((point) => point.id)));
  for (const session of state.where('sessions', (candidate) => candidate.recallSetId !== null && setIds.has(candidate.recallSetId))) {
    state.put('sessions', session.id, { ...session, recallSetId: null });
  }
  state.remove('recallSets', setIds);
  // Their cards for points of sets they do not own.
  const cardIds = new Set(state.where('cards', (card) => card.learnerId === learnerId).map((card) => card.id));
  state.remove('reviewLogs', state.where('reviewLogs', (log) => cardIds.has(log.cardId)).map((log) => log.id));
  state.remove('cards', cardIds);
  state.remove('abilities', state.where('abilities', (row) => row.learnerId === learnerId).map((row) => key(row.sessionId, row.domain)));
  state.remove('studyPlans', state.where('studyPlans', (plan) => plan.ownerId === learnerId).map((plan) => plan.id));
  // Their surveys with every response to them (as the SQL foreign keys cascade).
  const surveyIds = new Set(state.where('surveys', (survey) => survey.ownerId === learnerId).map((survey) => survey.id));
  state.remove('surveyResponses', state.where('surveyResponses', (row) => surveyIds.has(row.surveyId) || row.learnerId === learnerId).map((row) => key(row.sessionId, row.questionId)));
  state.remove('surveys', surveyIds);
  state.remove('agentLogs', state.where('agentLogs', (log) => log.learnerId === learnerId).map((log) => log.id));
  state.remove('schedulerRuns', state.where('schedulerRuns', (run) => run.learnerId === learnerId).map((run) => run.id));
  state.remove('surveyResponses', state.where('surveyResponses', (row) => row.learnerId === learnerId).map((row) => key(row.sessionId, row.questionId)));
  state.remove('surveys', state.where('surveys', (survey) => survey.ownerId === learnerId).map((survey) => survey.id));
  state.remove('learners', [learnerId]);
}

export function learnerRepository(state: MemoryState, deleteSession: (sessionId: string) => void = () => {}): LearnerRepository {
  const findByUsername = (username: string): StoredLearner | undefined => {
    const wanted = username.toLowerCase();
    return state.where('learners', (learner) => learner.username.toLowerCase() === wanted)[0];
  };
  return {
    async get(learnerId) {
      return copy(state.rows('learners').get(learnerId) ?? null);
    },
    async findByUsername(username) {
      return copy(findByUsername(username) ?? null);
    },
    async create(learner) {
      if (state.rows('learners').has(learner.id)) throw conflict(`learner ${learner.id}`);
      if (findByUsername(learner.username)) return { ok: false, error: 'username_taken' };
      const row: StoredLearner = { ...copy(learner), desiredRetention: learner.desiredRetention ?? defaultDesiredRetention, tokenVersion: 0 };
      state.put('learners', row.id, row);
      return { ok: true, value: copy(row) };
    },
    async update(learnerId, changes) {
      const row = state.rows('learners').get(learnerId);
      if (!row) throw notFound(`learner ${learnerId}`);
      const next: StoredLearner = {
        ...row,
        ...(changes.desiredRetention !== undefined ? { desiredRetention: changes.desiredRetention } : {}),
        ...(changes.passwordHash !== undefined ? { passwordHash: changes.passwordHash } : {}),
        ...(changes.tokenVersion !== undefined ? { tokenVersion: changes.tokenVersion } : {}),
      };
      state.put('learners', learnerId, next);
      return copy(next);
    },
    async delete(learnerId) {
      if (!state.rows('learners').has(learnerId)) return false;
      deleteLearnerCascade(state, learnerId, deleteSession);
      return true;
    },
  };
}

export function recallSetRepository(state: MemoryState): RecallSetRepository {
  const pointsOf = (setIds: ReadonlySet<string>) =>
    sortBy(state.where('recallPoints', (point) => setIds.has(point.recallSetId)), (point) => point.recallSetId, (point) => point.position, (point) => point.id);
  return {
    async get(setId) {
      return copy(state.rows('recallSets').get(setId) ?? null);
    },
    async listByLearner(learnerId) {
      const sets = state.where('recallSets', (set) => set.learnerId === learnerId);
      return copy(sortBy(sets, (set) => -set.updatedAt.getTime(), (set) => set.id));
    },
    async listPoints(setId) {
      return copy(pointsOf(new Set([setId])));
    },
    async listPointsOfSets(setIds) {
      return copy(pointsOf(new Set(setIds)));
    },
    async create(set) {
      requireRow(state, 'learners', set.learnerId, 'learner');
      if (state.rows('recallSets').has(set.id)) throw conflict(`recall set ${set.id}`);
      const row = { ...copy(set), updatedAt: new Date(set.createdAt) };
      state.put('recallSets', row.id, row);
      return copy(row);
    },
    async update(setId, changes, now) {
      const row = state.rows('recallSets').get(setId);
      if (!row) throw notFound(`recall set ${setId}`);
      const next = {
        ...row,
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.description !== undefined ? { description: changes.description } : {}),
        updatedAt: new Date(now),
      };
      state.put('recallSets', setId, next);
      return copy(next);
    },
    async delete(setId) {
      if (!state.rows('recallSets').has(setId)) return false;
      deletePointsCascade(state, new Set(state.where('recallPoints', (point) => point.recallSetId === setId).map((point) => point.id)));
      for (const session of state.where('sessions', (candidate) => candidate.recallSetId === setId)) {
        state.put('sessions', session.id, { ...session, recallSetId: null });
      }
      state.remove('recallSets', [setId]);
      return true;
    },
    async addPoint(point) {
      requireRow(state, 'recallSets', point.recallSetId, 'recall set');
      if (state.rows('recallPoints').has(point.id)) throw conflict(`recall point ${point.id}`);
      state.put('recallPoints', point.id, copy(point));
    },
    async updatePoint(pointId, changes) {
      const row = state.rows('recallPoints').get(pointId);
      if (!row) throw notFound(`recall point ${pointId}`);
      state.put('recallPoints', pointId, { ...row, ...copy(changes) });
    },
    async deletePoints(pointIds) {
      deletePointsCascade(state, new Set(pointIds.filter((id) => state.rows('recallPoints').has(id))));
    },
  };
}

function toStoredCard({ learnerId: _learnerId, pointId: _pointId, ...card }: CardRow): StoredCard {
  return copy(card);
}

export function cardRepository(state: MemoryState): CardRepository {
  const find = (learnerId: string, pointId: string) => state.where('cards', (card) => card.learnerId === learnerId && card.pointId === pointId)[0];
  return {
    async get(learnerId, pointId) {
      const row = find(learnerId, pointId);
      return row ? toStoredCard(row) : null;
    },
    async listFor(learnerId, pointIds) {
      const wanted = new Set(pointIds);
      const rows = state.where('cards', (card) => card.learnerId === learnerId && wanted.has(card.pointId));
      return new Map(rows.map((row) => [row.pointId, toStoredCard(row)]));
    },
    async listReviewLogs(cardId) {
      return copy(sortBy(state.where('reviewLogs', (log) => log.cardId === cardId), (log) => log.reviewedAt, (log) => log.id));
    },
    async listReviewLogsByLearner(learnerId) {
      const pointOf = new Map(state.where('cards', (card) => card.learnerId === learnerId).map((card) => [card.id, card.pointId]));
      const logs = state.where('reviewLogs', (log) => pointOf.has(log.cardId)).map((log) => ({ ...log, pointId: pointOf.get(log.cardId)! }));
      return copy(sortBy(logs, (log) => log.reviewedAt, (log) => log.id));
    },
    async save(write) {
      requireRow(state, 'learners', write.learnerId, 'learner');
      requireRow(state, 'recallPoints', write.pointId, 'recall point');
      const existing = find(write.learnerId, write.pointId);
      const id = existing?.id ?? write.newId;
      if (!existing && state.rows('cards').has(id)) throw conflict(`card ${id}`);
      state.put('cards', id, { ...copy(write.card), id, learnerId: write.learnerId, pointId: write.pointId });
      return id;
    },
    async addReviewLog(id, log) {
      requireRow(state, 'cards', log.cardId, 'card');
      if (state.rows('reviewLogs').has(id)) throw conflict(`review log ${id}`);
      const { state: cardState, due, stability, difficulty, scheduledDays } = log.previous;
      state.put('reviewLogs', id, copy({
        id,
        cardId: log.cardId,
        sessionId: log.sessionId,
        rating: log.rating,
        confidence: log.confidence,
        previous: { state: cardState, due, stability, difficulty, scheduledDays },
        reviewedAt: log.reviewedAt,
      }));
    },
  };
}

export function sessionRepository(state: MemoryState, deleteCascade: (sessionId: string) => void, sessionTypes: SessionTypeCatalog): SessionRepository {
  return {
    async get(sessionId) {
      return copy(state.rows('sessions').get(sessionId) ?? null);
    },
    async listByLearner(learnerId) {
      const rows = state.where('sessions', (session) => session.learnerId === learnerId);
      return copy(sortBy(rows, (session) => -session.createdAt.getTime(), (session) => session.id));
    },
    async create(session) {
      const typeState = parseTypeState(sessionTypes, session.typeState);
      requireRow(state, 'learners', session.learnerId, 'learner');
      if (session.recallSetId !== null) requireRow(state, 'recallSets', session.recallSetId, 'recall set');
      if (state.rows('sessions').has(session.id)) throw conflict(`session ${session.id}`);
      const row = {
        id: session.id,
        learnerId: session.learnerId,
        type: typeState.type,
        status: session.status ?? 'pending',
        title: session.title,
        recallSetId: session.recallSetId,
        turn: 0,
        endReason: null,
        typeState,
        createdAt: new Date(session.createdAt),
        updatedAt: new Date(session.createdAt),
        endedAt: null,
      } as StoredSession;
      state.put('sessions', row.id, row);
      return copy(row);
    },
    async update(sessionId, changes, now) {
      const row = state.rows('sessions').get(sessionId);
      if (!row) throw notFound(`session ${sessionId}`);
      const typeState = changes.typeState === undefined ? row.typeState : parseTypeState(sessionTypes, changes.typeState);
      if (typeState.type !== row.type) throw new StorageError('invalid_value', `session ${sessionId} is a ${row.type} session; a ${typeState.type} state does not fit it`);
      const next = {
        ...row,
        ...(changes.status !== undefined ? { status: changes.status } : {}),
        ...(changes.title !== undefined ? { title: changes.title } : {}),
        ...(changes.turn !== undefined ? { turn: changes.turn } : {}),
        ...(changes.endReason !== undefined ? { endReason: changes.endReason } : {}),
        ...(changes.endedAt !== undefined ? { endedAt: changes.endedAt && new Date(changes.endedAt) } : {}),
        typeState,
        updatedAt: new Date(now),
      } as StoredSession;
      state.put('sessions', sessionId, next);
      return copy(next);
    },
    async delete(sessionId) {
      if (!state.rows('sessions').has(sessionId)) return false;
      deleteCascade(sessionId);
      return true;
    },
  };
}

export function checklistRepository(state: MemoryState): ChecklistRepository {
  return {
    async list(sessionId) {
      const rows = sortBy(state.where('sessionPoints', (row) => row.sessionId === sessionId), (row) => row.position, (row) => row.pointId);
      return rows.map((row): ChecklistEntry => {
        const point = state.rows('recallPoints').get(row.pointId)!;
        return copy({
          pointId: row.pointId,
          content: point.content,
          context: point.context,
          position: row.position,
          status: row.status,
          confidence: row.confidence,
          turnRecalled: row.turnRecalled,
          recalledAt: row.recalledAt,
        });
      });
    },
    async add(sessionId, pointIds) {
      if (pointIds.length === 0) return;
      requireRow(state, 'sessions', sessionId, 'session');
      const positions = state.where('sessionPoints', (row) => row.sessionId === sessionId).map((row) => row.position);
      let position = positions.length === 0 ? 0 : Math.max(...positions) + 1;
      for (const pointId of pointIds) {
        requireRow(state, 'recallPoints', pointId, 'recall point');
        const id = key(sessionId, pointId);
        if (state.rows('sessionPoints').has(id)) throw conflict(`checklist entry for point ${pointId}`);
        const row: SessionPointRow = { sessionId, pointId, position, status: 'pending', confidence: null, observation: null, turnRecalled: null, recalledAt: null };
        state.put('sessionPoints', id, row);
        position += 1;
      }
    },
    async markRecalled(sessionId, pointId, mark) {
      const id = key(sessionId, pointId);
      const row = state.rows('sessionPoints').get(id);
      if (!row || row.status !== 'pending') return false;
      state.put('sessionPoints', id, {
        ...row,
        status: 'recalled',
        confidence: mark.confidence,
        observation: mark.observation,
        turnRecalled: mark.turn,
        recalledAt: new Date(mark.at),
      });
      return true;
    },
  };
}
