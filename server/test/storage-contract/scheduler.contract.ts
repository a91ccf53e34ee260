/** Contract: the scheduler repository — optimisation runs and the review history they learn from (R11). */
import { describe, expect, it } from 'vitest';
import type { HistoryReview } from '../../src/core/scheduler/fsrs';
import { writeHistory } from '../../src/core/scheduler/write-history';
import type { StoredSchedulerRun } from '../../src/core/storage/scheduler-runs';
import type { ContractContext } from './storage-contract';
import { at, rejection, seedRecall } from './fixtures';

const codeOf = async (promise: Promise<unknown>) => ((await rejection(promise)) as { code?: string }).code;

function counterIds(prefix: string) {
  let next = 0;
  return { next: () => `${prefix}-${String((next += 1)).padStart(3, '0')}` };
}

const defaults = { retention: 0.9, weights: null } as const;
const weights = (first: number) => Array.from({ length: 21 }, (_, index) => (index === 0 ? first : 0.5));

function run(id: string, learnerId: string, minute: number, kept: boolean, overrides: Partial<StoredSchedulerRun> = {}): StoredSchedulerRun {
  return {
    id,
    learnerId,
    createdAt: at(minute),
    reviewCount: 120 + minute,
    weights: weights(minute / 100),
    previousWeights: null,
    metrics: { logLoss: 0.31, rmseBins: 0.042 },
    previousMetrics: { logLoss: 0.35, rmseBins: 0.061 },
    kept,
    durationMs: 840,
    ...overrides,
  };
}

/** Reviews on days 0, 3 and 10 after `at(0)`. */
function reviews(ratings: ReadonlyArray<HistoryReview['rating']>): HistoryReview[] {
  const days = [0, 3, 10, 30];
  return ratings.map((rating, index) => ({ rating, reviewedAt: new Date(at(0).getTime() + days[index]! * 86_400_000) }));
}

