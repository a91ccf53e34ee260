/**
 * The learner's scheduler (issue 17): their FSRS parameters and metrics, optimisation on
 * demand and automatically (off the request path: a queue running one fit at a time in a
 * child process), and the retention simulator (in a worker thread). Through the storage port.
 */
import type { SchedulerRunView, SchedulerStatus, SimulateBody, SimulationResponse } from '@tutorloop/shared';
import type { Clock, IdGenerator, Logger } from '../core/ports';
import { defaultWeights } from '../core/scheduler/fsrs';
import { loadSchedulerSettings } from '../core/scheduler/learner-settings';
import { optimizeLearner } from '../core/scheduler/optimize-learner';
import { automaticRunDue, optimizationPolicy } from '../core/scheduler/optimization-policy';
import type { ParameterOptimizer } from '../core/scheduler/optimizer-port';
import type { SimulationPoint } from '../core/scheduler/simulate';
import { inProcessSimulator, type RetentionSimulator } from '../core/scheduler/simulator-port';
import type { StoredSchedulerRun } from '../core/storage/scheduler-runs';
import type { Storage } from '../core/storage/storage';
import { AppError } from './app-error';

type JobState = { state: 'queued' | 'running'; progress: number | null } | { state: 'failed'; error: string };

/** The retentions "Help me decide" compares by default. */
export const defaultSimulatedRetentions = [0.75, 0.8, 0.85, 0.88, 0.9, 0.92, 0.94, 0.96, 0.97];
export const defaultSimulatedDays = 90;

function toRunView(run: StoredSchedulerRun): SchedulerRunView {
  return {
    id: run.id,
    createdAt: run.createdAt.toISOString(),
    reviewCount: run.reviewCount,
    metrics: run.metrics,
    previousMetrics: run.previousMetrics,
    previousSource: run.previousWeights ? 'optimised' : 'default',
    kept: run.kept,
    durationMs: run.durationMs,
  };
}

export class SchedulerService {
  private readonly jobs = new Map<string, JobState>();
  private readonly queue: string[] = [];
  private running: { learnerId: string; controller: AbortController; done: Promise<void> } | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;
  private closed = false;
  /** Recent simulations by learner and everything they depend on (see `simulate`). */
  private readonly simulations = new Map<string, Promise<SimulationPoint[]>>();

  constructor(
    private readonly deps: {
      storage: Storage;
      optimizer: ParameterOptimizer;
      /** Off the serving thread in the server (a worker); in-process when not given (tests). */
      simulator?: RetentionSimulator;
      clock: Clock;
      ids: IdGenerator;
      logger: Logger;
    },
    private readonly policy = optimizationPolicy,
  ) {}

  /** Starts the automatic optimiser's periodic sweep (SPEC cadence in optimization-policy.ts). */
  start(): void {
    if (this.sweepTimer) return;
    this.sweepTimer = setInterval(() => void this.sweep(), this.policy.sweepIntervalMs);
    this.sweepTimer.unref();
  }

  async status(learnerId: string): Promise<SchedulerStatus> {
    const { settings, runs, reviewCount } = await this.deps.storage.read(async (reader) => ({
      settings: await loadSchedulerSettings(reader, learnerId),
      runs: await reader.scheduler.listRuns(learnerId, 10),
      reviewCount: await reader.scheduler.reviewCount(learnerId),
    }));
    const current = runs.find((run) => run.kept) ?? null;
    const job = this.jobs.get(learnerId);
    return {
      desiredRetention: settings.retention,
      parameters: { weights: [...(settings.weights ?? defaultWeights)], source: settings.weights ? 'optimised' : 'default', run: current ? toRunView(current) : null },
      reviewCount,
      thresholds: { automatic: this.policy.automaticMinimumReviews, manual: this.policy.manualMinimumReviews },
      optimization: !job
        ? { state: 'idle', progress: null, error: null }
        : job.state === 'failed'
          ? { state: 'failed', progress: null, error: job.error }
          : { state: job.state, progress: job.progress, error: null },
      runs: runs.map(toRunView),
    };
  }

  /** `POST /api/me/scheduler/optimize`: queues a run (or reports the one under way). */
  async requestOptimization(learnerId: string): Promise<SchedulerStatus> {
    const job = this.jobs.get(learnerId);
    if (job && job.state !== 'failed') return this.status(learnerId);
    const reviewCount = await this.deps.storage.read((reader) => reader.scheduler.reviewCount(learnerId));
    if (reviewCount < this.policy.manualMinimumReviews) {
      throw new AppError('conflict', `Optimising needs at least ${this.policy.manualMinimumReviews} reviews; you have ${reviewCount}. Keep reviewing and try again.`);
    }
    this.enqueue(learnerId);
    return this.status(learnerId);
  }

