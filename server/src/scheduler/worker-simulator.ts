/**
 * The retention simulator adapter (core/scheduler/simulator-port.ts): each simulation in its
 * own worker thread (simulation-worker.mjs), one at a time, so neither a turn nor another
 * learner's request waits behind a Monte Carlo of thousands of FSRS reviews.
 */
import { Worker } from 'node:worker_threads';
import type { SimulationInput, SimulationPoint } from '../core/scheduler/simulate';
import type { RetentionSimulator } from '../core/scheduler/simulator-port';

type WorkerMessage = { type: 'result'; points: SimulationPoint[] } | { type: 'error'; message: string };

const workerEntry = new URL('./simulation-worker.mjs', import.meta.url);

function runInWorker(input: SimulationInput, timeoutMs: number): Promise<SimulationPoint[]> {
  return new Promise((resolve, reject) => {
    // Dates and arrays cross by structured clone; nothing else is shared.
    const worker = new Worker(workerEntry, { workerData: input, env: {}, execArgv: [], name: 'retention-simulator' });
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      outcome();
    };
    const timer = setTimeout(() => finish(() => reject(new Error(`simulation took longer than ${timeoutMs} ms`))), timeoutMs);
    worker.on('message', (message: WorkerMessage) => {
      if (message.type === 'result') finish(() => resolve(message.points));
      else finish(() => reject(new Error(`simulation failed: ${message.message}`)));
    });
    worker.on('error', (error) => finish(() => reject(error)));
    worker.on('exit', (code) => finish(() => reject(new Error(`simulation worker exited with code ${code}`))));
  });
}

export function createWorkerSimulator(options: { timeoutMs?: number } = {}): RetentionSimulator {
  const timeoutMs = options.timeoutMs ?? 120_000;
  // One simulation at a time: the cores serve turns (and the optimiser) first.
  let queue: Promise<unknown> = Promise.resolve();
  return {
    simulate(input) {
      const run = queue.then(() => runInWorker(input, timeoutMs));
      queue = run.catch(() => undefined);
      return run;
    },
  };
}
