/**
 * The retention simulator in its worker thread (issue 17): the same forecast as the pure
 * core computes in-process — the cards' dates cross the thread boundary intact — while the
 * serving thread stays free: its timers keep firing during the simulation.
 */
import { describe, expect, it } from 'vitest';
import { defaultSchedulerSettings, replayHistory } from '../core/scheduler/fsrs';
import { simulateRetentions, type SimulationInput } from '../core/scheduler/simulate';
import { syntheticReviewLog, syntheticTrueWeights } from '../core/scheduler/synthetic-log';
import { createWorkerSimulator } from './worker-simulator';

const now = new Date('2026-11-01T09:00:00.000Z');
const log = syntheticReviewLog({ weights: syntheticTrueWeights, cards: 40, reviewsPerCard: 4, seed: 'worker', start: new Date('2026-06-01T00:00:00.000Z') }).map((reviews) =>
  reviews.filter((review) => review.reviewedAt < now),
);
const input: SimulationInput = {
  cards: [...log.map((reviews) => replayHistory(reviews, defaultSchedulerSettings)), null],
  weights: syntheticTrueWeights,
  retentions: [0.8, 0.9, 0.95],
  days: 60,
  now,
  seed: 'learner-1',
};

describe('worker simulator', () => {
  it('answers what the core answers in-process, without holding up the serving thread', async () => {
    let ticks = 0;
    const ticker = setInterval(() => (ticks += 1), 5);
    const simulator = createWorkerSimulator();
    const [first, second] = await Promise.all([simulator.simulate(input), simulator.simulate({ ...input, retentions: [0.85] })]);
    clearInterval(ticker);
    expect(first).toEqual(simulateRetentions(input));
    expect(second).toEqual(simulateRetentions({ ...input, retentions: [0.85] }));
    expect(first.map((point) => point.retention)).toEqual([0.8, 0.9, 0.95]);
    expect(ticks).toBeGreaterThan(5);
  }, 60_000);

  it('rejects when the simulation outlives its time limit', async () => {
    await expect(createWorkerSimulator({ timeoutMs: 1 }).simulate(input)).rejects.toThrow('simulation took longer than 1 ms');
  });
});
