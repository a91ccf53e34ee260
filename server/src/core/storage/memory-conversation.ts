/**
 * The in-memory repositories of messages, pending actions, assessments and model call
 * records (see memory-repositories.ts for the rules they follow).
 */
import { deleteSurveyResponsesOf } from './memory-surveys';
import type { AssessmentRepository } from './assessments';
import { overallDomain } from './assessments';
import type { LlmCallRepository } from './llm-calls';
import { conflict, notFound, requireRow } from './memory-repositories';
import { copy, key, sortBy, type ActionRow, type MemoryState } from './memory-state';
import type { MessageRepository, StoredMessage } from './messages';
import type { PendingActionRecord, PendingActionRepository } from './pending-actions';

export function messageRepository(state: MemoryState): MessageRepository {
  const ofSession = (sessionId: string) => sortBy(state.where('messages', (message) => message.sessionId === sessionId), (message) => message.seq);
  return {
    async list(sessionId, options = {}) {
      const all = ofSession(sessionId);
      const messages = options.includeSuperseded ? all : all.filter((message) => message.supersededBy === null);
      if (options.last === undefined) return copy(messages);
      return copy(options.last <= 0 ? [] : messages.slice(-options.last));
    },
    async count(sessionId) {
      return state.where('messages', (message) => message.sessionId === sessionId).length;
    },
    async findByClientId(sessionId, clientMessageId) {
      const found = state.where('messages', (message) => message.sessionId === sessionId && message.clientMessageId === clientMessageId)[0];
      return copy(found ?? null);
    },
    async findOldestUnanswered(sessionId) {
      return copy(ofSession(sessionId).find((message) => message.role !== 'tutor' && message.answeredAt === null) ?? null);
    },
    async append(message) {
      requireRow(state, 'sessions', message.sessionId, 'session');
      if (state.rows('messages').has(message.id)) throw conflict(`message ${message.id}`);
      const existing = ofSession(message.sessionId);
      if (message.clientMessageId !== null && existing.some((other) => other.clientMessageId === message.clientMessageId)) {
        throw conflict(`a message with clientMessageId ${message.clientMessageId} in session ${message.sessionId}`);
      }
      const row: StoredMessage = { ...copy(message), seq: (existing.at(-1)?.seq ?? 0) + 1, answeredAt: null, stopped: message.stopped ?? false, supersededBy: null };
      state.put('messages', row.id, row);
      return copy(row);
    },
    async markAnswered(messageId, at) {
      const row = state.rows('messages').get(messageId);
      if (!row) throw notFound(`message ${messageId}`);
      state.put('messages', messageId, { ...row, answeredAt: new Date(at) });
    },
    async markSuperseded(messageId, byMessageId) {
      const row = state.rows('messages').get(messageId);
      if (!row) throw notFound(`message ${messageId}`);
      state.put('messages', messageId, { ...row, supersededBy: byMessageId });
    },
  };
}

function toAction({ response: _response, answeredAt: _answeredAt, ...action }: ActionRow): PendingActionRecord {
  return copy(action);
}

export function pendingActionRepository(state: MemoryState): PendingActionRepository {
  const pendingOf = (sessionId: string) => state.where('pendingActions', (action) => action.sessionId === sessionId && action.status === 'pending')[0];
  return {
    async getPending(sessionId) {
      const row = pendingOf(sessionId);
      return row ? toAction(row) : null;
    },
    async list(sessionId) {
      const rows = sortBy(state.where('pendingActions', (action) => action.sessionId === sessionId), (action) => action.createdAt, (action) => action.id);
      return rows.map(toAction);
    },
    async create(action) {
      requireRow(state, 'sessions', action.sessionId, 'session');
      if (state.rows('pendingActions').has(action.id)) throw conflict(`pending action ${action.id}`);
      if (pendingOf(action.sessionId)) throw conflict(`a pending action in session ${action.sessionId}`);
      const row: ActionRow = { ...copy(action), status: 'pending', response: null, answeredAt: null };
      state.put('pendingActions', row.id, row);
      return toAction(row);
    },
    async resolve(actionId, status, response, at) {
      const row = state.rows('pendingActions').get(actionId);
      if (!row || row.status !== 'pending') return false;
      state.put('pendingActions', actionId, { ...row, status, response: copy(response), answeredAt: new Date(at) });
      return true;
    },
  };
}

