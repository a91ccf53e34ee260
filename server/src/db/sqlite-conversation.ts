/**
 * SQLite repositories of messages, pending actions, assessments and model call records (see
 * sqlite-repositories.ts for how they run).
 */
import { and, asc, eq, gte, sql } from 'drizzle-orm';
import { overallDomain, type AssessmentRepository } from '../core/storage/assessments';
import type { LlmCallRepository, StoredLlmCall } from '../core/storage/llm-calls';
import type { MessageRepository } from '../core/storage/messages';
import type { PendingActionRepository } from '../core/storage/pending-actions';
import { StorageError } from '../core/storage/storage-error';
import type { Database } from './database';
import { abilityEstimates, assessmentItems, llmCalls, pendingActions, responses } from './schema';
import {
  itemColumns,
  messageColumnList,
  messageFromColumns,
  pendingActionFromColumns,
  toPendingAction,
  toStoredItem,
  type MessageColumns,
  type PendingActionColumns,
} from './sqlite-rows';

export function sqliteMessages(database: Database): MessageRepository {
  const client = database.$client;
  // Every read of a turn is a raw statement prepared once (sqlite-rows.ts, "hot reads").
  const select = (where: string) => client.prepare(`SELECT ${messageColumnList} FROM messages WHERE ${where}`);
  // The current conversation leaves out replies superseded by a retry (SPEC §5).
  const queries = {
    everything: select('session_id = ? ORDER BY seq ASC'),
    all: select('session_id = ? AND superseded_by IS NULL ORDER BY seq ASC'),
    last: select('session_id = ? AND superseded_by IS NULL ORDER BY seq DESC LIMIT ?'),
    lastOfEverything: select('session_id = ? ORDER BY seq DESC LIMIT ?'),
    byClientId: select('session_id = ? AND client_message_id = ?'),
    oldestUnanswered: select("session_id = ? AND role <> 'tutor' AND answered_at IS NULL ORDER BY seq ASC LIMIT 1"),
    count: database.$client.prepare('SELECT COUNT(*) AS count FROM messages WHERE session_id = ?'),
    nextSeq: database.$client.prepare('SELECT COALESCE(MAX(seq), 0) + 1 AS seq FROM messages WHERE session_id = ?'),
    // The two writes of every turn, prepared once (drizzle's builder costs more than the statement).
    insert: database.$client.prepare(
      'INSERT INTO messages (id, session_id, seq, role, content, tool_call, tool_call_id, widget_answer, client_message_id, answered_at, stopped, superseded_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, NULL, ?)',
    ),
    markAnswered: database.$client.prepare('UPDATE messages SET answered_at = ? WHERE id = ?'),
    markSuperseded: database.$client.prepare('UPDATE messages SET superseded_by = ? WHERE id = ?'),
  };
  return {
    async list(id, options = {}) {
      const [every, last] = options.includeSuperseded ? [queries.everything, queries.lastOfEverything] : [queries.all, queries.last];
      if (options.last === undefined) return (every.all(id) as MessageColumns[]).map(messageFromColumns);
      if (options.last <= 0) return [];
      return (last.all(id, options.last) as MessageColumns[]).reverse().map(messageFromColumns);
    },
    async count(id) {
      return (queries.count.get(id) as { count: number }).count;
    },
    async findByClientId(id, clientMessageId) {
      const row = queries.byClientId.get(id, clientMessageId) as MessageColumns | undefined;
      return row ? messageFromColumns(row) : null;
    },
    async findOldestUnanswered(id) {
      const row = queries.oldestUnanswered.get(id) as MessageColumns | undefined;
      return row ? messageFromColumns(row) : null;
    },
    async append(message) {
      // One connection, one unit of work at a time: nobody can take this seq between the read and the insert.
      const { seq } = queries.nextSeq.get(message.sessionId) as { seq: number };
      const toolCall = message.toolCall === null ? null : JSON.stringify(message.toolCall);
      const widgetAnswer = message.widgetAnswer === null ? null : JSON.stringify(message.widgetAnswer);
      const createdAt = message.createdAt.getTime();
      const stopped = message.stopped ?? false;
      queries.insert.run(message.id, message.sessionId, seq, message.role, message.content, toolCall, message.toolCallId ?? null, widgetAnswer, message.clientMessageId ?? null, stopped ? 1 : 0, createdAt);
      // The record as stored, built from what was written (copies: nothing the caller holds is shared).
      return {
        id: message.id,
        sessionId: message.sessionId,
        seq,
        role: message.role,
        content: message.content,
        toolCall: toolCall === null ? null : JSON.parse(toolCall),
        toolCallId: message.toolCallId ?? null,
        widgetAnswer: widgetAnswer === null ? null : JSON.parse(widgetAnswer),
        clientMessageId: message.clientMessageId ?? null,
        answeredAt: null,
        createdAt: new Date(createdAt),
        stopped,
        supersededBy: null,
      };
    },
    async markAnswered(messageId, at) {
      const result = queries.markAnswered.run(at.getTime(), messageId);
      if (result.changes === 0) throw new StorageError('not_found', `message ${messageId} does not exist`);
    },
    async markSuperseded(messageId, byMessageId) {
      const result = queries.markSuperseded.run(byMessageId, messageId);
      if (result.changes === 0) throw new StorageError('not_found', `message ${messageId} does not exist`);
    },
  };
}

