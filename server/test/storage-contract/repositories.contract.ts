/** Contract: learners, recall sets, cards, sessions and checklists round-trip and keep their keys. */
import { describe, expect, it } from 'vitest';
import { newCard } from '../../src/core/scheduler/fsrs';
import type { StoredSession } from '../../src/core/storage/sessions';
import type { ContractContext } from './storage-contract';
import { isStorageError } from '../../src/core/storage/storage-error';
import { assessmentSession, at, newLearner, point, recallSession, rejection, seedRecall } from './fixtures';

export function repositoryContract(context: ContractContext): void {
  describe('learners', () => {
    it('round-trips a learner, found by id and by username in any case', async () => {
      const storage = context.storage();
      const created = await storage.transaction((tx) => tx.learners.create(newLearner('l1', 'Ada')));
      const expected = { id: 'l1', username: 'Ada', passwordHash: 'hash-l1', desiredRetention: 0.9, tokenVersion: 0, createdAt: at(0) };
      expect(created).toEqual({ ok: true, value: expected });
      expect(await storage.read((reader) => reader.learners.get('l1'))).toEqual(expected);
      expect(await storage.read((reader) => reader.learners.findByUsername('aDA'))).toEqual(expected);
      expect(await storage.read((reader) => reader.learners.get('nobody'))).toBeNull();
    });

    it('answers a username taken in another case with a result, writing nothing', async () => {
      const storage = context.storage();
      await storage.transaction((tx) => tx.learners.create(newLearner('l1', 'Ada')));
      const second = await storage.transaction((tx) => tx.learners.create(newLearner('l2', 'ADA')));
      expect(second).toEqual({ ok: false, error: 'username_taken' });
      expect(await storage.read((reader) => reader.learners.get('l2'))).toBeNull();
    });

    it('updates the desired retention; an unknown learner is not_found', async () => {
      const storage = context.storage();
      await storage.transaction((tx) => tx.learners.create({ ...newLearner('l1'), desiredRetention: 0.85 }));
      const updated = await storage.transaction((tx) => tx.learners.update('l1', { desiredRetention: 0.95 }));
      expect(updated.desiredRetention).toBe(0.95);
      expect((await storage.read((reader) => reader.learners.get('l1')))?.desiredRetention).toBe(0.95);
      const error = await rejection(storage.transaction((tx) => tx.learners.update('ghost', { desiredRetention: 0.8 })));
      expect(isStorageError(error, 'not_found')).toBe(true);
    });
  });

  describe('recall sets', () => {
    it('round-trips sets and points; a learner’s sets come most recently updated first, points by position', async () => {
      const storage = context.storage();
      await storage.transaction(async (tx) => {
        await tx.learners.create(newLearner('l1'));
        await tx.recallSets.create({ id: 's1', learnerId: 'l1', name: 'One', description: 'first', createdAt: at(1) });
        await tx.recallSets.create({ id: 's2', learnerId: 'l1', name: 'Two', description: null, createdAt: at(2) });
        await tx.recallSets.addPoint(point('p1', 's1', 1));
        await tx.recallSets.addPoint(point('p0', 's1', 0));
        await tx.recallSets.addPoint(point('q0', 's2', 0));
      });
      expect((await storage.read((reader) => reader.recallSets.listByLearner('l1'))).map((set) => set.id)).toEqual(['s2', 's1']);
      const renamed = await storage.transaction((tx) => tx.recallSets.update('s1', { name: 'One, renamed' }, at(30)));
      expect(renamed).toEqual({ id: 's1', learnerId: 'l1', name: 'One, renamed', description: 'first', createdAt: at(1), updatedAt: at(30) });
      await storage.read(async (reader) => {
        expect(await reader.recallSets.get('s1')).toEqual(renamed);
        expect((await reader.recallSets.listByLearner('l1')).map((set) => set.id)).toEqual(['s1', 's2']);
        expect(await reader.recallSets.listPoints('s1')).toEqual([point('p0', 's1', 0), point('p1', 's1', 1)]);
        expect((await reader.recallSets.listPointsOfSets(['s2', 's1'])).map((entry) => entry.id)).toEqual(['p0', 'p1', 'q0']);
        expect(await reader.recallSets.listPointsOfSets([])).toEqual([]);
        expect(await reader.recallSets.get('nothing')).toBeNull();
      });
    });

    it('rewrites a point in place; deleting points takes their checklist entries, cards and review logs along (R6)', async () => {
      const storage = context.storage();
      const seed = await seedRecall(storage);
      await storage.transaction(async (tx) => {
        const cardId = await tx.cards.save({ learnerId: seed.learnerId, pointId: 'a-p1', card: newCard(at(5)), newId: 'card-1' });
        await tx.cards.addReviewLog('log-1', { cardId, sessionId: seed.sessionId, rating: 'good', confidence: 0.7, previous: newCard(at(5)), reviewedAt: at(5) });
        await tx.recallSets.updatePoint('a-p0', { content: 'rewritten', context: 'why', position: 5 });
        await tx.recallSets.deletePoints(['a-p1', 'unknown-point']);
      });
      await storage.read(async (reader) => {
        expect(await reader.recallSets.listPoints(seed.setId)).toEqual([point('a-p2', seed.setId, 2), { ...point('a-p0', seed.setId, 0), content: 'rewritten', context: 'why', position: 5 }]);
        expect((await reader.checklists.list(seed.sessionId)).map((entry) => entry.pointId)).toEqual(['a-p0', 'a-p2']);
        expect(await reader.cards.get(seed.learnerId, 'a-p1')).toBeNull();
        expect(await reader.cards.listReviewLogs('card-1')).toEqual([]);
      });
    });

    it('deleting a set removes its points, checklist entries and cards; its sessions stay, unlinked (R6)', async () => {
      const storage = context.storage();
      const seed = await seedRecall(storage);
      await storage.transaction((tx) => tx.cards.save({ learnerId: seed.learnerId, pointId: 'a-p0', card: newCard(at(5)), newId: 'card-1' }));
      expect(await storage.transaction((tx) => tx.recallSets.delete(seed.setId))).toBe(true);
      expect(await storage.transaction((tx) => tx.recallSets.delete(seed.setId))).toBe(false);
      await storage.read(async (reader) => {
        expect(await reader.recallSets.get(seed.setId)).toBeNull();
        expect(await reader.recallSets.listPoints(seed.setId)).toEqual([]);
        expect(await reader.checklists.list(seed.sessionId)).toEqual([]);
        expect(await reader.cards.get(seed.learnerId, 'a-p0')).toBeNull();
        expect((await reader.sessions.get(seed.sessionId))?.recallSetId).toBeNull();
      });
    });

    it('refuses a set of an unknown learner and a point of an unknown set (missing_reference)', async () => {
      const storage = context.storage();
      const noLearner = await rejection(storage.transaction((tx) => tx.recallSets.create({ id: 's1', learnerId: 'ghost', name: 'x', description: null, createdAt: at(1) })));
      expect(isStorageError(noLearner, 'missing_reference')).toBe(true);
      const noSet = await rejection(storage.transaction((tx) => tx.recallSets.addPoint(point('p1', 'ghost-set', 0))));
      expect(isStorageError(noSet, 'missing_reference')).toBe(true);
    });
  });

  describe('cards', () => {
    it('saves a new card under newId, then updates it in place; review logs keep the card as it was', async () => {
      const storage = context.storage();
      const seed = await seedRecall(storage);
      const first = newCard(at(5));
      const reviewed = { ...first, due: at(60 * 24), stability: 3.5, difficulty: 5.25, scheduledDays: 1, reps: 1, state: 'review' as const, lastReview: at(5) };
      const ids = await storage.transaction(async (tx) => {
        const inserted = await tx.cards.save({ learnerId: seed.learnerId, pointId: 'a-p0', card: first, newId: 'card-1' });
        await tx.cards.save({ learnerId: seed.learnerId, pointId: 'a-p1', card: first, newId: 'card-2' });
        const updated = await tx.cards.save({ learnerId: seed.learnerId, pointId: 'a-p0', card: reviewed, newId: 'card-unused' });
        await tx.cards.addReviewLog('log-2', { cardId: inserted, sessionId: seed.sessionId, rating: 'again', confidence: null, previous: reviewed, reviewedAt: at(9) });
        await tx.cards.addReviewLog('log-1', { cardId: inserted, sessionId: seed.sessionId, rating: 'easy', confidence: 0.95, previous: first, reviewedAt: at(5) });
        return [inserted, updated];
      });
      expect(ids).toEqual(['card-1', 'card-1']);
      await storage.read(async (reader) => {
        expect(await reader.cards.get(seed.learnerId, 'a-p0')).toEqual({ id: 'card-1', ...reviewed });
        expect(await reader.cards.get(seed.learnerId, 'a-p2')).toBeNull();
        expect(await reader.cards.listFor(seed.learnerId, ['a-p0', 'a-p1', 'a-p2'])).toEqual(
          new Map([
            ['a-p0', { id: 'card-1', ...reviewed }],
            ['a-p1', { id: 'card-2', ...first }],
          ]),
        );
        expect(await reader.cards.listFor(seed.learnerId, [])).toEqual(new Map());
        const pick = ({ state, due, stability, difficulty, scheduledDays }: typeof first) => ({ state, due, stability, difficulty, scheduledDays });
        expect(await reader.cards.listReviewLogs('card-1')).toEqual([
          { id: 'log-1', cardId: 'card-1', sessionId: seed.sessionId, rating: 'easy', confidence: 0.95, previous: pick(first), reviewedAt: at(5) },
          { id: 'log-2', cardId: 'card-1', sessionId: seed.sessionId, rating: 'again', confidence: null, previous: pick(reviewed), reviewedAt: at(9) },
        ]);
      });
    });

    it('lists one learner’s review logs across their cards, oldest first with ties by id, with each card’s point; never another learner’s', async () => {
      const storage = context.storage();
      const ada = await seedRecall(storage, 'a');
      const bob = await seedRecall(storage, 'b');
      const first = newCard(at(5));
      const reviewed = { ...first, due: at(60 * 24), stability: 3.5, difficulty: 5.25, scheduledDays: 1, reps: 1, state: 'review' as const, lastReview: at(5) };
      await storage.transaction(async (tx) => {
        const card0 = await tx.cards.save({ learnerId: ada.learnerId, pointId: 'a-p0', card: reviewed, newId: 'card-a0' });
        const card2 = await tx.cards.save({ learnerId: ada.learnerId, pointId: 'a-p2', card: reviewed, newId: 'card-a2' });
        const bobs = await tx.cards.save({ learnerId: bob.learnerId, pointId: 'b-p0', card: first, newId: 'card-b0' });
        await tx.cards.addReviewLog('log-c', { cardId: card2, sessionId: ada.sessionId, rating: 'good', confidence: 0.8, previous: first, reviewedAt: at(7) });
        await tx.cards.addReviewLog('log-b', { cardId: card0, sessionId: ada.sessionId, rating: 'again', confidence: null, previous: reviewed, reviewedAt: at(7) });
        await tx.cards.addReviewLog('log-a', { cardId: card0, sessionId: ada.sessionId, rating: 'easy', confidence: 0.95, previous: first, reviewedAt: at(5) });
        await tx.cards.addReviewLog('log-bob', { cardId: bobs, sessionId: bob.sessionId, rating: 'hard', confidence: 0.5, previous: first, reviewedAt: at(6) });
      });
      const pick = ({ state, due, stability, difficulty, scheduledDays }: typeof first) => ({ state, due, stability, difficulty, scheduledDays });
      await storage.read(async (reader) => {
        expect(await reader.cards.listReviewLogsByLearner(ada.learnerId)).toEqual([
          { id: 'log-a', cardId: 'card-a0', pointId: 'a-p0', sessionId: ada.sessionId, rating: 'easy', confidence: 0.95, previous: pick(first), reviewedAt: at(5) },
          { id: 'log-b', cardId: 'card-a0', pointId: 'a-p0', sessionId: ada.sessionId, rating: 'again', confidence: null, previous: pick(reviewed), reviewedAt: at(7) },
          { id: 'log-c', cardId: 'card-a2', pointId: 'a-p2', sessionId: ada.sessionId, rating: 'good', confidence: 0.8, previous: pick(first), reviewedAt: at(7) },
        ]);
        expect((await reader.cards.listReviewLogsByLearner(bob.learnerId)).map((log) => log.id)).toEqual(['log-bob']);
        expect(await reader.cards.listReviewLogsByLearner('nobody')).toEqual([]);
      });
    });
  });

  describe('sessions', () => {
    it('round-trips recall and assessment sessions with their type state; a learner’s sessions come newest first', async () => {
      const storage = context.storage();
      const seed = await seedRecall(storage);
      const assessment = await storage.transaction((tx) => tx.sessions.create(assessmentSession('x1', seed.learnerId, 9)));
      const expectedRecall: StoredSession = {
        id: seed.sessionId,
        learnerId: seed.learnerId,
        type: 'recall',
        status: 'pending',
        title: `Session ${seed.sessionId}`,
        recallSetId: seed.setId,
        turn: 0,
        endReason: null,
        typeState: { type: 'recall', mode: 'recall', rabbitholeTopic: null, probeIndex: 0, probeAttempts: 0, allPoints: false },
        createdAt: at(2),
        updatedAt: at(2),
        endedAt: null,
      };
      expect(assessment).toEqual({
        ...expectedRecall,
        id: 'x1',
        type: 'assessment',
        title: 'Assessment x1',
        recallSetId: null,
        typeState: { type: 'assessment', blueprintId: 'MATH-FUNDAMENTALS-L1', seed: 'seed-x1', timeLimitSeconds: 1800 },
        createdAt: at(9),
        updatedAt: at(9),
      });
      await storage.read(async (reader) => {
        expect(await reader.sessions.get(seed.sessionId)).toEqual(expectedRecall);
        expect(await reader.sessions.get('x1')).toEqual(assessment);
        expect(await reader.sessions.listByLearner(seed.learnerId)).toEqual([assessment, expectedRecall]);
        expect(await reader.sessions.get('nothing')).toBeNull();
      });
    });

    it('updates only the fields given, replaces the type state and moves updatedAt', async () => {
      const storage = context.storage();
      const seed = await seedRecall(storage);
      const typeState = { type: 'recall', mode: 'rabbithole', rabbitholeTopic: 'chlorophyll', probeIndex: 2, probeAttempts: 1, allPoints: false } as const;
      const updated = await storage.transaction((tx) => tx.sessions.update(seed.sessionId, { status: 'active', turn: 3, typeState }, at(20)));
      const ended = await storage.transaction((tx) => tx.sessions.update(seed.sessionId, { status: 'completed', endReason: 'all_recalled', endedAt: at(21) }, at(21)));
      expect(updated).toMatchObject({ status: 'active', turn: 3, typeState, endReason: null, endedAt: null, createdAt: at(2), updatedAt: at(20) });
      expect(ended).toEqual({ ...updated, status: 'completed', endReason: 'all_recalled', endedAt: at(21), updatedAt: at(21) });
      expect(await storage.read((reader) => reader.sessions.get(seed.sessionId))).toEqual(ended);
    });

    it('validates the type state: an invalid one, or one of another type, is refused and nothing is written (R7)', async () => {
      const storage = context.storage();
      const seed = await seedRecall(storage);
      const invalid = { ...recallSession('bad', seed.learnerId, null), typeState: { type: 'recall', mode: 'sideways' } as never };
      expect(isStorageError(await rejection(storage.transaction((tx) => tx.sessions.create(invalid))), 'invalid_value')).toBe(true);
      const otherType = { type: 'assessment', blueprintId: 'B', seed: 's', timeLimitSeconds: 60 } as const;
      const mismatch = await rejection(storage.transaction((tx) => tx.sessions.update(seed.sessionId, { turn: 7, typeState: otherType }, at(20))));
      expect(isStorageError(mismatch, 'invalid_value')).toBe(true);
      await storage.read(async (reader) => {
        expect(await reader.sessions.get('bad')).toBeNull();
        expect(await reader.sessions.get(seed.sessionId)).toMatchObject({ turn: 0, typeState: { type: 'recall' } });
      });
    });

    it('refuses an unknown learner or recall set (missing_reference), a taken id (conflict), an unknown session (not_found)', async () => {
      const storage = context.storage();
      const seed = await seedRecall(storage);
      const codeOf = async (promise: Promise<unknown>) => ((await rejection(promise)) as { code?: string }).code;
      expect(await codeOf(storage.transaction((tx) => tx.sessions.create(recallSession('s9', 'ghost', null))))).toBe('missing_reference');
      expect(await codeOf(storage.transaction((tx) => tx.sessions.create(recallSession('s9', seed.learnerId, 'ghost-set'))))).toBe('missing_reference');
      expect(await codeOf(storage.transaction((tx) => tx.sessions.create(recallSession(seed.sessionId, seed.learnerId, null))))).toBe('conflict');
      expect(await codeOf(storage.transaction((tx) => tx.sessions.update('ghost', { turn: 1 }, at(5))))).toBe('not_found');
    });
  });

  describe('checklists', () => {
    it('lists entries by position with their points’ content; only a pending entry can be checked off', async () => {
      const storage = context.storage();
      const seed = await seedRecall(storage);
      const mark = { confidence: 0.8, observation: 'named the inputs', turn: 2, at: at(7) };
      const changed = await storage.transaction(async (tx) => [
        await tx.checklists.markRecalled(seed.sessionId, 'a-p1', mark),
        await tx.checklists.markRecalled(seed.sessionId, 'a-p1', { ...mark, confidence: 0.1, turn: 3, at: at(8) }),
        await tx.checklists.markRecalled(seed.sessionId, 'not-on-it', mark),
      ]);
      expect(changed).toEqual([true, false, false]);
      const pending = (id: string, position: number) => ({
        pointId: id,
        content: `content of ${id}`,
        context: position % 2 === 0 ? null : `context of ${id}`,
        position,
        status: 'pending',
        confidence: null,
        turnRecalled: null,
        recalledAt: null,
      });
      expect(await storage.read((reader) => reader.checklists.list(seed.sessionId))).toEqual([
        pending('a-p0', 0),
        { ...pending('a-p1', 1), status: 'recalled', confidence: 0.8, turnRecalled: 2, recalledAt: at(7) },
        pending('a-p2', 2),
      ]);
    });

    it('adds after the entries already there; a point twice is a conflict, an unknown point a missing_reference', async () => {
      const storage = context.storage();
      const seed = await seedRecall(storage);
      await storage.transaction(async (tx) => {
        await tx.recallSets.addPoint(point('a-p3', seed.setId, 3));
        await tx.checklists.add(seed.sessionId, ['a-p3']);
      });
      expect((await storage.read((reader) => reader.checklists.list(seed.sessionId))).map((entry) => [entry.pointId, entry.position])).toEqual([
        ['a-p0', 0],
        ['a-p1', 1],
        ['a-p2', 2],
        ['a-p3', 3],
      ]);
      expect(isStorageError(await rejection(storage.transaction((tx) => tx.checklists.add(seed.sessionId, ['a-p0']))), 'conflict')).toBe(true);
      expect(isStorageError(await rejection(storage.transaction((tx) => tx.checklists.add(seed.sessionId, ['ghost']))), 'missing_reference')).toBe(true);
    });
  });
}
