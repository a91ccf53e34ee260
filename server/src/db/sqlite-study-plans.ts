/**
 * SQLite repositories of study plans and agent logs (see sqlite-repositories.ts for how they
 * run). Plans are validated on the way in and out (core/storage/study-plans.ts); agent log
 * outputs are stored as JSON text.
 */
import { asc, eq, sql } from 'drizzle-orm';
import { toJsonOutput, type AgentLogRepository, type StoredAgentLog } from '../core/storage/agent-logs';
import { StorageError } from '../core/storage/storage-error';
import { parseStoredPlan, readStoredPlan, type StoredStudyPlan, type StudyPlanRepository } from '../core/storage/study-plans';
import type { Database } from './database';
import { listOrder, visibleTo } from './sqlite-authored';
import { agentLogs, studyPlans } from './schema';

function toStoredPlan(row: typeof studyPlans.$inferSelect): StoredStudyPlan {
  const plan = readStoredPlan(row.id, row.planJson);
  return {
    id: row.id,
    ownerId: row.ownerId,
    builtIn: row.builtIn,
    shared: row.shared,
    title: row.title,
    plan,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export function sqliteStudyPlans(database: Database): StudyPlanRepository {
  const byId = database.select().from(studyPlans).where(eq(studyPlans.id, sql.placeholder('id'))).prepare();
  const get = (id: string) => byId.get({ id });
  return {
    async get(planId) {
      const row = get(planId);
      return row ? toStoredPlan(row) : null;
    },
    async listVisibleTo(learnerId) {
      return database
        .select()
        .from(studyPlans)
        .where(visibleTo(studyPlans, learnerId))
        .orderBy(...listOrder(studyPlans))
        .all()
        .map(toStoredPlan);
    },
    async listBuiltIn() {
      return database.select().from(studyPlans).where(eq(studyPlans.builtIn, true)).orderBy(asc(studyPlans.id)).all().map(toStoredPlan);
    },
    async create(input) {
      const plan = parseStoredPlan(input.plan);
      const row = database
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
        .returning()
        .get();
      return toStoredPlan(row);
    },
    async update(planId, changes, now) {
      const row = get(planId);
      if (!row) throw new StorageError('not_found', `study plan ${planId} does not exist`);
      if (row.builtIn) throw new StorageError('invalid_value', `study plan ${planId} is built in; it changes only through upsertBuiltIn`);
      const plan = changes.plan === undefined ? readStoredPlan(planId, row.planJson) : parseStoredPlan(changes.plan);
      const updated = database
        .update(studyPlans)
        .set({ planJson: plan as unknown as Record<string, unknown>, title: plan.title, shared: changes.shared ?? row.shared, updatedAt: now })
        .where(eq(studyPlans.id, planId))
        .returning()
        .get();
      return toStoredPlan(updated!);
    },
    async delete(planId) {
      return database.delete(studyPlans).where(eq(studyPlans.id, planId)).run().changes > 0;
    },
    async upsertBuiltIn(input, now) {
      const plan = parseStoredPlan(input.plan);
      const row = get(input.id);
      // Checked first rather than caught: a constraint error would abort a PostgreSQL transaction.
      if (row && !row.builtIn) throw new StorageError('conflict', `a learner's study plan with id ${input.id} already exists`);
      if (row && JSON.stringify(readStoredPlan(row.id, row.planJson)) === JSON.stringify(plan)) return toStoredPlan(row);
      const values = { ownerId: null, builtIn: true, shared: true, title: plan.title, planJson: plan as unknown as Record<string, unknown>, updatedAt: now };
      const written = row
        ? database.update(studyPlans).set(values).where(eq(studyPlans.id, input.id)).returning().get()
        : database.insert(studyPlans).values({ id: input.id, ...values, createdAt: now }).returning().get();
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

export function sqliteAgentLogs(database: Database): AgentLogRepository {
  const ofSession = database.select().from(agentLogs).where(eq(agentLogs.sessionId, sql.placeholder('sessionId'))).orderBy(asc(agentLogs.seq)).prepare();
  const nextSeq = database.$client.prepare('SELECT COALESCE(MAX(seq), 0) + 1 AS seq FROM agent_logs WHERE session_id = ?');
  return {
    async listForSession(sessionId) {
      return ofSession.all({ sessionId }).map(toStoredAgentLog);
    },
    async append(entry) {
      const output = toJsonOutput(entry.output);
      // One connection, one unit of work at a time: nobody can take this seq between the read and the insert.
      const { seq } = nextSeq.get(entry.sessionId) as { seq: number };
      const row = database
        .insert(agentLogs)
        .values({
          id: entry.id,
          sessionId: entry.sessionId,
          learnerId: entry.learnerId,
          seq,
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
        .returning()
        .get();
      return toStoredAgentLog(row);
    },
  };
}
