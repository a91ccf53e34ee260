/**
 * The in-memory repository of surveys and their responses (see memory-repositories.ts for the
 * rules it follows: what the SQL schema enforces, enforced here too).
 */
import { listOrder, visibleTo } from './memory-authored';
import { conflict, notFound, requireRow } from './memory-repositories';
import { copy, key, sortBy, type MemoryState } from './memory-state';
import { StorageError } from './storage-error';
import { parseStoredSurvey, type StoredSurvey, type StoredSurveyResponse, type SurveyRepository } from './surveys';

/** Removes the responses of the given sessions (a session deleted, a learner deleted). */
export function deleteSurveyResponsesOf(state: MemoryState, sessionIds: ReadonlySet<string>): void {
  state.remove('surveyResponses', state.where('surveyResponses', (row) => sessionIds.has(row.sessionId)).map((row) => key(row.sessionId, row.questionId)));
}

export function surveyRepository(state: MemoryState): SurveyRepository {
  return {
    async get(surveyId) {
      return copy(state.rows('surveys').get(surveyId) ?? null);
    },
    async listVisibleTo(learnerId) {
      return copy(listOrder(state.where('surveys', visibleTo(learnerId))));
    },
    async listBuiltIn() {
      return copy(sortBy(state.where('surveys', (survey) => survey.builtIn), (survey) => survey.id));
    },
    async listResponses(surveyId) {
      return copy(sortBy(state.where('surveyResponses', (row) => row.surveyId === surveyId), (row) => row.answeredAt, (row) => row.id));
    },
    async create(input) {
      const survey = parseStoredSurvey(input.survey);
      requireRow(state, 'learners', input.ownerId, 'learner');
      if (state.rows('surveys').has(input.id)) throw conflict(`survey ${input.id}`);
      const row: StoredSurvey = { id: input.id, ownerId: input.ownerId, builtIn: false, shared: input.shared, title: survey.title, survey, createdAt: new Date(input.createdAt), updatedAt: new Date(input.createdAt) };
      state.put('surveys', row.id, row);
      return copy(row);
    },
    async update(surveyId, changes, now) {
      const row = state.rows('surveys').get(surveyId);
      if (!row) throw notFound(`survey ${surveyId}`);
      if (row.builtIn) throw new StorageError('invalid_value', `survey ${surveyId} is built in; it changes only through upsertBuiltIn`);
      const survey = changes.survey === undefined ? row.survey : parseStoredSurvey(changes.survey);
      const next: StoredSurvey = { ...row, survey, title: survey.title, shared: changes.shared ?? row.shared, updatedAt: new Date(now) };
      state.put('surveys', surveyId, next);
      return copy(next);
    },
    async delete(surveyId) {
      if (!state.rows('surveys').has(surveyId)) return false;
      state.remove('surveyResponses', state.where('surveyResponses', (row) => row.surveyId === surveyId).map((row) => key(row.sessionId, row.questionId)));
      state.remove('surveys', [surveyId]);
      return true;
    },
    async upsertBuiltIn(input, now) {
      const survey = parseStoredSurvey(input.survey);
      const row = state.rows('surveys').get(input.id);
      if (row && !row.builtIn) throw conflict(`a learner's survey with id ${input.id}`);
      if (row && JSON.stringify(row.survey) === JSON.stringify(survey)) return copy(row);
      const next: StoredSurvey = { id: input.id, ownerId: null, builtIn: true, shared: true, title: survey.title, survey, createdAt: row ? row.createdAt : new Date(now), updatedAt: new Date(now) };
      state.put('surveys', next.id, next);
      return copy(next);
    },
    async addResponse(input) {
      requireRow(state, 'sessions', input.sessionId, 'session');
      requireRow(state, 'learners', input.learnerId, 'learner');
      const rowKey = key(input.sessionId, input.questionId);
      if (state.rows('surveyResponses').has(rowKey) || state.where('surveyResponses', (row) => row.id === input.id).length > 0) {
        throw conflict(`a response of session ${input.sessionId} to question ${input.questionId}`);
      }
      const row: StoredSurveyResponse = { ...copy(input), answeredAt: new Date(input.answeredAt) };
      state.put('surveyResponses', rowKey, row);
      return copy(row);
    },
  };
}