  /** Queues the learners whose log has grown enough (the automatic optimiser). */
  async sweep(): Promise<string[]> {
    const now = this.deps.clock.now();
    const candidates = await this.deps.storage.read(async (reader) => {
      const due: string[] = [];
      for (const { learnerId, reviewCount } of await reader.scheduler.learnersWithReviews(this.policy.automaticMinimumReviews)) {
        const [last] = await reader.scheduler.listRuns(learnerId, 1);
        if (automaticRunDue(reviewCount, last ?? null, now, this.policy)) due.push(learnerId);
      }
      return due;
    });
    for (const learnerId of candidates) if (!this.jobs.has(learnerId) || this.jobs.get(learnerId)!.state === 'failed') this.enqueue(learnerId);
    return candidates;
  }

  /** Resolves once nothing is queued or running (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running.done;
  }

  async simulate(learnerId: string, body: SimulateBody): Promise<SimulationResponse> {
    const days = body.days ?? defaultSimulatedDays;
    const retentions = [...new Set(body.retentions ?? defaultSimulatedRetentions)].sort((a, b) => a - b);
    const { settings, cards, reviewCount } = await this.deps.storage.read(async (reader) => {
      const points = (await reader.recallSets.listByLearner(learnerId)).map((set) => set.id);
      const allPoints = points.length === 0 ? [] : await reader.recallSets.listPointsOfSets(points);
      const cards = await reader.cards.listFor(learnerId, allPoints.map((point) => point.id));
      return {
        settings: await loadSchedulerSettings(reader, learnerId),
        cards: allPoints.map((point) => cards.get(point.id) ?? null),
        reviewCount: await reader.scheduler.reviewCount(learnerId),
      };
    });
    const now = this.deps.clock.now();
    // The same question the same day, with the same cards, reviews and parameters, gets the
    // same answer: the Settings page asks on every visit, and each answer costs seconds of CPU.
    const key = JSON.stringify([learnerId, now.toISOString().slice(0, 10), days, retentions, cards.length, reviewCount, settings.weights]);
    let simulation = this.simulations.get(key);
    if (!simulation) {
      simulation = (this.deps.simulator ?? inProcessSimulator).simulate({ cards, weights: settings.weights, retentions, days, now, seed: learnerId });
      this.remember(key, simulation);
    }
    return { days, cardCount: cards.length, points: await simulation };
  }

  /** Keeps the newest simulations (a failed one is forgotten, so the next request tries again). */
  private remember(key: string, simulation: Promise<SimulationPoint[]>): void {
    this.simulations.set(key, simulation);
    simulation.catch(() => this.simulations.delete(key));
    while (this.simulations.size > 200) this.simulations.delete(this.simulations.keys().next().value!);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.queue.length = 0;
    this.running?.controller.abort();
    await this.idle();
  }

  private enqueue(learnerId: string): void {
    if (this.closed) return;
    this.jobs.set(learnerId, { state: 'queued', progress: null });
    this.queue.push(learnerId);
    this.pump();
  }

  /** One fit at a time: the machine's cores serve turns first. */
  private pump(): void {
    if (this.running || this.closed) return;
    const learnerId = this.queue.shift();
    if (!learnerId) return;
    const controller = new AbortController();
    this.jobs.set(learnerId, { state: 'running', progress: 0 });
    const done = optimizeLearner(this.deps, learnerId, {
      minimumReviews: this.policy.manualMinimumReviews,
      signal: controller.signal,
      onProgress: (completed, total) => this.jobs.set(learnerId, { state: 'running', progress: total > 0 ? Math.min(1, completed / total) : null }),
    })
      .then((outcome) => {
        if (outcome.ok) {
          this.jobs.delete(learnerId);
          this.deps.logger.info({ learnerId, kept: outcome.run.kept, metrics: outcome.run.metrics, previous: outcome.run.previousMetrics, rescheduled: outcome.rescheduledCards, ms: outcome.run.durationMs }, 'scheduler parameters optimised');
        } else {
          this.jobs.set(learnerId, { state: 'failed', error: `Not enough reviews yet (${outcome.reviewCount}).` });
        }
      })
      .catch((error: unknown) => {
        this.deps.logger.warn({ err: error, learnerId }, 'scheduler optimisation failed');
        this.jobs.set(learnerId, { state: 'failed', error: 'The optimisation failed; your parameters are unchanged.' });
      })
      .finally(() => {
        this.running = null;
        this.pump();
      });
    this.running = { learnerId, controller, done };
  }
}
