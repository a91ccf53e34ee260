/** Contract: units of work — atomicity, isolation, dead handles, poisoning, values by copy (U1–U8). */
import { describe, expect, it } from 'vitest';
import { newCard } from '../../src/core/scheduler/fsrs';
import type { Storage, StorageReader, StorageTx } from '../../src/core/storage/storage';
import type { ContractContext } from './storage-contract';
import { isStorageError } from '../../src/core/storage/storage-error';
import { agentLog, assessmentSession, at, choiceAction, gate, learnerMessage, newLearner, point, recallSession, rejection, seedRecall, settle, storedItem, storedResponse, studyPlanContent, type RecallSeed } from './fixtures';

/** Everything the rollback test may touch, read in one unit. */
async function readEverything(storage: Storage, seed: RecallSeed) {
  return storage.read(async (reader: StorageReader) => ({
    learners: [await reader.learners.get(seed.learnerId), await reader.learners.get('l-new')],
    sets: await reader.recallSets.listByLearner(seed.learnerId),
    points: await reader.recallSets.listPointsOfSets([seed.setId, 'set-new']),
    cards: await reader.cards.listFor(seed.learnerId, [...seed.pointIds, 'p-new']),
    logs: await reader.cards.listReviewLogs('card-0'),
    sessions: await reader.sessions.listByLearner(seed.learnerId),
    checklist: await reader.checklists.list(seed.sessionId),
    messages: await reader.messages.list(seed.sessionId),
    actions: await reader.pendingActions.list(seed.sessionId),
    items: await reader.assessments.listItems('x-new'),
    responses: await reader.assessments.listResponses('x-new'),
    abilities: await reader.assessments.listAbilities('x-new'),
    calls: await reader.llmCalls.listBySession(seed.sessionId),
    studyPlans: await reader.studyPlans.listVisibleTo(seed.learnerId),
    agentLogs: await reader.agentLogs.listForSession(seed.sessionId),
  }));
}

