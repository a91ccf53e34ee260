// The FSRS optimiser's process (binding-optimizer.ts): fsrs-rs through
// @open-spaced-repetition/binding fits the parameters here, in a child process the server
// runs at the lowest CPU priority, so a fit never takes a core from the turns being served.
// One job per process, received over IPC: { items: PackedItems (binding-optimizer.ts: lengths,
// ratings, deltas as typed arrays), previousWeights: number[] }.
// Sends { type: 'progress', done, total }* then { type: 'result', ... } or { type: 'error', message }.
import { computeParameters, FSRSBinding, FSRSBindingItem, FSRSBindingReview } from '@open-spaced-repetition/binding';

const parentPort = { postMessage: (message) => process.send(message) };
const { items, previousWeights } = await new Promise((resolve) => process.once('message', resolve));

function metricsOf(weights, trainSet) {
  const { logLoss, rmseBins } = new FSRSBinding(weights).evaluate(trainSet);
  return { logLoss, rmseBins };
}

try {
  const trainSet = [];
  let offset = 0;
  for (const length of items.lengths) {
    const reviews = [];
    for (let index = offset; index < offset + length; index += 1) reviews.push(new FSRSBindingReview(items.ratings[index], items.deltas[index]));
    trainSet.push(new FSRSBindingItem(reviews));
    offset += length;
  }
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
// Done: let the parent see the last message, then leave.
process.disconnect();
