import type { SchedulerRunView, SchedulerStatus, SimulationPoint } from '@tutorloop/shared';
import { describe, expect, it } from 'vitest';
import { describeMetrics, describeProgress, describeSource, describeWorkload, improvement, optimizeBlocker, rejectedLatestRun, workloadAt } from './scheduler-view';

const run: SchedulerRunView = {
  id: 'run-1',
  createdAt: '2026-11-20T10:00:00.000Z',
  reviewCount: 512,
  metrics: { logLoss: 0.4, rmseBins: 0.041 },
  previousMetrics: { logLoss: 0.5, rmseBins: 0.098 },
  previousSource: 'default',
  kept: true,
  durationMs: 900,
};

function status(overrides: Partial<SchedulerStatus> = {}): SchedulerStatus {
  return {
    desiredRetention: 0.9,
    parameters: { weights: [], source: 'default', run: null },
    reviewCount: 40,
    thresholds: { automatic: 400, manual: 100 },
    optimization: { state: 'idle', progress: null, error: null },
    runs: [],
    ...overrides,
  };
}

describe('scheduler in plain words', () => {
  it('says where the parameters come from', () => {
    expect(describeSource(status())).toBe('FSRS default parameters, fitted on the reviews of many learners.');
    expect(describeSource(status({ parameters: { weights: [], source: 'optimised', run } }), 'en-GB')).toBe('Optimised for you on 20 November 2026 from 512 reviews.');
  });

  it('turns log loss and RMSE into "X% better" against what the run replaced', () => {
    expect(improvement(run)).toBeCloseTo(0.2);
    expect(describeMetrics(run)).toEqual({
      headline: 'Predicts your recall 20% better than the default parameters.',
      detail: 'On your 512 reviews: log loss 0.400 (defaults 0.500); predicted recall off by 4.1 points on average (defaults 9.8). Lower is better.',
    });
    expect(describeMetrics({ ...run, previousSource: 'optimised' })?.headline).toBe('Predicts your recall 20% better than your previous parameters.');
    // A tiny gain still reads as a gain, not "0% better".
    expect(describeMetrics({ ...run, metrics: { logLoss: 0.4999, rmseBins: 0.09 } })?.headline).toBe('Predicts your recall 1% better than the default parameters.');
    expect(improvement({ ...run, metrics: { logLoss: 0.6, rmseBins: 0.1 } })).toBeNull();
    expect(describeMetrics(null)).toBeNull();
  });

  it('disables "Optimise now" below the minimum of reviews and while a run is under way, saying why', () => {
    expect(optimizeBlocker(status())).toBe('Optimising needs at least 100 reviews; you have 40. Keep reviewing and try again.');
    expect(optimizeBlocker(status({ reviewCount: 100 }))).toBeNull();
    expect(optimizeBlocker(status({ reviewCount: 500, optimization: { state: 'running', progress: 0.4, error: null } }))).toBe('An optimisation is under way.');
    expect(optimizeBlocker(status({ reviewCount: 500, optimization: { state: 'failed', progress: null, error: 'boom' } }))).toBeNull();
  });

  it('describes the progress of a queued or running optimisation', () => {
    expect(describeProgress(status({ optimization: { state: 'queued', progress: null, error: null } }))).toBe('Waiting for the optimiser…');
    expect(describeProgress(status({ reviewCount: 1200, optimization: { state: 'running', progress: 0.426, error: null } }))).toBe('Fitting to your 1,200 reviews… 43%');
    expect(describeProgress(status())).toBeNull();
  });

  it('reports the newest run only when it was not kept', () => {
    expect(rejectedLatestRun(status({ runs: [run] }))).toBeNull();
    const rejected = { ...run, id: 'run-2', kept: false };
    expect(rejectedLatestRun(status({ runs: [rejected, run] }))).toBe(rejected);
  });

  it('reads the workload at the slider between simulated retentions', () => {
    const points: SimulationPoint[] = [
      { retention: 0.9, reviewsPerDay: 4, totalReviews: 360, knowledgeRetained: 90, retainedShare: 0.9 },
      { retention: 0.8, reviewsPerDay: 2, totalReviews: 180, knowledgeRetained: 80, retainedShare: 0.8 },
    ];
    expect(workloadAt(points, 0.85)).toEqual({ reviewsPerDay: expect.closeTo(3, 10), retainedShare: expect.closeTo(0.85, 10) });
    expect(workloadAt(points, 0.7)).toEqual({ reviewsPerDay: 2, retainedShare: 0.8 });
    expect(workloadAt(points, 0.95)).toEqual({ reviewsPerDay: 4, retainedShare: 0.9 });
    expect(workloadAt([], 0.9)).toBeNull();
    expect(describeWorkload(points, 0.85, 90, 120)).toBe('At 85%: about 3.0 reviews a day over the next 90 days, and on an average day you would remember about 85% of your 120 points.');
  });
});
