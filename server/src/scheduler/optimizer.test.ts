/**
 * The FSRS optimiser, golden (issue 17): a fixed synthetic review log drawn from known
 * parameters with a seeded random source goes through the real fsrs-rs binding in its worker
 * thread; the parameters move toward the truth and predict the log better than the defaults.
 * Then a learner on the in-memory storage: the run is recorded and kept, their cards are
 * rescheduled, and another learner with the same history is untouched.
 */
import { describe, expect, it } from 'vitest';
import { seededIds } from '../core/session/test-support';
import { defaultSchedulerSettings, defaultWeights, replayHistory, reviewCard, type HistoryReview } from '../core/scheduler/fsrs';
import { historyPageCards, optimizeLearner } from '../core/scheduler/optimize-learner';
import { syntheticReviewLog, syntheticTrueWeights } from '../core/scheduler/synthetic-log';
import { trainingItems } from '../core/scheduler/training-items';
import { writeHistory } from '../core/scheduler/write-history';
import { createMemoryStorage } from '../core/storage/memory-storage';
import { sessionTypeCatalog } from '../core/session-type-states';
import { createBindingOptimizer, packItems } from './binding-optimizer';

const start = new Date('2026-01-01T00:00:00.000Z');
/** Log distance of the first-review stabilities (w0–w3) from the truth. */
const initialDistance = (weights: readonly number[]) => Math.sqrt([0, 1, 2, 3].reduce((sum, index) => sum + Math.log(weights[index]! / syntheticTrueWeights[index]!) ** 2, 0));

/**
 * How far the memory model the weights define is from the truth: mean |log| ratio of the
 * stability after typical histories (each first grade, then up to three Good reviews at
 * fixed gaps) under the weights and under the true parameters.
 */
function modelDistance(weights: readonly number[]): number {
  const gaps = [3, 10, 30];
  let total = 0;
  let count = 0;
  for (const first of ['again', 'hard', 'good', 'easy'] as const) {
    for (let goods = 0; goods <= gaps.length; goods += 1) {
      const reviews: HistoryReview[] = [{ rating: first, reviewedAt: start }];
      let at = start.getTime();
      for (const gap of gaps.slice(0, goods)) reviews.push({ rating: 'good', reviewedAt: new Date((at += gap * 86_400_000)) });
      const fitted = replayHistory(reviews, { retention: 0.9, weights })!.stability;
      const truth = replayHistory(reviews, { retention: 0.9, weights: syntheticTrueWeights })!.stability;
      total += Math.abs(Math.log(fitted / truth));
      count += 1;
    }
  }
  return total / count;
}

describe('optimiser on a synthetic log', () => {
  it('moves the parameters toward the ones that generated the log and lowers log loss and RMSE', async () => {
    const log = syntheticReviewLog({ weights: syntheticTrueWeights, cards: 300, reviewsPerCard: 8, seed: 'golden-1', start });
    expect(log.flat()).toHaveLength(2400);
    const progress: number[] = [];
    const result = await createBindingOptimizer().optimize({ items: trainingItems(log), previousWeights: null }, (done, total) => progress.push(done / total));
    expect(result.weights).toHaveLength(21);
    expect(initialDistance(result.weights)).toBeLessThan(initialDistance(defaultWeights));
    expect(modelDistance(result.weights)).toBeLessThan(modelDistance(defaultWeights));
    expect(result.metrics.logLoss).toBeLessThan(result.previousMetrics.logLoss);
    expect(result.metrics.rmseBins).toBeLessThan(result.previousMetrics.rmseBins);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toBe(1);
    // Figures for the closing note.
    console.info('synthetic log (2400 reviews):', JSON.stringify({ defaults: result.previousMetrics, optimised: result.metrics, durationMs: result.durationMs, modelDistance: { defaults: modelDistance(defaultWeights), optimised: modelDistance(result.weights) }, initialDistance: { defaults: initialDistance(defaultWeights), optimised: initialDistance(result.weights) } }));
  }, 60_000);

  it('rejects when cancelled, terminating its worker', async () => {
    const log = syntheticReviewLog({ weights: syntheticTrueWeights, cards: 200, reviewsPerCard: 6, seed: 'cancel', start });
    const controller = new AbortController();
    const running = createBindingOptimizer().optimize({ items: trainingItems(log), previousWeights: null }, () => {}, controller.signal);
    controller.abort();
    await expect(running).rejects.toThrow('optimisation cancelled');
  });
});

