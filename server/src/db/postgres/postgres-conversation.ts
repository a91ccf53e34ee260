/**
 * PostgreSQL repositories of messages, pending actions, assessments and model call records
 * (see postgres-repositories.ts for how they run). Mirrors sqlite-conversation.ts.
 */
import { and, asc, desc, eq, gte, isNull, ne, sql, type SQL } from 'drizzle-orm';
import { overallDomain, type AssessmentRepository } from '../../core/storage/assessments';
import type { LlmCallRepository, StoredLlmCall } from '../../core/storage/llm-calls';
import type { MessageRepository } from '../../core/storage/messages';
import type { PendingActionRepository } from '../../core/storage/pending-actions';
import { StorageError } from '../../core/storage/storage-error';
import { itemColumns, toPendingAction, toStoredItem, toStoredMessage } from '../sqlite-rows';
import type { PostgresDatabase } from './postgres-database';
import { lockSession } from './postgres-repositories';
import { abilityEstimates, assessmentItems, llmCalls, messages, pendingActions, responses } from './schema';

/**
 * The text without U+0000: PostgreSQL text cannot hold the NUL character (SQLSTATE 22021),
 * which SQLite stores. A learner's message keeps every other character and is answered, rather
 * than failing as a whole over an invisible control character.
 */
function withoutNul(text: string): string {
  return text.includes('\u0000') ? text.replaceAll('\u0000', '') : text;
}

export function postgresMessages(database: PostgresDatabase): MessageRepository {
  // The current conversation leaves out replies superseded by a retry (SPEC §5).
  const of = (sessionId: string, includeSuperseded: boolean | undefined): SQL | undefined =>
    includeSuperseded ? eq(messages.sessionId, sessionId) : and(eq(messages.sessionId, sessionId), isNull(messages.supersededBy));
  return {
    async list(sessionId, options = {}) {
      const where = of(sessionId, options.includeSuperseded);
      if (options.last === undefined) return (await database.select().from(messages).where(where).orderBy(asc(messages.seq))).map(toStoredMessage);
      if (options.last <= 0) return [];
      const rows = await database.select().from(messages).where(where).orderBy(desc(messages.seq)).limit(options.last);
      return rows.reverse().map(toStoredMessage);
    },
    async count(sessionId) {
      return database.$count(messages, eq(messages.sessionId, sessionId));
    },
    async findByClientId(sessionId, clientMessageId) {
      const [row] = await database
        .select()
        .from(messages)
        .where(and(eq(messages.sessionId, sessionId), eq(messages.clientMessageId, clientMessageId)));
      return row ? toStoredMessage(row) : null;
    },
    async findOldestUnanswered(sessionId) {
      const [row] = await database
        .select()
        .from(messages)
        .where(and(eq(messages.sessionId, sessionId), ne(messages.role, 'tutor'), isNull(messages.answeredAt)))
        .orderBy(asc(messages.seq))
        .limit(1);
      return row ? toStoredMessage(row) : null;
    },
    async append(message) {
      // The session's row lock makes the next seq this unit's alone until it ends; read
      // committed then shows the seqs a unit that held the lock before committed — to the insert
      // after the lock, which numbers itself (one statement fewer than reading the seq first).
      // Not one statement with the lock: its snapshot would predate a holder's commit it waited for.
      await lockSession(database, message.sessionId);
      const [row] = await database
        .insert(messages)
        .values({
          id: message.id,
          sessionId: message.sessionId,
          seq: sql`(select coalesce(max(${messages.seq}), 0) + 1 from ${messages} where ${messages.sessionId} = ${message.sessionId})`,
          role: message.role,
          content: withoutNul(message.content),
          toolCall: message.toolCall,
          toolCallId: message.toolCallId ?? null,
          widgetAnswer: message.widgetAnswer,
          clientMessageId: message.clientMessageId ?? null,
          answeredAt: null,
          stopped: message.stopped ?? false,
          supersededBy: null,
          createdAt: message.createdAt,
        })
        .returning();
      return toStoredMessage(row!);
    },
    async markAnswered(messageId, at) {
      const rows = await database.update(messages).set({ answeredAt: at }).where(eq(messages.id, messageId)).returning({ id: messages.id });
      if (rows.length === 0) throw new StorageError('not_found', `message ${messageId} does not exist`);
    },
    async markSuperseded(messageId, byMessageId) {
      const rows = await database.update(messages).set({ supersededBy: byMessageId }).where(eq(messages.id, messageId)).returning({ id: messages.id });
      if (rows.length === 0) throw new StorageError('not_found', `message ${messageId} does not exist`);
    },
  };
}

