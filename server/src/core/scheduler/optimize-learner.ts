/**
 * One optimisation of a learner's FSRS parameters (issue 17): their review log → training
 * items → the optimiser (a port; a worker thread in production) → a recorded run with the
 * metrics of the new and the previous parameters on the same reviews → if the new ones
 * predict better, they become the learner's and every card is rescheduled from its own
 * history, in one transaction with the run.
 */
import type { Clock, IdGenerator } from '../ports';
import { replayHistory } from '../recall/fsrs';
import type { StoredSchedulerRun } from '../storage/scheduler-runs';
import type { Storage } from '../storage/storage';
import { loadSchedulerSettings } from './learner-settings';
import type { ParameterOptimizer } from './optimizer-port';
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
  const { histories, previousWeights, reviewCount } = await storage.read(async (reader) => ({
    histories: await reader.scheduler.reviewHistory(learnerId),
    previousWeights: await reader.scheduler.currentWeights(learnerId),
    reviewCount: await reader.scheduler.reviewCount(learnerId),
  }));
  const items = trainingItems(histories.map((history) => history.reviews));
  if (reviewCount < options.minimumReviews || items.length === 0) return { ok: false, error: 'not_enough_reviews', reviewCount };

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
  const rescheduledCards = await storage.transaction(async (tx) => {
    await tx.scheduler.addRun(run);
    if (!run.kept) return 0;
    // Reviews may have arrived during the fit: reschedule from the history as it is now.
    const settings = await loadSchedulerSettings(tx, learnerId);
    let count = 0;
    for (const history of await tx.scheduler.reviewHistory(learnerId)) {
      const card = replayHistory(history.reviews, settings);
      if (!card) continue;
      await tx.cards.save({ learnerId, pointId: history.pointId, card, newId: ids.next() });
      count += 1;
    }
    return count;
  });
  return { ok: true, run, rescheduledCards };
}
