import type { SchedulerStatus, SimulationResponse } from '@tutorloop/shared';
import { createStore } from 'zustand/vanilla';
import type { HttpClient } from '../api/http-client';
import { forecastHorizonDays, forecastRetentions } from './scheduler-view';

export interface SchedulerState {
  /** The learner whose scheduler this is (a new learner's load starts from nothing). */
  learnerId: string | null;
  status: 'idle' | 'loading' | 'ready' | 'error';
  scheduler: SchedulerStatus | null;
  error: string | null;
  /** `POST /api/me/scheduler/optimize` under way. */
  requesting: boolean;
  /** Why the last request to optimise was refused (409: too few reviews) or failed. */
  optimizeError: string | null;
  /** Set when a run this page watched finished: what it changed, for the live region. */
  finished: { kept: boolean; runId: string } | null;
  /** Workload and knowledge kept per desired retention, under the learner's parameters. */
  forecast: { status: 'idle' | 'loading' | 'ready' | 'error'; simulation: SimulationResponse | null; error: string | null };
  /** Fetches the scheduler (again); the forecast too on the first load and whenever the parameters changed. */
  load(learnerId: string): Promise<void>;
  /** Asks the server to optimise; then follows the run while the page watches. */
  optimize(): Promise<void>;
  /** While watched, the store polls `GET /api/me/scheduler` as long as a run is queued or running. Returns the unwatch. */
  watch(): () => void;
}

export interface SchedulerStoreOptions {
  /** Pause between polls while a run is queued or running. */
  pollMs?: number;
  /** Timers, injectable for tests. */
  setTimer?: (callback: () => void, ms: number) => () => void;
}

const running = (scheduler: SchedulerStatus | null) => scheduler?.optimization.state === 'queued' || scheduler?.optimization.state === 'running';
/** Which parameters the forecast was simulated with: the kept run's id, or the defaults. */
const parametersKey = (scheduler: SchedulerStatus) => scheduler.parameters.run?.id ?? 'default';

const idleForecast: SchedulerState['forecast'] = { status: 'idle', simulation: null, error: null };

/**
 * The Settings page's scheduler section (issue 17): the learner's parameters and metrics,
 * "Optimise now" with the run's progress (polled: the fit runs in the server's worker thread,
 * off any request), and the retention forecast behind the workload chart.
 */
export function createSchedulerStore(
  http: Pick<HttpClient, 'getScheduler' | 'optimizeScheduler' | 'simulateScheduler'>,
  options: SchedulerStoreOptions = {},
) {
  const pollMs = options.pollMs ?? 1000;
  const setTimer =
    options.setTimer ??
    ((callback: () => void, ms: number) => {
      const handle = setTimeout(callback, ms);
      return () => clearTimeout(handle);
    });
  let inFlight: { learnerId: string; promise: Promise<void> } | null = null;
  let watchers = 0;
  let cancelPoll: (() => void) | null = null;
  /** The parameters the shown (or loading) forecast belongs to. */
  let forecastKey: string | null = null;
  /** Set when the page asked for a run, so its end is announced. */
  let followedRun = false;

  const store = createStore<SchedulerState>()((set, get) => ({
    learnerId: null,
    status: 'idle',
    scheduler: null,
    error: null,
    requesting: false,
    optimizeError: null,
    finished: null,
    forecast: idleForecast,
    load: (learnerId) => {
      if (inFlight?.learnerId === learnerId) return inFlight.promise;
      const promise = fetchStatus(learnerId).finally(() => {
        if (inFlight?.promise === promise) inFlight = null;
      });
      inFlight = { learnerId, promise };
      return promise;
    },
    optimize: async () => {
      const { learnerId, requesting, scheduler } = get();
      if (!learnerId || requesting || running(scheduler)) return;
      set({ requesting: true, optimizeError: null, finished: null });
      const result = await http.optimizeScheduler();
      if (get().learnerId !== learnerId) return;
      if (!result.ok) {
        set({ requesting: false, optimizeError: result.error.message });
        return;
      }
      followedRun = true;
      set({ requesting: false, scheduler: result.value });
      // A run on a small log can finish before the answer: nothing is queued then, but the
      // parameters may have changed already.
      if (running(result.value)) schedulePoll();
      else await get().load(learnerId);
    },
    watch: () => {
      watchers += 1;
      schedulePoll();
      let watching = true;
      return () => {
        if (!watching) return;
        watching = false;
        watchers -= 1;
        if (watchers === 0) stopPolling();
      };
    },
  }));

  function stopPolling() {
    cancelPoll?.();
    cancelPoll = null;
  }

  function schedulePoll() {
    const { learnerId, scheduler } = store.getState();
    if (cancelPoll || watchers === 0 || !learnerId || !running(scheduler)) return;
    cancelPoll = setTimer(() => {
      cancelPoll = null;
      void store.getState().load(learnerId);
    }, pollMs);
  }

  async function fetchStatus(learnerId: string) {
    if (store.getState().learnerId !== learnerId) {
      // Another learner's numbers must never show, not even while loading.
      stopPolling();
      forecastKey = null;
      followedRun = false;
      store.setState({ learnerId, scheduler: null, optimizeError: null, finished: null, requesting: false, forecast: idleForecast });
    }
    store.setState({ status: store.getState().scheduler ? 'ready' : 'loading', error: null });
    const result = await http.getScheduler();
    if (store.getState().learnerId !== learnerId) return;
    if (!result.ok) {
      store.setState({ status: 'error', error: result.error.message });
      return;
    }
    const previous = store.getState().scheduler;
    const scheduler = result.value;
    const finishedRun = followedRun && running(previous) && !running(scheduler) ? scheduler.runs[0] : undefined;
    if (finishedRun) followedRun = false;
    store.setState({
      status: 'ready',
      scheduler,
      error: null,
      ...(finishedRun && { finished: { kept: finishedRun.kept, runId: finishedRun.id } }),
    });
    // A failed run shows its own error (optimization.error); nothing more to announce.
    if (scheduler.optimization.state === 'failed') followedRun = false;
    schedulePoll();
    if (forecastKey !== parametersKey(scheduler)) await fetchForecast(learnerId, parametersKey(scheduler));
  }

  async function fetchForecast(learnerId: string, key: string) {
    forecastKey = key;
    store.setState((state) => ({ forecast: { ...state.forecast, status: 'loading', error: null } }));
    const result = await http.simulateScheduler({ retentions: [...forecastRetentions], days: forecastHorizonDays });
    // A newer forecast (parameters changed again) or another learner wins.
    if (store.getState().learnerId !== learnerId || forecastKey !== key) return;
    if (result.ok) store.setState({ forecast: { status: 'ready', simulation: result.value, error: null } });
    else {
      forecastKey = null;
      store.setState((state) => ({ forecast: { ...state.forecast, status: 'error', error: result.error.message } }));
    }
  }

  return store;
}

export type SchedulerStore = ReturnType<typeof createSchedulerStore>;
