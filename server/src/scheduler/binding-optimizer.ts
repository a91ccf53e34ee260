/**
 * The FSRS optimiser adapter (core/scheduler/optimizer-port.ts): fsrs-rs via
 * `@open-spaced-repetition/binding`, a native addon kept out of core, run in a worker thread
 * per job so a fit never blocks a turn. Cancelling terminates the worker.
 */
import { Worker } from 'node:worker_threads';
import { defaultWeights } from '../core/recall/fsrs';
import type { OptimizeResult, ParameterOptimizer } from '../core/scheduler/optimizer-port';

type WorkerMessage =
  | { type: 'progress'; done: number; total: number }
  | ({ type: 'result' } & OptimizeResult)
  | { type: 'error'; message: string };

const workerEntry = new URL('./optimizer-worker.mjs', import.meta.url);

export function createBindingOptimizer(): ParameterOptimizer {
  return {
    optimize(request, onProgress, signal) {
      return new Promise<OptimizeResult>((resolve, reject) => {
        if (signal?.aborted) return reject(new Error('optimisation cancelled'));
        const worker = new Worker(workerEntry, {
          workerData: {
            items: request.items.map((item) => item.map((review) => [review.rating, review.deltaT])),
            previousWeights: [...(request.previousWeights ?? defaultWeights)],
          },
          env: {},
          execArgv: [],
          name: 'fsrs-optimizer',
        });
        let settled = false;
        const finish = (outcome: () => void) => {
          if (settled) return;
          settled = true;
          signal?.removeEventListener('abort', abort);
          void worker.terminate();
          outcome();
        };
        const abort = () => finish(() => reject(new Error('optimisation cancelled')));
        signal?.addEventListener('abort', abort);
        worker.on('message', (message: WorkerMessage) => {
          switch (message.type) {
            case 'progress':
              onProgress(message.done, message.total);
              return;
            case 'result':
              return finish(() => resolve({ weights: message.weights, metrics: message.metrics, previousMetrics: message.previousMetrics, durationMs: message.durationMs }));
            case 'error':
              return finish(() => reject(new Error(`optimiser failed: ${message.message}`)));
            default: {
              const unreachable: never = message;
              return finish(() => reject(new Error(`unknown optimiser message ${JSON.stringify(unreachable)}`)));
            }
          }
        });
        worker.on('error', (error) => finish(() => reject(error)));
        worker.on('exit', (code) => finish(() => reject(new Error(`optimiser worker exited with code ${code}`))));
      });
    },
  };
}