describe('packItems', () => {
  it('flattens the items into lengths, ratings and days that unpack to the same items', () => {
    const items = trainingItems(syntheticReviewLog({ weights: syntheticTrueWeights, cards: 5, reviewsPerCard: 4, seed: 'pack', start }));
    const packed = packItems(items);
    expect(packed.lengths).toHaveLength(items.length);
    expect(packed.ratings).toHaveLength(items.reduce((sum, item) => sum + item.length, 0));
    // Unpacked as optimizer-worker.mjs does.
    const unpacked: Array<Array<{ rating: number; deltaT: number }>> = [];
    let offset = 0;
    for (const length of packed.lengths) {
      unpacked.push(Array.from({ length }, (_, index) => ({ rating: packed.ratings[offset + index]!, deltaT: packed.deltas[offset + index]! })));
      offset += length;
    }
    expect(unpacked).toEqual(items.map((item) => item.map((review) => ({ rating: review.rating, deltaT: review.deltaT }))));
  });
});

describe('optimising a learner', () => {
  it('keeps better parameters, reschedules that learner’s cards from their history, and never touches another learner', async () => {
    const storage = createMemoryStorage(sessionTypeCatalog);
    const ids = seededIds('opt');
    // More cards than one page of the history read (historyPageCards): read and rescheduled in pages.
    const log = syntheticReviewLog({ weights: syntheticTrueWeights, cards: historyPageCards * 2 + 50, reviewsPerCard: 6, seed: 'golden-2', start });
    await storage.transaction(async (tx) => {
      for (const learnerId of ['a', 'b']) {
        await tx.learners.create({ id: learnerId, username: learnerId, passwordHash: 'x', createdAt: start });
        await tx.recallSets.create({ id: `set-${learnerId}`, learnerId, name: 'Synthetic', description: null, createdAt: start });
        for (const [index, reviews] of log.entries()) {
          const pointId = `${learnerId}-p${index}`;
          await tx.recallSets.addPoint({ id: pointId, recallSetId: `set-${learnerId}`, content: `point ${index}`, context: null, position: index, createdAt: start });
          await writeHistory(tx, { learnerId, pointId, reviews }, defaultSchedulerSettings, ids);
        }
      }
    });
    const cardsOf = (learnerId: string) => storage.read(async (reader) => reader.cards.listFor(learnerId, log.map((_, index) => `${learnerId}-p${index}`)));
    const before = { a: await cardsOf('a'), b: await cardsOf('b') };

    const outcome = await optimizeLearner({ storage, optimizer: createBindingOptimizer(), clock: { now: () => new Date('2026-09-01T00:00:00.000Z') }, ids }, 'a', { minimumReviews: 100 });
    if (!outcome.ok) throw new Error(outcome.error);
    expect(outcome.run).toMatchObject({ learnerId: 'a', reviewCount: log.length * 6, previousWeights: null, kept: true });
    expect(outcome.run.metrics.logLoss).toBeLessThan(outcome.run.previousMetrics.logLoss);
    expect(outcome.rescheduledCards).toBe(log.length);

    const weights = await storage.read((reader) => reader.scheduler.currentWeights('a'));
    expect(weights).toEqual(outcome.run.weights);
    const after = { a: await cardsOf('a'), b: await cardsOf('b') };
    // A's cards, on every page, are what their own history gives under A's new parameters …
    for (const index of [0, historyPageCards + 1, log.length - 1]) {
      const history: HistoryReview[] = log[index]!;
      expect(after.a.get(`a-p${index}`)).toMatchObject(replayHistory(history, { retention: 0.9, weights })!);
    }
    expect([...after.a].some(([pointId, card]) => card.due.getTime() !== before.a.get(pointId)!.due.getTime())).toBe(true);
    // … and B's are exactly as they were, still on the defaults.
    expect(after.b).toEqual(before.b);
    expect(await storage.read((reader) => reader.scheduler.currentWeights('b'))).toBeNull();
    expect(await storage.read((reader) => reader.scheduler.listRuns('b'))).toEqual([]);
    // The same review on a like card schedules differently for A (own parameters) and B (defaults).
    const like = after.b.get('b-p0')!;
    const reviewAt = new Date(like.lastReview!.getTime() + 10 * 86_400_000);
    const [forA, forB] = [weights, null].map((own) => reviewCard(like, 'good', reviewAt, { retention: 0.9, weights: own }).card.due.getTime());
    expect(forA).not.toBe(forB);
  }, 60_000);

  it('refuses with too few reviews and records nothing', async () => {
    const storage = createMemoryStorage(sessionTypeCatalog);
    await storage.transaction((tx) => tx.learners.create({ id: 'c', username: 'c', passwordHash: 'x', createdAt: start }));
    const outcome = await optimizeLearner({ storage, optimizer: createBindingOptimizer(), clock: { now: () => start }, ids: seededIds() }, 'c', { minimumReviews: 100 });
    expect(outcome).toEqual({ ok: false, error: 'not_enough_reviews', reviewCount: 0 });
    expect(await storage.read((reader) => reader.scheduler.listRuns('c'))).toEqual([]);
  });
});
