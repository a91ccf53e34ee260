// The retention simulator's worker thread (worker-simulator.ts): the Monte Carlo of
// core/scheduler/simulate.ts runs here, never on the thread serving turns. The core is
// TypeScript: tsx compiles it for this thread, as it does for the server process
// (ARCHITECTURE.md, "Servers run as node --import tsx"). One job per worker:
// SimulationInput in workerData; posts { type: 'result', points } or { type: 'error', message }.
import { parentPort, workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

try {
  const { simulateRetentions } = await tsImport('../core/scheduler/simulate.ts', import.meta.url);
  parentPort.postMessage({ type: 'result', points: simulateRetentions(workerData) });
} catch (error) {
  parentPort.postMessage({ type: 'error', message: error instanceof Error ? error.message : String(error) });
}