export function assessmentRepository(state: MemoryState): AssessmentRepository {
  return {
    async listItems(sessionId) {
      return copy(sortBy(state.where('items', (item) => item.sessionId === sessionId), (item) => item.position));
    },
    async listResponses(sessionId) {
      const rows = sortBy(state.where('responses', (response) => response.sessionId === sessionId), (response) => response.answeredAt, (response) => response.itemId);
      return rows.map(({ sessionId: _sessionId, ...response }) => copy(response));
    },
    async listAbilities(sessionId) {
      const rows = sortBy(state.where('abilities', (row) => row.sessionId === sessionId), (row) => row.domain);
      return rows.map(({ sessionId: _sessionId, learnerId: _learnerId, ...estimate }) => copy(estimate));
    },
    async addItem(stored) {
      requireRow(state, 'sessions', stored.sessionId, 'session');
      if (state.rows('items').has(stored.id)) throw conflict(`assessment item ${stored.id}`);
      const siblings = state.where('items', (item) => item.sessionId === stored.sessionId);
      if (siblings.some((item) => item.position === stored.position)) throw conflict(`an item at position ${stored.position} in session ${stored.sessionId}`);
      if (siblings.some((item) => item.item.fingerprint === stored.item.fingerprint)) throw conflict(`an item with fingerprint ${stored.item.fingerprint} in session ${stored.sessionId}`);
      state.put('items', stored.id, copy(stored));
    },
    async addResponse(sessionId, response) {
      requireRow(state, 'items', response.itemId, 'assessment item');
      requireRow(state, 'sessions', sessionId, 'session');
      if (state.rows('responses').has(response.itemId)) throw conflict(`a response to item ${response.itemId}`);
      state.put('responses', response.itemId, { ...copy(response), sessionId });
    },
    async saveAbilities(sessionId, learnerId, report, at) {
      requireRow(state, 'sessions', sessionId, 'session');
      requireRow(state, 'learners', learnerId, 'learner');
      for (const { domain, ability, standardError, responses } of [{ domain: overallDomain, ...report.overall }, ...report.domains]) {
        state.put('abilities', key(sessionId, domain), { sessionId, learnerId, domain, ability, standardError, responses, updatedAt: new Date(at) });
      }
    },
  };
}

export function llmCallRepository(state: MemoryState): LlmCallRepository {
  return {
    async listBySession(sessionId) {
      return copy(sortBy(state.where('llmCalls', (call) => call.sessionId === sessionId), (call) => call.createdAt, (call) => call.id));
    },
    async listByLearner(learnerId, purpose) {
      return copy(sortBy(state.where('llmCalls', (call) => call.learnerId === learnerId && (purpose === undefined || call.purpose === purpose)), (call) => call.createdAt, (call) => call.id));
    },
    async tokensUsedSince(learnerId, since, purpose) {
      return state
        .where('llmCalls', (call) => call.learnerId === learnerId && call.createdAt.getTime() >= since.getTime() && (purpose === undefined || call.purpose === purpose))
        .reduce((sum, call) => sum + call.inputTokens + call.outputTokens, 0);
    },
    async add(call) {
      if (state.rows('llmCalls').has(call.id)) throw conflict(`llm call ${call.id}`);
      state.put('llmCalls', call.id, copy(call));
    },
  };
}

/** Deletes a session and everything of it (what `ON DELETE CASCADE` does in SQL). */
export function deleteSessionCascade(state: MemoryState, sessionId: string): void {
  const ofSession = (row: { sessionId: string }) => row.sessionId === sessionId;
  state.remove('sessionPoints', state.where('sessionPoints', ofSession).map((row) => key(row.sessionId, row.pointId)));
  state.remove('messages', state.where('messages', ofSession).map((row) => row.id));
  state.remove('pendingActions', state.where('pendingActions', ofSession).map((row) => row.id));
  state.remove('responses', state.where('responses', ofSession).map((row) => row.itemId));
  state.remove('items', state.where('items', ofSession).map((row) => row.id));
  state.remove('abilities', state.where('abilities', ofSession).map((row) => key(row.sessionId, row.domain)));
  state.remove('agentLogs', state.where('agentLogs', ofSession).map((row) => row.id));
  deleteSurveyResponsesOf(state, new Set([sessionId]));
  state.remove('sessions', [sessionId]);
}
