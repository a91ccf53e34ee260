/**
 * One optimisation of a learner's FSRS parameters (issue 17): their review log → training
 * items → the optimiser (a port; a child process in production) → a recorded run with the
 * metrics of the new and the previous parameters on the same reviews → if the new ones
 * predict better, they become the learner's and every card is rescheduled from its own
 * history, in chunks after the run is stored.
 */
import type { Clock, IdGenerator } from '../ports';
import { replayHistory } from '../scheduler/fsrs';
import type { CardHistory, StoredSchedulerRun } from '../storage/scheduler-runs';
import type { Storage } from '../storage/storage';
import { loadSchedulerSettings } from './learner-settings';
import type { ParameterOptimizer, TrainingItem } from './optimizer-port';
import { predictsBetter } from './optimization-policy';
import { trainingItems } from './training-items';

export interface OptimizeLearnerDeps {
  storage: Storage;
  optimizer: ParameterOptimizer;
  clock: Clock;
  ids: IdGenerator;
}

export type OptimizeLearnerOutcome =
  | { ok: true; run: StoredSchedulerRun; rescheduledCards: number }
  | { ok: false; error: 'not_enough_reviews'; reviewCount: number };

export async function optimizeLearner(
  deps: OptimizeLearnerDeps,
  learnerId: string,
  options: { minimumReviews: number; onProgress?: (done: number, total: number) => void; signal?: AbortSignal },
): Promise<OptimizeLearnerOutcome> {
  const { storage, optimizer, clock, ids } = deps;
  const started = clock.now();
  const { previousWeights, reviewCount } = await storage.read(async (reader) => ({
    previousWeights: await reader.scheduler.currentWeights(learnerId),
    reviewCount: await reader.scheduler.reviewCount(learnerId),
  }));
  if (reviewCount < options.minimumReviews) return { ok: false, error: 'not_enough_reviews', reviewCount };
  const items: TrainingItem[] = [];
  for await (const page of historyPages(storage, learnerId)) {
    for (const item of trainingItems(page.map((history) => history.reviews))) items.push(item);
  }
  if (items.length === 0) return { ok: false, error: 'not_enough_reviews', reviewCount };

  const result = await optimizer.optimize({ items, previousWeights }, options.onProgress ?? (() => {}), options.signal);
  const run: StoredSchedulerRun = {
    id: ids.next(),
    learnerId,
    createdAt: started,
    reviewCount,
    weights: result.weights,
    previousWeights,
    metrics: result.metrics,
    previousMetrics: result.previousMetrics,
    kept: predictsBetter(result.metrics, result.previousMetrics),
    durationMs: result.durationMs,
  };
  await storage.transaction((tx) => tx.scheduler.addRun(run));
  const rescheduledCards = run.kept ? await rescheduleCards(deps, learnerId) : 0;
  return { ok: true, run, rescheduledCards };
}

/** Cards rescheduled per transaction: turns queued meanwhile run between chunks (bench/README.md, optimiser row). */
export const rescheduleChunk = 25;

/** Cards read per unit of the history: a 10,000-review log in units of under 10 ms, not one of ~50 ms. */
export const historyPageCards = 100;

const yieldToTurns = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The learner's review history in pages of `historyPageCards` cards, each page its own read
 * unit with the event loop free between them, so that turns are served while a long history
 * is read. Reviews added meanwhile may or may not be in it: the optimiser fits a snapshot.
 */
export async function* historyPages(storage: Storage, learnerId: string): AsyncGenerator<CardHistory[]> {
  let afterCardId: string | null = null;
  for (;;) {
    const cursor: string | null = afterCardId;
    const page: CardHistory[] = await storage.read((reader) => reader.scheduler.reviewHistory(learnerId, { afterCardId: cursor, limit: historyPageCards }));
    if (page.length === 0) return;
    yield page;
    if (page.length < historyPageCards) return;
    afterCardId = page.at(-1)!.cardId;
    await yieldToTurns();
  }
}

/**
 * Rebuilds every card of the learner from its own history under the parameters now stored,
 * in chunks of `rescheduleChunk` cards per transaction with a yield of the event loop between
 * them, so that a learner's turns are never held behind one long write. A card reviewed after
 * the history was read (a turn between two chunks) is left as that review scheduled it: under
 * the new parameters already, since the run was stored first.
 */
async function rescheduleCards(deps: OptimizeLearnerDeps, learnerId: string): Promise<number> {
  const { storage, ids } = deps;
  const settings = await storage.read((reader) => loadSchedulerSettings(reader, learnerId));
  const histories: CardHistory[] = [];
  for await (const page of historyPages(storage, learnerId)) histories.push(...page);
  let count = 0;
  for (let start = 0; start < histories.length; start += rescheduleChunk) {
    const chunk = histories.slice(start, start + rescheduleChunk).flatMap((history) => {
      const card = replayHistory(history.reviews, settings);
      const last = history.reviews.reduce((latest, review) => Math.max(latest, review.reviewedAt.getTime()), 0);
      return card ? [{ pointId: history.pointId, card, last }] : [];
    });
    count += await storage.transaction(async (tx) => {
      let saved = 0;
      for (const { pointId, card, last } of chunk) {
        const current = await tx.cards.get(learnerId, pointId);
        if (current?.lastReview && current.lastReview.getTime() > last) continue;
        await tx.cards.save({ learnerId, pointId, card, newId: ids.next() });
        saved += 1;
      }
      return saved;
    });
    await yieldToTurns();
  }
  return count;
}
