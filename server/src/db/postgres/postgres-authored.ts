/**
 * PostgreSQL repositories of authored documents — study plans and surveys, with survey
 * responses — and of agent logs (see postgres-repositories.ts for how they run). Mirrors
 * sqlite-study-plans.ts, sqlite-surveys.ts and sqlite-authored.ts.
 */
import { asc, desc, eq, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { toJsonOutput, type AgentLogRepository, type StoredAgentLog } from '../../core/storage/agent-logs';
import { StorageError } from '../../core/storage/storage-error';
import { parseStoredPlan, readStoredPlan, type StoredStudyPlan, type StudyPlanRepository } from '../../core/storage/study-plans';
import { parseStoredSurvey, readStoredAnswer, readStoredSurvey, type StoredSurvey, type StoredSurveyResponse, type SurveyRepository } from '../../core/storage/surveys';
import type { PostgresDatabase } from './postgres-database';
import { lockSession } from './postgres-repositories';
import { agentLogs, studyPlans, surveyResponses, surveys } from './schema';

interface AuthoredColumns {
  id: PgColumn;
  ownerId: PgColumn;
  shared: PgColumn;
  builtIn: PgColumn;
  title: PgColumn;
  updatedAt: PgColumn;
}

/** Rows `learnerId` may read: their own, shared ones and built-in ones. */
function visibleTo(table: AuthoredColumns, learnerId: string): SQL | undefined {
  return or(eq(table.ownerId, learnerId), eq(table.shared, true), eq(table.builtIn, true));
}

/** Learners' documents first, most recently updated first; built-in ones last, by title; ties by id. */
function listOrder(table: AuthoredColumns): SQL[] {
  return [
    asc(table.builtIn),
    // NULL for built-in rows, which the first key has already put after every learner's row.
    desc(sql`CASE WHEN ${table.builtIn} THEN NULL ELSE ${table.updatedAt} END`),
    asc(sql`CASE WHEN ${table.builtIn} THEN ${table.title} ELSE '' END`),
    asc(table.id),
  ];
}

/**
 * The row of a built-in document, locked, inserted first when missing. Two instances starting
 * together both upsert the same built-ins: `ON CONFLICT DO NOTHING` lets the second wait for
 * the first rather than fail (and abort its transaction), then it reads the row the first wrote.
 */
async function lockOrInsert<Row>(select: () => Promise<Row | undefined>, insert: () => Promise<Row | undefined>): Promise<{ row: Row; inserted: boolean }> {
  const existing = await select();
  if (existing) return { row: existing, inserted: false };
  const inserted = await insert();
  if (inserted) return { row: inserted, inserted: true };
  const raced = await select();
  if (!raced) throw new StorageError('conflict', 'a built-in document was inserted and removed while it was being written');
  return { row: raced, inserted: false };
}

/** JSON with object keys sorted: jsonb keeps its own key order, so "unchanged" compares content, not order. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner) ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : inner,
  );
}

function toStoredPlan(row: typeof studyPlans.$inferSelect): StoredStudyPlan {
  const plan = readStoredPlan(row.id, row.planJson);
  return { id: row.id, ownerId: row.ownerId, builtIn: row.builtIn, shared: row.shared, title: row.title, plan, createdAt: row.createdAt, updatedAt: row.updatedAt };
}

export function postgresStudyPlans(database: PostgresDatabase): StudyPlanRepository {
  const get = async (id: string, lock = false) => {
    const query = database.select().from(studyPlans).where(eq(studyPlans.id, id));
    return (await (lock ? query.for('update') : query))[0];
  };
  return {
    async get(planId) {
      const row = await get(planId);
      return row ? toStoredPlan(row) : null;
    },
    async listVisibleTo(learnerId) {
      const rows = await database
        .select()
        .from(studyPlans)
        .where(visibleTo(studyPlans, learnerId))
        .orderBy(...listOrder(studyPlans));
      return rows.map(toStoredPlan);
    },
    async listBuiltIn() {
      return (await database.select().from(studyPlans).where(eq(studyPlans.builtIn, true)).orderBy(asc(studyPlans.id))).map(toStoredPlan);
    },
    async create(input) {
      const plan = parseStoredPlan(input.plan);
      const [row] = await database
        .insert(studyPlans)
        .values({
          id: input.id,
          ownerId: input.ownerId,
          builtIn: false,
          shared: input.shared,
          title: plan.title,
          planJson: plan as unknown as Record<string, unknown>,
          createdAt: input.createdAt,
          updatedAt: input.createdAt,
        })
        .returning();
      return toStoredPlan(row!);
    },
    async update(planId, changes, now) {
      const row = await get(planId, true);
      if (!row) throw new StorageError('not_found', `study plan ${planId} does not exist`);
      if (row.builtIn) throw new StorageError('invalid_value', `study plan ${planId} is built in; it changes only through upsertBuiltIn`);
      const plan = changes.plan === undefined ? readStoredPlan(planId, row.planJson) : parseStoredPlan(changes.plan);
      const [updated] = await database
        .update(studyPlans)
        .set({ planJson: plan as unknown as Record<string, unknown>, title: plan.title, shared: changes.shared ?? row.shared, updatedAt: now })
        .where(eq(studyPlans.id, planId))
        .returning();
      return toStoredPlan(updated!);
    },
    async delete(planId) {
      return (await database.delete(studyPlans).where(eq(studyPlans.id, planId)).returning({ id: studyPlans.id })).length > 0;
    },
    async upsertBuiltIn(input, now) {
      const plan = parseStoredPlan(input.plan);
      const values = { ownerId: null, builtIn: true, shared: true, title: plan.title, planJson: plan as unknown as Record<string, unknown>, updatedAt: now };
      const { row, inserted } = await lockOrInsert(
        () => get(input.id, true),
        async () => (await database.insert(studyPlans).values({ id: input.id, ...values, createdAt: now }).onConflictDoNothing({ target: studyPlans.id }).returning())[0],
      );
      if (inserted) return toStoredPlan(row);
      if (!row.builtIn) throw new StorageError('conflict', `a learner's study plan with id ${input.id} already exists`);
      if (canonicalJson(readStoredPlan(row.id, row.planJson)) === canonicalJson(plan)) return toStoredPlan(row);
      const [written] = await database.update(studyPlans).set(values).where(eq(studyPlans.id, input.id)).returning();
      return toStoredPlan(written!);
    },
  };
}

function toStoredAgentLog(row: typeof agentLogs.$inferSelect): StoredAgentLog {
  return {
    id: row.id,
    sessionId: row.sessionId,
    learnerId: row.learnerId,
    seq: row.seq,
    turn: row.turn,
    agent: row.agent as StoredAgentLog['agent'],
    inputSummary: row.inputSummary,
    output: row.outputJson ?? null,
    latencyMs: row.latencyMs,
    tokensIn: row.tokensIn,
    tokensOut: row.tokensOut,
    outcome: row.outcome as StoredAgentLog['outcome'],
    createdAt: row.createdAt,
  };
}

export function postgresAgentLogs(database: PostgresDatabase): AgentLogRepository {
  return {
    async listForSession(sessionId) {
      return (await database.select().from(agentLogs).where(eq(agentLogs.sessionId, sessionId)).orderBy(asc(agentLogs.seq))).map(toStoredAgentLog);
    },
    async append(entry) {
      const output = toJsonOutput(entry.output);
      // As messages.append: the session's row lock makes the next seq this unit's alone.
      await lockSession(database, entry.sessionId);
      const [next] = await database.select({ seq: sql<number>`coalesce(max(${agentLogs.seq}), 0) + 1` }).from(agentLogs).where(eq(agentLogs.sessionId, entry.sessionId));
      const [row] = await database
        .insert(agentLogs)
        .values({
          id: entry.id,
          sessionId: entry.sessionId,
          learnerId: entry.learnerId,
          seq: Number(next!.seq),
          turn: entry.turn,
          agent: entry.agent,
          inputSummary: entry.inputSummary,
          outputJson: output,
          latencyMs: entry.latencyMs,
          tokensIn: entry.tokensIn,
          tokensOut: entry.tokensOut,
          outcome: entry.outcome,
          createdAt: entry.createdAt,
        })
        .returning();
      return toStoredAgentLog(row!);
    },
  };
}

function toStoredSurvey(row: typeof surveys.$inferSelect): StoredSurvey {
  return { id: row.id, ownerId: row.ownerId, builtIn: row.builtIn, shared: row.shared, title: row.title, survey: readStoredSurvey(row.id, row.surveyJson), createdAt: row.createdAt, updatedAt: row.updatedAt };
}

function toStoredResponse(row: typeof surveyResponses.$inferSelect): StoredSurveyResponse {
  return {
    id: row.id,
    surveyId: row.surveyId,
    sessionId: row.sessionId,
    learnerId: row.learnerId,
    questionId: row.questionId,
    answer: readStoredAnswer(row.id, row.answerJson ?? null),
    answerText: row.answerText,
    answeredAt: row.answeredAt,
  };
}

export function postgresSurveys(database: PostgresDatabase): SurveyRepository {
  const get = async (id: string, lock = false) => {
    const query = database.select().from(surveys).where(eq(surveys.id, id));
    return (await (lock ? query.for('update') : query))[0];
  };
  return {
    async get(surveyId) {
      const row = await get(surveyId);
      return row ? toStoredSurvey(row) : null;
    },
    async listVisibleTo(learnerId) {
      const rows = await database
        .select()
        .from(surveys)
        .where(visibleTo(surveys, learnerId))
        .orderBy(...listOrder(surveys));
      return rows.map(toStoredSurvey);
    },
    async listBuiltIn() {
      return (await database.select().from(surveys).where(eq(surveys.builtIn, true)).orderBy(asc(surveys.id))).map(toStoredSurvey);
    },
    async listResponses(surveyId) {
      const rows = await database.select().from(surveyResponses).where(eq(surveyResponses.surveyId, surveyId)).orderBy(asc(surveyResponses.answeredAt), asc(surveyResponses.id));
      return rows.map(toStoredResponse);
    },
    async create(input) {
      const survey = parseStoredSurvey(input.survey);
      const [row] = await database
        .insert(surveys)
        .values({ id: input.id, ownerId: input.ownerId, builtIn: false, shared: input.shared, title: survey.title, surveyJson: survey as unknown as Record<string, unknown>, createdAt: input.createdAt, updatedAt: input.createdAt })
        .returning();
      return toStoredSurvey(row!);
    },
    async update(surveyId, changes, now) {
      const row = await get(surveyId, true);
      if (!row) throw new StorageError('not_found', `survey ${surveyId} does not exist`);
      if (row.builtIn) throw new StorageError('invalid_value', `survey ${surveyId} is built in; it changes only through upsertBuiltIn`);
      const survey = changes.survey === undefined ? readStoredSurvey(surveyId, row.surveyJson) : parseStoredSurvey(changes.survey);
      const [updated] = await database
        .update(surveys)
        .set({ surveyJson: survey as unknown as Record<string, unknown>, title: survey.title, shared: changes.shared ?? row.shared, updatedAt: now })
        .where(eq(surveys.id, surveyId))
        .returning();
      return toStoredSurvey(updated!);
    },
    async delete(surveyId) {
      await database.delete(surveyResponses).where(eq(surveyResponses.surveyId, surveyId));
      return (await database.delete(surveys).where(eq(surveys.id, surveyId)).returning({ id: surveys.id })).length > 0;
    },
    async upsertBuiltIn(input, now) {
      const survey = parseStoredSurvey(input.survey);
      const values = { ownerId: null, builtIn: true, shared: true, title: survey.title, surveyJson: survey as unknown as Record<string, unknown>, updatedAt: now };
      const { row, inserted } = await lockOrInsert(
        () => get(input.id, true),
        async () => (await database.insert(surveys).values({ id: input.id, ...values, createdAt: now }).onConflictDoNothing({ target: surveys.id }).returning())[0],
      );
      if (inserted) return toStoredSurvey(row);
      if (!row.builtIn) throw new StorageError('conflict', `a learner's survey with id ${input.id} already exists`);
      if (canonicalJson(readStoredSurvey(row.id, row.surveyJson)) === canonicalJson(survey)) return toStoredSurvey(row);
      const [written] = await database.update(surveys).set(values).where(eq(surveys.id, input.id)).returning();
      return toStoredSurvey(written!);
    },
    async addResponse(input) {
      const [row] = await database
        .insert(surveyResponses)
        .values({
          id: input.id,
          surveyId: input.surveyId,
          sessionId: input.sessionId,
          learnerId: input.learnerId,
          questionId: input.questionId,
          answerJson: input.answer,
          answerText: input.answerText,
          answeredAt: input.answeredAt,
        })
        .returning();
      return toStoredResponse(row!);
    },
  };
}
