/**
 * The in-memory repositories of study plans and agent logs (see memory-repositories.ts for
 * the rules they follow: what the SQL schema enforces, enforced here too).
 */
import { toJsonOutput, type AgentLogRepository, type StoredAgentLog } from './agent-logs';
import { listOrder, visibleTo } from './memory-authored';
import { conflict, notFound, requireRow } from './memory-repositories';
import { copy, sortBy, type MemoryState } from './memory-state';
import { parseStoredPlan, type StoredStudyPlan, type StudyPlanRepository } from './study-plans';
import { StorageError } from './storage-error';

export function studyPlanRepository(state: MemoryState): StudyPlanRepository {
  return {
    async get(planId) {
      return copy(state.rows('studyPlans').get(planId) ?? null);
    },
    async listVisibleTo(learnerId) {
      return copy(listOrder(state.where('studyPlans', visibleTo(learnerId))));
    },
    async listBuiltIn() {
      return copy(sortBy(state.where('studyPlans', (plan) => plan.builtIn), (plan) => plan.id));
    },
    async create(input) {
      const plan = parseStoredPlan(input.plan);
      requireRow(state, 'learners', input.ownerId, 'learner');
      if (state.rows('studyPlans').has(input.id)) throw conflict(`study plan ${input.id}`);
      const row: StoredStudyPlan = {
        id: input.id,
        ownerId: input.ownerId,
        builtIn: false,
        shared: input.shared,
        title: plan.title,
        plan,
        createdAt: new Date(input.createdAt),
        updatedAt: new Date(input.createdAt),
      };
      state.put('studyPlans', row.id, row);
      return copy(row);
    },
    async update(planId, changes, now) {
      const row = state.rows('studyPlans').get(planId);
      if (!row) throw notFound(`study plan ${planId}`);
      if (row.builtIn) throw new StorageError('invalid_value', `study plan ${planId} is built in; it changes only through upsertBuiltIn`);
      const plan = changes.plan === undefined ? row.plan : parseStoredPlan(changes.plan);
      const next: StoredStudyPlan = { ...row, plan, title: plan.title, shared: changes.shared ?? row.shared, updatedAt: new Date(now) };
      state.put('studyPlans', planId, next);
      return copy(next);
    },
    async delete(planId) {
      if (!state.rows('studyPlans').has(planId)) return false;
      state.remove('studyPlans', [planId]);
      return true;
    },
    async upsertBuiltIn(input, now) {
      const plan = parseStoredPlan(input.plan);
      const row = state.rows('studyPlans').get(input.id);
      if (row && !row.builtIn) throw conflict(`a learner's study plan with id ${input.id}`);
      if (row && JSON.stringify(row.plan) === JSON.stringify(plan)) return copy(row);
      const next: StoredStudyPlan = {
        id: input.id,
        ownerId: null,
        builtIn: true,
        shared: true,
        title: plan.title,
        plan,
        createdAt: row ? row.createdAt : new Date(now),
        updatedAt: new Date(now),
      };
      state.put('studyPlans', next.id, next);
      return copy(next);
    },
  };
}

export function agentLogRepository(state: MemoryState): AgentLogRepository {
  const ofSession = (sessionId: string) => sortBy(state.where('agentLogs', (entry) => entry.sessionId === sessionId), (entry) => entry.seq);
  return {
    async listForSession(sessionId) {
      return copy(ofSession(sessionId));
    },
    async append(entry) {
      const output = toJsonOutput(entry.output);
      requireRow(state, 'sessions', entry.sessionId, 'session');
      requireRow(state, 'learners', entry.learnerId, 'learner');
      if (state.rows('agentLogs').has(entry.id)) throw conflict(`agent log ${entry.id}`);
      const row: StoredAgentLog = {
        id: entry.id,
        sessionId: entry.sessionId,
        learnerId: entry.learnerId,
        seq: (ofSession(entry.sessionId).at(-1)?.seq ?? 0) + 1,
        turn: entry.turn,
        agent: entry.agent,
        inputSummary: entry.inputSummary,
        output,
        latencyMs: entry.latencyMs,
        tokensIn: entry.tokensIn,
        tokensOut: entry.tokensOut,
        outcome: entry.outcome,
        createdAt: new Date(entry.createdAt),
      };
      state.put('agentLogs', row.id, row);
      return copy(row);
    },
  };
}
