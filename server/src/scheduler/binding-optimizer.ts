/**
 * The FSRS optimiser adapter (core/scheduler/optimizer-port.ts): fsrs-rs via
 * `@open-spaced-repetition/binding`, a native addon kept out of core, run in a child process
 * per job at the lowest CPU priority (nice 19): a worker thread kept the event loop free but
 * still took a core from the turns on a small machine (bench/README.md, optimiser row).
 * Cancelling kills the process.
 */
import { fork } from 'node:child_process';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defaultWeights } from '../core/scheduler/fsrs';
import type { OptimizeResult, ParameterOptimizer, TrainingItem } from '../core/scheduler/optimizer-port';

type WorkerMessage =
  | { type: 'progress'; done: number; total: number }
  | ({ type: 'result' } & OptimizeResult)
  | { type: 'error'; message: string };

const workerEntry = fileURLToPath(new URL('./optimizer-worker.mjs', import.meta.url));
/** The lowest scheduling priority (POSIX nice 19). */
const lowestPriority = 19;

/** Training items as three flat typed arrays: each item's length, then every review's rating and days. */
export interface PackedItems {
  lengths: Uint32Array;
  ratings: Uint8Array;
  deltas: Int32Array;
}

/**
 * Packs the items for the child: three typed arrays cross the IPC channel as three copies,
 * where ~50,000 small arrays (a 10,000-review log) took ~40 ms of the serving thread to
 * serialise (bench/README.md, optimiser row). optimizer-worker.mjs unpacks them.
 */
export function packItems(items: readonly TrainingItem[]): PackedItems {
  let total = 0;
  for (const item of items) total += item.length;
  const packed: PackedItems = { lengths: new Uint32Array(items.length), ratings: new Uint8Array(total), deltas: new Int32Array(total) };
  let offset = 0;
  for (const [index, item] of items.entries()) {
    packed.lengths[index] = item.length;
    for (const review of item) {
      packed.ratings[offset] = review.rating;
      packed.deltas[offset] = review.deltaT;
      offset += 1;
    }
  }
  return packed;
}

export function createBindingOptimizer(): ParameterOptimizer {
  return {
    optimize(request, onProgress, signal) {
      return new Promise<OptimizeResult>((resolve, reject) => {
        if (signal?.aborted) return reject(new Error('optimisation cancelled'));
        const worker = fork(workerEntry, [], { execArgv: [], env: {}, serialization: 'advanced', stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
        try {
          if (worker.pid !== undefined) setPriority(worker.pid, lowestPriority);
        } catch {
          // Not permitted here: the fit still runs, at normal priority.
        }
        worker.send({ items: packItems(request.items), previousWeights: [...(request.previousWeights ?? defaultWeights)] });
        let settled = false;
        const finish = (outcome: () => void) => {
          if (settled) return;
          settled = true;
          signal?.removeEventListener('abort', abort);
          if (worker.exitCode === null && worker.signalCode === null) worker.kill('SIGKILL');
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
        // 'close', not 'exit': every message the process sent has been delivered by then.
        worker.on('close', (code, signalName) => finish(() => reject(new Error(`optimiser process exited with ${signalName ?? `code ${code}`} before its result`))));
      });
    },
  };
}
