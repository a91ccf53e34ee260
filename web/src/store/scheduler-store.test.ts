import type { SchedulerRunView, SchedulerStatus, SimulateBody, SimulationResponse } from '@tutorloop/shared';
import { describe, expect, it } from 'vitest';
import type { ApiResult } from '../api/http-client';
import { createSchedulerStore } from './scheduler-store';

const run: SchedulerRunView = {
  id: 'run-1',
  createdAt: '2026-11-20T10:00:00.000Z',
  reviewCount: 512,
  metrics: { logLoss: 0.4, rmseBins: 0.04 },
  previousMetrics: { logLoss: 0.5, rmseBins: 0.1 },
  previousSource: 'default',
  kept: true,
  durationMs: 900,
};

function status(state: SchedulerStatus['optimization']['state'], overrides: Partial<SchedulerStatus> = {}): SchedulerStatus {
  return {
    desiredRetention: 0.9,
    parameters: { weights: [0.2], source: 'default', run: null },
    reviewCount: 512,
    thresholds: { automatic: 400, manual: 100 },
    optimization: { state, progress: state === 'running' ? 0.5 : null, error: null },
    runs: [],
    ...overrides,
  };
}

const optimised = status('idle', { parameters: { weights: [0.3], source: 'optimised', run }, runs: [run] });

function simulation(perDay: number): SimulationResponse {
  return { days: 90, cardCount: 120, points: [{ retention: 0.9, reviewsPerDay: perDay, totalReviews: perDay * 90, knowledgeRetained: 100, retainedShare: 0.83 }] };
}

/** A fake server answering from scripts, and timers the test fires by hand. */
function setup(statuses: Array<ApiResult<SchedulerStatus>>, optimizeAnswer: ApiResult<SchedulerStatus> = { ok: true, value: status('queued') }) {
  const calls: string[] = [];
  const timers: Array<{ callback: () => void; ms: number; cancelled: boolean }> = [];
  let simulations = 0;
  const store = createSchedulerStore(
    {
      getScheduler: async () => {
        calls.push('GET');
        const next = statuses.shift();
        if (!next) throw new Error('no scripted status left');
        return next;
      },
      optimizeScheduler: async () => {
        calls.push('POST optimize');
        return optimizeAnswer;
      },
      simulateScheduler: async (body: SimulateBody) => {
        calls.push(`POST simulate ${body.retentions?.length} retentions ${body.days} days`);
        simulations += 1;
        return { ok: true, value: simulation(simulations) };
      },
    },
    {
      pollMs: 1000,
      setTimer: (callback, ms) => {
        const timer = { callback, ms, cancelled: false };
        timers.push(timer);
        return () => {
          timer.cancelled = true;
        };
      },
    },
  );
  /** Fires the pending poll and waits for its request and the forecast after it. */
  const firePoll = async () => {
    const timer = timers.find((entry) => !entry.cancelled);
    if (!timer) throw new Error('no poll pending');
    timer.cancelled = true;
    timer.callback();
    await new Promise((resolve) => setTimeout(resolve, 0));
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  const pendingPolls = () => timers.filter((entry) => !entry.cancelled).length;
  return { store, calls, firePoll, pendingPolls };
}

describe('scheduler store', () => {
  it('loads the parameters and the forecast over the slider’s range', async () => {
    const { store, calls } = setup([{ ok: true, value: status('idle') }]);
    await store.getState().load('ada');
    expect(store.getState()).toMatchObject({ status: 'ready', scheduler: status('idle'), forecast: { status: 'ready', simulation: simulation(1) } });
    expect(calls).toEqual(['GET', 'POST simulate 11 retentions 90 days']);
  });

  it('optimises, follows the run while watched, then announces it and simulates again under the new parameters', async () => {
    const { store, calls, firePoll, pendingPolls } = setup([
      { ok: true, value: status('idle') },
      { ok: true, value: status('running') },
      { ok: true, value: optimised },
    ]);
    const unwatch = store.getState().watch();
    await store.getState().load('ada');
    expect(pendingPolls()).toBe(0);

    await store.getState().optimize();
    expect(store.getState().scheduler?.optimization.state).toBe('queued');
    expect(pendingPolls()).toBe(1);
    await firePoll();
    expect(store.getState().scheduler?.optimization).toEqual({ state: 'running', progress: 0.5, error: null });
    expect(store.getState().finished).toBeNull();
    await firePoll();
    expect(store.getState()).toMatchObject({ scheduler: optimised, finished: { kept: true, runId: 'run-1' }, forecast: { simulation: simulation(2) } });
    expect(pendingPolls()).toBe(0);
    expect(calls).toEqual(['GET', 'POST simulate 11 retentions 90 days', 'POST optimize', 'GET', 'GET', 'POST simulate 11 retentions 90 days']);
    unwatch();
  });

  it('stops polling when the page stops watching', async () => {
    const { store, pendingPolls } = setup([{ ok: true, value: status('running') }]);
    const unwatch = store.getState().watch();
    await store.getState().load('ada');
    expect(pendingPolls()).toBe(1);
    unwatch();
    expect(pendingPolls()).toBe(0);
  });

  it('shows the server’s reason when optimising is refused, and sends nothing while a run is under way', async () => {
    const refusal: ApiResult<SchedulerStatus> = {
      ok: false,
      error: { status: 409, code: 'conflict', message: 'Optimising needs at least 100 reviews; you have 12. Keep reviewing and try again.' },
    };
    const { store, calls } = setup([{ ok: true, value: status('idle', { reviewCount: 12 }) }], refusal);
    await store.getState().load('ada');
    await store.getState().optimize();
    expect(store.getState()).toMatchObject({ requesting: false, optimizeError: 'Optimising needs at least 100 reviews; you have 12. Keep reviewing and try again.' });

    const busy = setup([{ ok: true, value: status('running') }]);
    await busy.store.getState().load('ada');
    await busy.store.getState().optimize();
    expect(busy.calls).not.toContain('POST optimize');
    expect(calls.filter((call) => call === 'POST optimize')).toHaveLength(1);
  });

  it('never shows one learner’s scheduler to the next', async () => {
    const { store } = setup([
      { ok: true, value: optimised },
      { ok: false, error: { status: 0, code: 'network', message: 'Could not reach the server. Check your connection and try again.' } },
    ]);
    await store.getState().load('ada');
    expect(store.getState().scheduler).toEqual(optimised);
    await store.getState().load('bob');
    expect(store.getState()).toMatchObject({
      learnerId: 'bob',
      status: 'error',
      scheduler: null,
      error: 'Could not reach the server. Check your connection and try again.',
      forecast: { status: 'idle', simulation: null },
    });
  });
});
