// The FSRS optimiser's worker thread (binding-optimizer.ts): fsrs-rs through
// @open-spaced-repetition/binding fits the parameters here, never on the thread serving turns.
// One job per worker: { items: [[rating, deltaT], ...][], previousWeights: number[] }.
// Posts { type: 'progress', done, total }* then { type: 'result', ... } or { type: 'error', message }.
import { parentPort, workerData } from 'node:worker_threads';
import { computeParameters, FSRSBinding, FSRSBindingItem, FSRSBindingReview } from '@open-spaced-repetition/binding';

const { items, previousWeights } = workerData;

function metricsOf(weights, trainSet) {
  const { logLoss, rmseBins } = new FSRSBinding(weights).evaluate(trainSet);
  return { logLoss, rmseBins };
}

try {
  const trainSet = items.map((reviews) => new FSRSBindingItem(reviews.map(([rating, deltaT]) => new FSRSBindingReview(rating, deltaT))));
  const started = performance.now();
  let last = 0;
  const weights = await computeParameters(trainSet, {
    // Same-day steps are off in the scheduler (core/recall/fsrs.ts): fit the long-term model only.
    enableShortTerm: false,
    progress: (done, total) => {
      const now = performance.now();
      if (done === total || now - last > 100) {
        last = now;
        parentPort.postMessage({ type: 'progress', done, total });
      }
    },
  });
  const durationMs = Math.round(performance.now() - started);
  parentPort.postMessage({ type: 'progress', done: 1, total: 1 });
  parentPort.postMessage({
    type: 'result',
    weights: [...weights],
    // Both parameter sets scored on the very same reviews.
    metrics: metricsOf([...weights], trainSet),
    previousMetrics: metricsOf(previousWeights, trainSet),
    durationMs,
  });
} catch (error) {
  parentPort.postMessage({ type: 'error', message: error instanceof Error ? error.message : String(error) });
}