export function sqlitePendingActions(database: Database): PendingActionRepository {
  const columns = 'id, session_id, tool_call_id, kind, props, status, created_at';
  const pendingOf = database.$client.prepare(`SELECT ${columns} FROM pending_actions WHERE session_id = ? AND status = 'pending'`);
  const listOf = database.$client.prepare(`SELECT ${columns} FROM pending_actions WHERE session_id = ? ORDER BY created_at ASC, id ASC`);
  return {
    async getPending(sessionId) {
      const row = pendingOf.get(sessionId) as PendingActionColumns | undefined;
      return row ? pendingActionFromColumns(row) : null;
    },
    async list(sessionId) {
      return (listOf.all(sessionId) as PendingActionColumns[]).map(pendingActionFromColumns);
    },
    async create(action) {
      // One pending action per session: checked in the unit of work (serialized on SQLite; a
      // partial unique index enforces it on PostgreSQL, where units run concurrently).
      if (pendingOf.get(action.sessionId)) {
        throw new StorageError('conflict', `session ${action.sessionId} already has a pending action`);
      }
      const row = database.insert(pendingActions).values({ ...action, status: 'pending' }).returning().get();
      return toPendingAction(row);
    },
    async resolve(actionId, status, response, at) {
      const result = database
        .update(pendingActions)
        .set({ status, response, answeredAt: at })
        .where(and(eq(pendingActions.id, actionId), eq(pendingActions.status, 'pending')))
        .run();
      return result.changes > 0;
    },
  };
}

export function sqliteAssessments(database: Database): AssessmentRepository {
  return {
    async listItems(sessionId) {
      return database.select().from(assessmentItems).where(eq(assessmentItems.sessionId, sessionId)).orderBy(asc(assessmentItems.position)).all().map(toStoredItem);
    },
    async listResponses(sessionId) {
      const rows = database.select().from(responses).where(eq(responses.sessionId, sessionId)).orderBy(asc(responses.answeredAt), asc(responses.itemId)).all();
      // A response without test outcomes (a choice, or scored before they were kept) has no field at all.
      return rows.map(({ sessionId: _sessionId, testOutcomes, ...response }) => (testOutcomes ? { ...response, testOutcomes } : response));
    },
    async listAbilities(sessionId) {
      const rows = database.select().from(abilityEstimates).where(eq(abilityEstimates.sessionId, sessionId)).orderBy(asc(abilityEstimates.domain)).all();
      return rows.map(({ domain, ability, standardError, responses: count, updatedAt }) => ({ domain, ability, standardError, responses: count, updatedAt }));
    },
    async addItem(stored) {
      database.insert(assessmentItems).values(itemColumns(stored)).run();
    },
    async addResponse(sessionId, response) {
      database.insert(responses).values({ sessionId, ...response }).run();
    },
    async saveAbilities(sessionId, learnerId, report, at) {
      for (const row of [{ domain: overallDomain, ...report.overall }, ...report.domains]) {
        const values = { ability: row.ability, standardError: row.standardError, responses: row.responses, updatedAt: at };
        database
          .insert(abilityEstimates)
          .values({ sessionId, learnerId, domain: row.domain, ...values })
          .onConflictDoUpdate({ target: [abilityEstimates.sessionId, abilityEstimates.domain], set: values })
          .run();
      }
    },
  };
}

export function sqliteLlmCalls(database: Database): LlmCallRepository {
  return {
    async listBySession(sessionId) {
      const rows = database.select().from(llmCalls).where(eq(llmCalls.sessionId, sessionId)).orderBy(asc(llmCalls.createdAt), asc(llmCalls.id)).all();
      return rows.map((row) => ({ ...row, outcome: row.outcome as StoredLlmCall['outcome'] }));
    },
    async listByLearner(learnerId, purpose) {
      const rows = database
        .select()
        .from(llmCalls)
        .where(and(eq(llmCalls.learnerId, learnerId), purpose === undefined ? undefined : eq(llmCalls.purpose, purpose)))
        .orderBy(asc(llmCalls.createdAt), asc(llmCalls.id))
        .all();
      return rows.map((row) => ({ ...row, outcome: row.outcome as StoredLlmCall['outcome'] }));
    },
    async tokensUsedSince(learnerId, since, purpose) {
      // One range scan of llm_calls_learner_created_idx.
      const row = database
        .select({ tokens: sql<number>`coalesce(sum(${llmCalls.inputTokens} + ${llmCalls.outputTokens}), 0)` })
        .from(llmCalls)
        .where(and(eq(llmCalls.learnerId, learnerId), gte(llmCalls.createdAt, since), purpose === undefined ? undefined : eq(llmCalls.purpose, purpose)))
        .get();
      return Number(row?.tokens ?? 0);
    },
    async add(call) {
      database.insert(llmCalls).values(call).run();
    },
  };
}