export function schedulerContract(context: ContractContext): void {
  describe('scheduler runs and review history', () => {
    it('round-trips runs newest first (ties by id); the current weights are the newest kept run’s, per learner (R11)', async () => {
      const storage = context.storage();
      const a = await seedRecall(storage, 'a');
      const b = await seedRecall(storage, 'b');
      expect(await storage.read((reader) => reader.scheduler.currentWeights(a.learnerId))).toBeNull();
      const first = run('run-1', a.learnerId, 10, true);
      const tiedLater = run('run-3', a.learnerId, 20, true, { previousWeights: weights(0.1), previousMetrics: { logLoss: 0.31, rmseBins: 0.042 }, metrics: { logLoss: 0.3, rmseBins: 0.04 } });
      const tied = run('run-2', a.learnerId, 20, true, { previousWeights: weights(0.1) });
      const rejected = run('run-4', a.learnerId, 30, false, { previousWeights: weights(0.2), metrics: { logLoss: 0.4, rmseBins: 0.05 } });
      const other = run('run-5', b.learnerId, 40, true);
      await storage.transaction(async (tx) => {
        for (const entry of [first, tiedLater, tied, rejected, other]) await tx.scheduler.addRun(entry);
      });
      await storage.read(async (reader) => {
        expect(await reader.scheduler.listRuns(a.learnerId)).toEqual([rejected, tied, tiedLater, first]);
        expect(await reader.scheduler.listRuns(a.learnerId, 2)).toEqual([rejected, tied]);
        expect(await reader.scheduler.listRuns(b.learnerId)).toEqual([other]);
        expect(await reader.scheduler.listRuns('stranger')).toEqual([]);
        // A run that did not predict better never becomes the learner's parameters.
        expect(await reader.scheduler.currentWeights(a.learnerId)).toEqual(tied.weights);
        expect(await reader.scheduler.currentWeights(b.learnerId)).toEqual(other.weights);
      });
    });

    it('refuses a run of an unknown learner (missing_reference) or with a taken id (conflict), writing nothing; a rolled-back run is not there', async () => {
      const storage = context.storage();
      const a = await seedRecall(storage, 'a');
      await storage.transaction((tx) => tx.scheduler.addRun(run('run-1', a.learnerId, 10, true)));
      expect(await codeOf(storage.transaction((tx) => tx.scheduler.addRun(run('run-2', 'ghost', 11, true))))).toBe('missing_reference');
      expect(await codeOf(storage.transaction((tx) => tx.scheduler.addRun(run('run-1', a.learnerId, 12, false))))).toBe('conflict');
      await rejection(
        storage.transaction(async (tx) => {
          await tx.scheduler.addRun(run('run-3', a.learnerId, 13, true));
          throw new Error('abandon');
        }),
      );
      await storage.read(async (reader) => {
        expect((await reader.scheduler.listRuns(a.learnerId)).map((entry) => [entry.id, entry.kept])).toEqual([['run-1', true]]);
        expect(await reader.scheduler.listRuns('ghost')).toEqual([]);
      });
    });

    it('reads a learner’s review history per card, counts their reviews, and lists learners by count — never another learner’s reviews', async () => {
      const storage = context.storage();
      const a = await seedRecall(storage, 'a');
      const b = await seedRecall(storage, 'b');
      const ids = counterIds('id');
      const cardIds = await storage.transaction(async (tx) => [
        await writeHistory(tx, { learnerId: a.learnerId, pointId: a.pointIds[0]!, reviews: reviews(['good', 'again', 'good']), sessionId: a.sessionId }, defaults, ids),
        await writeHistory(tx, { learnerId: a.learnerId, pointId: a.pointIds[1]!, reviews: reviews(['easy']) }, defaults, ids),
        await writeHistory(tx, { learnerId: b.learnerId, pointId: b.pointIds[0]!, reviews: reviews(['hard', 'good']) }, defaults, ids),
      ]);
      await storage.read(async (reader) => {
        const history = await reader.scheduler.reviewHistory(a.learnerId);
        const sorted = history
          .map((card) => ({ ...card, reviews: [...card.reviews].sort((left, right) => left.reviewedAt.getTime() - right.reviewedAt.getTime()) }))
          .sort((left, right) => left.cardId.localeCompare(right.cardId));
        expect(sorted).toEqual(
          [
            { cardId: cardIds[0]!, pointId: a.pointIds[0]!, reviews: reviews(['good', 'again', 'good']) },
            { cardId: cardIds[1]!, pointId: a.pointIds[1]!, reviews: reviews(['easy']) },
          ].sort((left, right) => left.cardId.localeCompare(right.cardId)),
        );
        expect(await reader.scheduler.reviewHistory('stranger')).toEqual([]);
        expect(await reader.scheduler.reviewCount(a.learnerId)).toBe(4);
        expect(await reader.scheduler.reviewCount(b.learnerId)).toBe(2);
        expect(await reader.scheduler.reviewCount('stranger')).toBe(0);
        expect(await reader.scheduler.learnersWithReviews(1)).toEqual([
          { learnerId: a.learnerId, reviewCount: 4 },
          { learnerId: b.learnerId, reviewCount: 2 },
        ]);
        expect(await reader.scheduler.learnersWithReviews(3)).toEqual([{ learnerId: a.learnerId, reviewCount: 4 }]);
        expect(await reader.scheduler.learnersWithReviews(5)).toEqual([]);
      });
    });

    it('reads the history in pages of cards, in card id order, the pages together being the whole', async () => {
      const storage = context.storage();
      const a = await seedRecall(storage, 'a');
      const b = await seedRecall(storage, 'b');
      const ids = counterIds('pg');
      await storage.transaction(async (tx) => {
        await writeHistory(tx, { learnerId: a.learnerId, pointId: a.pointIds[0]!, reviews: reviews(['good', 'again', 'good']) }, defaults, ids);
        await writeHistory(tx, { learnerId: a.learnerId, pointId: a.pointIds[1]!, reviews: reviews(['easy']) }, defaults, ids);
        await writeHistory(tx, { learnerId: a.learnerId, pointId: a.pointIds[2]!, reviews: reviews(['hard', 'good']) }, defaults, ids);
        await writeHistory(tx, { learnerId: b.learnerId, pointId: b.pointIds[0]!, reviews: reviews(['good']) }, defaults, ids);
      });
      await storage.read(async (reader) => {
        const whole = await reader.scheduler.reviewHistory(a.learnerId);
        expect(whole.map((card) => card.cardId)).toEqual(whole.map((card) => card.cardId).sort());
        // Reviews oldest first within a card.
        for (const card of whole) expect(card.reviews.map((review) => review.reviewedAt.getTime())).toEqual(card.reviews.map((review) => review.reviewedAt.getTime()).sort((x, y) => x - y));
        const first = await reader.scheduler.reviewHistory(a.learnerId, { afterCardId: null, limit: 2 });
        const second = await reader.scheduler.reviewHistory(a.learnerId, { afterCardId: first.at(-1)!.cardId, limit: 2 });
        const third = await reader.scheduler.reviewHistory(a.learnerId, { afterCardId: second.at(-1)!.cardId, limit: 2 });
        expect(first).toHaveLength(2);
        expect(second).toHaveLength(1);
        expect(third).toEqual([]);
        expect([...first, ...second]).toEqual(whole);
        // Another learner's cards never join a page.
        expect(await reader.scheduler.reviewHistory('stranger', { afterCardId: null, limit: 10 })).toEqual([]);
      });
    });

    it('sees the transaction’s own reviews and runs before commit (what an optimisation’s rescheduling reads)', async () => {
      const storage = context.storage();
      const a = await seedRecall(storage, 'a');
      const ids = counterIds('tx');
      await storage.transaction(async (tx) => {
        await writeHistory(tx, { learnerId: a.learnerId, pointId: a.pointIds[2]!, reviews: reviews(['good', 'good']) }, defaults, ids);
        await tx.scheduler.addRun(run('run-1', a.learnerId, 10, true));
        expect(await tx.scheduler.reviewCount(a.learnerId)).toBe(2);
        expect(await tx.scheduler.currentWeights(a.learnerId)).toEqual(weights(0.1));
        expect((await tx.scheduler.reviewHistory(a.learnerId)).map((card) => card.reviews.length)).toEqual([2]);
      });
    });
  });
}