export function postgresPendingActions(database: PostgresDatabase): PendingActionRepository {
  const pendingOf = async (sessionId: string) =>
    (
      await database
        .select()
        .from(pendingActions)
        .where(and(eq(pendingActions.sessionId, sessionId), eq(pendingActions.status, 'pending')))
    )[0];
  return {
    async getPending(sessionId) {
      const row = await pendingOf(sessionId);
      return row ? toPendingAction(row) : null;
    },
    async list(sessionId) {
      const rows = await database.select().from(pendingActions).where(eq(pendingActions.sessionId, sessionId)).orderBy(asc(pendingActions.createdAt), asc(pendingActions.id));
      return rows.map(toPendingAction);
    },
    async create(action) {
      // One pending action per session: checked under the session's row lock, and held by the
      // partial unique index pending_actions_one_pending_unique whatever path a write takes.
      await lockSession(database, action.sessionId);
      if (await pendingOf(action.sessionId)) {
        throw new StorageError('conflict', `session ${action.sessionId} already has a pending action`);
      }
      const [row] = await database
        .insert(pendingActions)
        .values({ ...action, status: 'pending' })
        .returning();
      return toPendingAction(row!);
    },
    async resolve(actionId, status, response, at) {
      const rows = await database
        .update(pendingActions)
        .set({ status, response, answeredAt: at })
        .where(and(eq(pendingActions.id, actionId), eq(pendingActions.status, 'pending')))
        .returning({ id: pendingActions.id });
      return rows.length > 0;
    },
  };
}

export function postgresAssessments(database: PostgresDatabase): AssessmentRepository {
  return {
    async listItems(sessionId) {
      const rows = await database.select().from(assessmentItems).where(eq(assessmentItems.sessionId, sessionId)).orderBy(asc(assessmentItems.position));
      return rows.map(toStoredItem);
    },
    async listResponses(sessionId) {
      const rows = await database.select().from(responses).where(eq(responses.sessionId, sessionId)).orderBy(asc(responses.answeredAt), asc(responses.itemId));
      // A response without test outcomes (a choice, or scored before they were kept) has no field at all.
      return rows.map(({ sessionId: _sessionId, testOutcomes, ...response }) => (testOutcomes ? { ...response, testOutcomes } : response));
    },
    async listAbilities(sessionId) {
      const rows = await database.select().from(abilityEstimates).where(eq(abilityEstimates.sessionId, sessionId)).orderBy(asc(abilityEstimates.domain));
      return rows.map(({ domain, ability, standardError, responses: count, updatedAt }) => ({ domain, ability, standardError, responses: count, updatedAt }));
    },
    async addItem(stored) {
      await database.insert(assessmentItems).values(itemColumns(stored));
    },
    async addResponse(sessionId, response) {
      await database.insert(responses).values({ sessionId, ...response });
    },
    async saveAbilities(sessionId, learnerId, report, at) {
      for (const row of [{ domain: overallDomain, ...report.overall }, ...report.domains]) {
        const values = { ability: row.ability, standardError: row.standardError, responses: row.responses, updatedAt: at };
        await database
          .insert(abilityEstimates)
          .values({ sessionId, learnerId, domain: row.domain, ...values })
          .onConflictDoUpdate({ target: [abilityEstimates.sessionId, abilityEstimates.domain], set: values });
      }
    },
  };
}

export function postgresLlmCalls(database: PostgresDatabase): LlmCallRepository {
  return {
    async listBySession(sessionId) {
      const rows = await database.select().from(llmCalls).where(eq(llmCalls.sessionId, sessionId)).orderBy(asc(llmCalls.createdAt), asc(llmCalls.id));
      return rows.map((row) => ({ ...row, outcome: row.outcome as StoredLlmCall['outcome'] }));
    },
    async listByLearner(learnerId, purpose) {
      const rows = await database
        .select()
        .from(llmCalls)
        .where(and(eq(llmCalls.learnerId, learnerId), purpose === undefined ? undefined : eq(llmCalls.purpose, purpose)))
        .orderBy(asc(llmCalls.createdAt), asc(llmCalls.id));
      return rows.map((row) => ({ ...row, outcome: row.outcome as StoredLlmCall['outcome'] }));
    },
    async tokensUsedSince(learnerId, since, purpose) {
      // One range scan of llm_calls_learner_created_idx; sum() of integers is a bigint, which node-postgres returns as text.
      const [row] = await database
        .select({ tokens: sql<string>`coalesce(sum(${llmCalls.inputTokens} + ${llmCalls.outputTokens}), 0)` })
        .from(llmCalls)
        .where(and(eq(llmCalls.learnerId, learnerId), gte(llmCalls.createdAt, since), purpose === undefined ? undefined : eq(llmCalls.purpose, purpose)));
      return Number(row?.tokens ?? 0);
    },
    async add(call) {
      await database.insert(llmCalls).values(call);
    },
  };
}