export function transactionContract(context: ContractContext): void {
  describe('units of work', () => {
    it('commits what a transaction wrote and resolves with its value', async () => {
      const storage = context.storage();
      const value = await storage.transaction(async (tx) => {
        await tx.learners.create(newLearner('l1'));
        return { answer: 42 };
      });
      expect(value).toEqual({ answer: 42 });
      expect((await storage.read((reader) => reader.learners.get('l1')))?.id).toBe('l1');
    });

    it('rolls back every repository’s writes when the transaction throws (U1)', async () => {
      const storage = context.storage();
      const seed = await seedRecall(storage);
      await storage.transaction((tx) => tx.cards.save({ learnerId: seed.learnerId, pointId: 'a-p0', card: newCard(at(3)), newId: 'card-0' }));
      const before = await readEverything(storage, seed);
      const failure = new Error('the tutor call failed after the writes');
      const error = await rejection(
        storage.transaction(async (tx) => {
          await tx.learners.create(newLearner('l-new'));
          await tx.learners.update(seed.learnerId, { desiredRetention: 0.7 });
          await tx.recallSets.create({ id: 'set-new', learnerId: seed.learnerId, name: 'New', description: null, createdAt: at(4) });
          await tx.recallSets.addPoint(point('p-new', 'set-new', 0));
          await tx.recallSets.update(seed.setId, { name: 'Renamed' }, at(5));
          await tx.cards.save({ learnerId: seed.learnerId, pointId: 'a-p0', card: { ...newCard(at(3)), reps: 4 }, newId: 'unused' });
          await tx.cards.save({ learnerId: seed.learnerId, pointId: 'p-new', card: newCard(at(3)), newId: 'card-new' });
          await tx.cards.addReviewLog('log-new', { cardId: 'card-0', sessionId: seed.sessionId, rating: 'good', confidence: 0.7, previous: newCard(at(3)), reviewedAt: at(5) });
          await tx.sessions.update(seed.sessionId, { status: 'active', turn: 1 }, at(5));
          await tx.sessions.create(assessmentSession('x-new', seed.learnerId));
          await tx.checklists.markRecalled(seed.sessionId, 'a-p1', { confidence: 0.9, observation: 'yes', turn: 1, at: at(5) });
          await tx.messages.append(learnerMessage(seed.sessionId, 'm1', 'client-1'));
          await tx.messages.markAnswered('m1', at(6));
          await tx.pendingActions.create(choiceAction(seed.sessionId, 'w1'));
          await tx.assessments.addItem(storedItem('x-new', 'i1', 1));
          await tx.assessments.addResponse('x-new', storedResponse('i1', 20));
          await tx.assessments.saveAbilities('x-new', seed.learnerId, { overall: { ability: 1, standardError: 0.5, responses: 1 }, domains: [] }, at(20));
          await tx.llmCalls.add({ id: 'c1', sessionId: seed.sessionId, learnerId: seed.learnerId, purpose: 'tutor', provider: 'anthropic', model: 'm', inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, latencyMs: 5, outcome: 'ok', error: null, createdAt: at(5) });
          await tx.studyPlans.create({ id: 'plan-new', ownerId: seed.learnerId, shared: false, plan: studyPlanContent(), createdAt: at(5) });
          await tx.studyPlans.upsertBuiltIn({ id: 'built-in-new', plan: studyPlanContent('Built in') }, at(5));
          await tx.agentLogs.append(agentLog('entry-new', seed.sessionId, seed.learnerId, 1));
          await tx.recallSets.deletePoints(['a-p2']);
          throw failure;
        }),
      );
      expect(error).toBe(failure);
      expect(await readEverything(storage, seed)).toEqual(before);
    });

    it('aborts a transaction whose storage call failed, even when the work caught the error (U5)', async () => {
      const storage = context.storage();
      const { sessionId } = await seedRecall(storage);
      await storage.transaction((tx) => tx.messages.append(learnerMessage(sessionId, 'm1', 'client-1')));
      const error = await rejection(
        storage.transaction(async (tx) => {
          await tx.messages.append(learnerMessage(sessionId, 'm2'));
          await tx.messages.append(learnerMessage(sessionId, 'm3', 'client-1')).catch(() => undefined);
          // The transaction is aborted: a later call fails with the same error.
          expect(isStorageError(await rejection(tx.messages.count(sessionId)), 'conflict')).toBe(true);
          return 'swallowed';
        }),
      );
      expect(isStorageError(error, 'conflict')).toBe(true);
      expect((await storage.read((reader) => reader.messages.list(sessionId))).map((message) => message.id)).toEqual(['m1']);
    });

    it('kills a handle once its unit has ended: a leaked tx or reader cannot write or read (U4)', async () => {
      const storage = context.storage();
      const { sessionId } = await seedRecall(storage);
      let committed!: StorageTx;
      let rolledBack!: StorageTx;
      let reader!: StorageReader;
      await storage.transaction(async (tx) => {
        committed = tx;
      });
      await rejection(
        storage.transaction(async (tx) => {
          rolledBack = tx;
          throw new Error('rolled back');
        }),
      );
      await storage.read(async (handle) => {
        reader = handle;
      });
      // Another unit is open while the leaked handles are tried: nothing may slip into it.
      const hold = gate();
      const started = gate();
      const open = storage.transaction(async (tx) => {
        await tx.messages.append(learnerMessage(sessionId, 'inside'));
        started.open();
        await hold.opened;
        throw new Error('the open unit rolls back');
      });
      await started.opened;
      const attempts = await Promise.allSettled([
        rejection(committed.messages.append(learnerMessage(sessionId, 'leak-1'))),
        rejection(rolledBack.learners.create(newLearner('leak-2'))),
        rejection(reader.sessions.get(sessionId)),
        rejection(committed.loadSessionSnapshot(sessionId)),
      ]);
      hold.open();
      await rejection(open);
      const codes = attempts.map((attempt) => (attempt.status === 'fulfilled' ? (attempt.value as { code?: string }).code : 'no error'));
      expect(codes).toEqual(['transaction_closed', 'transaction_closed', 'transaction_closed', 'transaction_closed']);
      expect(await storage.read((handle) => handle.messages.count(sessionId))).toBe(0);
      expect(await storage.read((handle) => handle.learners.get('leak-2'))).toBeNull();
    });

    it('refuses writes through a read handle (U6)', async () => {
      const storage = context.storage();
      const error = await rejection(storage.read((reader) => (reader as StorageTx).learners.create(newLearner('l1'))));
      expect(isStorageError(error, 'read_only')).toBe(true);
      expect(await storage.read((reader) => reader.learners.get('l1'))).toBeNull();
    });

    it('never interleaves the writes of two transactions (U2)', async () => {
      const storage = context.storage();
      const { sessionId } = await seedRecall(storage);
      const hold = gate();
      const started = gate();
      const first = storage.transaction(async (tx) => {
        await tx.messages.append(learnerMessage(sessionId, 'first-1'));
        started.open();
        await hold.opened;
        await tx.messages.append(learnerMessage(sessionId, 'first-2'));
      });
      await started.opened;
      const second = storage.transaction(async (tx) => {
        const seen = (await tx.messages.list(sessionId)).map((message) => message.id);
        await tx.messages.append(learnerMessage(sessionId, 'second-1'));
        return seen;
      });
      await settle();
      hold.open();
      const [, seen] = await Promise.all([first, second]);
      // A serializing adapter runs the second after the first commits; a concurrent one
      // (PostgreSQL) lets it read only what was committed before — never half of the first.
      expect([[], ['first-1', 'first-2']]).toContainEqual(seen);
      const messages = await storage.read((reader) => reader.messages.list(sessionId));
      expect(messages.map((message) => [message.seq, message.id])).toEqual([
        [1, 'first-1'],
        [2, 'first-2'],
        [3, 'second-1'],
      ]);
    });

    it('never shows a transaction’s uncommitted writes to another unit, nor writes that roll back (U2)', async () => {
      const storage = context.storage();
      const { sessionId } = await seedRecall(storage);
      const hold = gate();
      const started = gate();
      const doomed = storage.transaction(async (tx) => {
        await tx.learners.create(newLearner('ghost'));
        await tx.messages.append(learnerMessage(sessionId, 'ghost-message'));
        await tx.sessions.update(sessionId, { turn: 5 }, at(9));
        started.open();
        await hold.opened;
        throw new Error('rolled back');
      });
      await started.opened;
      const look = async (reader: StorageReader) => ({
        learner: await reader.learners.get('ghost'),
        messages: await reader.messages.count(sessionId),
        turn: (await reader.sessions.get(sessionId))?.turn,
      });
      const byReader = storage.read(look);
      const byTransaction = storage.transaction(look);
      const snapshot = storage.loadSessionSnapshot(sessionId);
      await settle();
      hold.open();
      await expect(doomed).rejects.toThrow('rolled back');
      const nothing = { learner: null, messages: 0, turn: 0 };
      expect(await byReader).toEqual(nothing);
      expect(await byTransaction).toEqual(nothing);
      const seen = await snapshot;
      expect([seen?.messageCount, seen?.session.turn]).toEqual([0, 0]);
    });

    it('never undoes another transaction’s committed writes when one rolls back, in either order (U3)', async () => {
      const storage = context.storage();
      const hold = gate();
      const started = gate();
      const doomed = storage.transaction(async (tx) => {
        await tx.learners.create(newLearner('doomed'));
        started.open();
        await hold.opened;
        throw new Error('undo');
      });
      await started.opened;
      const kept = storage.transaction(async (tx) => {
        await tx.learners.create(newLearner('kept'));
      });
      await settle();
      hold.open();
      await expect(doomed).rejects.toThrow('undo');
      await kept;
      await storage.transaction((tx) => tx.learners.create(newLearner('kept-too')));
      await rejection(
        storage.transaction(async (tx) => {
          await tx.learners.create(newLearner('doomed-too'));
          throw new Error('undo');
        }),
      );
      const ids = await storage.read(async (reader) => Promise.all(['doomed', 'kept', 'kept-too', 'doomed-too'].map(async (id) => (await reader.learners.get(id))?.id ?? null)));
      expect(ids).toEqual([null, 'kept', 'kept-too', null]);
    });

    it('passes records by value: changing an input or a returned record afterwards changes nothing stored (U7)', async () => {
      const storage = context.storage();
      const seed = await seedRecall(storage);
      const input = recallSession('s2', seed.learnerId, null);
      const created = await storage.transaction((tx) => tx.sessions.create(input));
      input.title = 'changed input';
      input.createdAt.setTime(0);
      (input.typeState as { probeIndex: number }).probeIndex = 9;
      created.title = 'changed output';
      created.updatedAt.setTime(0);
      const read = await storage.read((reader) => reader.sessions.get('s2'));
      read!.title = 'changed read';
      read!.createdAt.setTime(0);
      expect(await storage.read((reader) => reader.sessions.get('s2'))).toMatchObject({
        title: 'Session s2',
        createdAt: at(2),
        updatedAt: at(2),
        typeState: { probeIndex: 0 },
      });
    });

    it('refuses work once closed (U8)', async () => {
      const storage = context.storage();
      await storage.close();
      expect(isStorageError(await rejection(storage.transaction(async () => 1)), 'closed')).toBe(true);
      expect(isStorageError(await rejection(storage.read(async () => 1)), 'closed')).toBe(true);
    });
  });
}
