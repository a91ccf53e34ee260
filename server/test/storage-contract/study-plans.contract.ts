/** Contract: study plans (own, shared, built-in) and agent logs (R9, R10). */
import { describe, expect, it } from 'vitest';
import type { StoredStudyPlan } from '../../src/core/storage/study-plans';
import { isStorageError } from '../../src/core/storage/storage-error';
import type { ContractContext } from './storage-contract';
import { agentLog, at, newLearner, rejection, seedRecall, studyPlanContent } from './fixtures';

const codeOf = async (promise: Promise<unknown>) => ((await rejection(promise)) as { code?: string }).code;

export function studyPlanContract(context: ContractContext): void {
  describe('study plans', () => {
    /** Learners a and b; a has a private and a shared plan, b a private one; two built-ins. */
    async function seedPlans() {
      const storage = context.storage();
      await storage.transaction(async (tx) => {
        await tx.learners.create(newLearner('a'));
        await tx.learners.create(newLearner('b'));
        await tx.studyPlans.create({ id: 'a-private', ownerId: 'a', shared: false, plan: studyPlanContent('A private'), createdAt: at(1) });
        await tx.studyPlans.create({ id: 'a-shared', ownerId: 'a', shared: true, plan: studyPlanContent('A shared'), createdAt: at(2) });
        await tx.studyPlans.create({ id: 'b-private', ownerId: 'b', shared: false, plan: studyPlanContent('B private'), createdAt: at(3) });
        await tx.studyPlans.upsertBuiltIn({ id: 'zeta', plan: studyPlanContent('Built-in Alpha') }, at(0));
        await tx.studyPlans.upsertBuiltIn({ id: 'alpha', plan: studyPlanContent('Built-in Zeta') }, at(0));
      });
      return storage;
    }

    it('round-trips a plan; a learner sees their own, the shared and the built-in plans, never another’s private one (R9)', async () => {
      const storage = await seedPlans();
      const expected: StoredStudyPlan = {
        id: 'a-private',
        ownerId: 'a',
        builtIn: false,
        shared: false,
        title: 'A private',
        plan: studyPlanContent('A private'),
        createdAt: at(1),
        updatedAt: at(1),
      };
      await storage.read(async (reader) => {
        expect(await reader.studyPlans.get('a-private')).toEqual(expected);
        expect(await reader.studyPlans.get('nothing')).toBeNull();
        // Learners' plans newest first, then built-ins by title.
        expect((await reader.studyPlans.listVisibleTo('a')).map((plan) => plan.id)).toEqual(['a-shared', 'a-private', 'zeta', 'alpha']);
        expect((await reader.studyPlans.listVisibleTo('b')).map((plan) => plan.id)).toEqual(['b-private', 'a-shared', 'zeta', 'alpha']);
        expect((await reader.studyPlans.listVisibleTo('stranger')).map((plan) => plan.id)).toEqual(['a-shared', 'zeta', 'alpha']);
        expect((await reader.studyPlans.listBuiltIn()).map((plan) => [plan.id, plan.ownerId, plan.builtIn, plan.shared])).toEqual([
          ['alpha', null, true, true],
          ['zeta', null, true, true],
        ]);
      });
    });

    it('updates the plan and the shared flag, the title follows the plan and updatedAt moves; delete removes it', async () => {
      const storage = await seedPlans();
      const renamed = { ...studyPlanContent('A renamed'), allowExtension: true };
      const updated = await storage.transaction((tx) => tx.studyPlans.update('a-private', { plan: renamed, shared: true }, at(30)));
      expect(updated).toEqual({ id: 'a-private', ownerId: 'a', builtIn: false, shared: true, title: 'A renamed', plan: renamed, createdAt: at(1), updatedAt: at(30) });
      const unshared = await storage.transaction((tx) => tx.studyPlans.update('a-private', { shared: false }, at(31)));
      expect(unshared).toEqual({ ...updated, shared: false, updatedAt: at(31) });
      expect(await storage.read((reader) => reader.studyPlans.get('a-private'))).toEqual(unshared);
      expect(await storage.transaction(async (tx) => [await tx.studyPlans.delete('a-private'), await tx.studyPlans.delete('a-private')])).toEqual([true, false]);
      expect(await storage.read((reader) => reader.studyPlans.get('a-private'))).toBeNull();
    });

    it('refuses an invalid plan (invalid_value), an unknown owner (missing_reference), a taken id (conflict), an unknown plan (not_found), writing nothing', async () => {
      const storage = await seedPlans();
      const invalid = { ...studyPlanContent(), steps: [] };
      expect(await codeOf(storage.transaction((tx) => tx.studyPlans.create({ id: 'bad', ownerId: 'a', shared: false, plan: invalid, createdAt: at(5) })))).toBe('invalid_value');
      expect(await codeOf(storage.transaction((tx) => tx.studyPlans.update('a-private', { plan: invalid }, at(5))))).toBe('invalid_value');
      expect(await codeOf(storage.transaction((tx) => tx.studyPlans.create({ id: 'bad', ownerId: 'ghost', shared: false, plan: studyPlanContent(), createdAt: at(5) })))).toBe(
        'missing_reference',
      );
      expect(await codeOf(storage.transaction((tx) => tx.studyPlans.create({ id: 'a-shared', ownerId: 'b', shared: false, plan: studyPlanContent(), createdAt: at(5) })))).toBe(
        'conflict',
      );
      expect(await codeOf(storage.transaction((tx) => tx.studyPlans.update('ghost', { shared: true }, at(5))))).toBe('not_found');
      await storage.read(async (reader) => {
        expect(await reader.studyPlans.get('bad')).toBeNull();
        expect((await reader.studyPlans.get('a-private'))?.plan).toEqual(studyPlanContent('A private'));
        expect((await reader.studyPlans.get('a-shared'))?.ownerId).toBe('a');
      });
    });

    it('installs a built-in plan once, refreshes it only when it changed, and keeps learners from writing it', async () => {
      const storage = await seedPlans();
      const again = await storage.transaction((tx) => tx.studyPlans.upsertBuiltIn({ id: 'zeta', plan: studyPlanContent('Built-in Alpha') }, at(50)));
      expect(again).toMatchObject({ createdAt: at(0), updatedAt: at(0) });
      const revised = { ...studyPlanContent('Built-in Alpha, revised'), teachingApproach: 'Revised.' };
      const changed = await storage.transaction((tx) => tx.studyPlans.upsertBuiltIn({ id: 'zeta', plan: revised }, at(60)));
      expect(changed).toEqual({ id: 'zeta', ownerId: null, builtIn: true, shared: true, title: 'Built-in Alpha, revised', plan: revised, createdAt: at(0), updatedAt: at(60) });
      expect(await storage.read((reader) => reader.studyPlans.get('zeta'))).toEqual(changed);
      // A learner's plan never becomes built-in, and a built-in plan changes only through upsertBuiltIn.
      expect(await codeOf(storage.transaction((tx) => tx.studyPlans.upsertBuiltIn({ id: 'a-private', plan: studyPlanContent() }, at(61))))).toBe('conflict');
      expect(await codeOf(storage.transaction((tx) => tx.studyPlans.update('zeta', { shared: false }, at(61))))).toBe('invalid_value');
      expect(await storage.read((reader) => reader.studyPlans.get('a-private'))).toMatchObject({ builtIn: false, ownerId: 'a' });
    });
  });

  describe('agent logs', () => {
    it('numbers entries 1, 2, 3… per session and lists them in that order, outputs as JSON gives them (R10)', async () => {
      const storage = context.storage();
      const a = await seedRecall(storage, 'a');
      const b = await seedRecall(storage, 'b');
      const appended = await storage.transaction(async (tx) => [
        await tx.agentLogs.append(agentLog('e1', a.sessionId, a.learnerId, 0, { agent: 'welcome', output: 'Hello! Ready?', tokensIn: null, tokensOut: null })),
        await tx.agentLogs.append(agentLog('e2', b.sessionId, b.learnerId, 1)),
        // Same turn and same instant as the next one: the order is the order of appending.
        await tx.agentLogs.append(agentLog('e3', a.sessionId, a.learnerId, 1, { agent: 'safety', output: { safe: true, category: null, skipped: undefined }, createdAt: at(20) })),
        await tx.agentLogs.append(agentLog('e4', a.sessionId, a.learnerId, 1, { output: null, outcome: 'fallback', latencyMs: null, createdAt: at(20) })),
      ]);
      expect(appended.map((entry) => [entry.id, entry.seq])).toEqual([['e1', 1], ['e2', 1], ['e3', 2], ['e4', 3]]);
      expect(appended[2]).toEqual({ ...agentLog('e3', a.sessionId, a.learnerId, 1, { agent: 'safety', output: { safe: true, category: null }, createdAt: at(20) }), seq: 2 });
      const listed = await storage.read((reader) => reader.agentLogs.listForSession(a.sessionId));
      expect(listed).toEqual([appended[0], appended[2], appended[3]]);
      expect(listed[0]).toMatchObject({ agent: 'welcome', output: 'Hello! Ready?', tokensIn: null, tokensOut: null, turn: 0 });
      expect(listed[2]).toMatchObject({ output: null, outcome: 'fallback', latencyMs: null });
      expect(await storage.read((reader) => reader.agentLogs.listForSession('nothing'))).toEqual([]);
    });

    it('refuses an unknown session or learner (missing_reference), a taken id (conflict), an output JSON cannot hold (invalid_value)', async () => {
      const storage = context.storage();
      const seed = await seedRecall(storage);
      await storage.transaction((tx) => tx.agentLogs.append(agentLog('e1', seed.sessionId, seed.learnerId, 1)));
      expect(await codeOf(storage.transaction((tx) => tx.agentLogs.append(agentLog('e2', 'ghost', seed.learnerId, 1))))).toBe('missing_reference');
      expect(await codeOf(storage.transaction((tx) => tx.agentLogs.append(agentLog('e2', seed.sessionId, 'ghost', 1))))).toBe('missing_reference');
      expect(await codeOf(storage.transaction((tx) => tx.agentLogs.append(agentLog('e1', seed.sessionId, seed.learnerId, 2))))).toBe('conflict');
      expect(await codeOf(storage.transaction((tx) => tx.agentLogs.append(agentLog('e3', seed.sessionId, seed.learnerId, 2, { output: { tokens: 10n } }))))).toBe('invalid_value');
      expect((await storage.read((reader) => reader.agentLogs.listForSession(seed.sessionId))).map((entry) => entry.id)).toEqual(['e1']);
    });
  });
}
