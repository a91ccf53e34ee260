/**
 * The port to the retention simulator ("Help me decide", issue 17). The Monte Carlo in
 * simulate.ts is pure but heavy (tens of thousands of FSRS reviews per request: ~1 s for 120
 * cards, ~18 s for 1,000 on the development machine), so the server runs it in a worker thread
 * (server/src/scheduler/worker-simulator.ts), never on the thread that serves turns; tests on
 * the in-memory storage may run it in-process.
 */
import { simulateRetentions, type SimulationInput, type SimulationPoint } from './simulate';

export interface RetentionSimulator {
  simulate(input: SimulationInput): Promise<SimulationPoint[]>;
}

/** Runs the simulation on the calling thread: for tests and tools, not for a serving process. */
export const inProcessSimulator: RetentionSimulator = {
  simulate: async (input) => simulateRetentions(input),
};
