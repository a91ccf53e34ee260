/**
 * The learner's scheduler (issue 17): their FSRS parameters and metrics, optimisation on
 * demand and automatically (off the request path: a queue running one fit at a time in a
 * child process), and the retention simulator (in a worker thread). Through the storage port.
 *
 * Several instances on one PostgreSQL each sweep and take requests (SPEC §11): a job runs only
 * under the learner's claim (`JobClaims`), and once claimed it is checked again against the
 * runs stored meanwhile, so an optimisation another instance has just made is not made twice.
 */
import type { SchedulerRunView, SchedulerStatus, SimulateBody, SimulationResponse } from '@tutorloop/shared';
import type { Clock, IdGenerator, Logger } from '../core/ports';
import { defaultWeights } from '../core/scheduler/fsrs';
import { loadSchedulerSettings } from '../core/scheduler/learner-settings';
import { optimizeLearner, type OptimizeLearnerOutcome } from '../core/scheduler/optimize-learner';
import { localJobClaims, type JobClaims } from '../core/scheduler/job-claims';
import { automaticRunDue, optimizationPolicy } from '../core/scheduler/optimization-policy';
import type { ParameterOptimizer } from '../core/scheduler/optimizer-port';
import type { SimulationPoint } from '../core/scheduler/simulate';
import { inProcessSimulator, type RetentionSimulator } from '../core/scheduler/simulator-port';
import type { StoredSchedulerRun } from '../core/storage/scheduler-runs';
import type { Storage } from '../core/storage/storage';
import { AppError } from './app-error';

type JobState = { state: 'queued' | 'running'; progress: number | null } | { state: 'failed'; error: string };

/** A queued optimisation: asked for by the learner, or found due by the sweep. */
interface QueuedJob {
  learnerId: string;
  automatic: boolean;
}

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
  private readonly queue: QueuedJob[] = [];
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
      /** Claims shared with other instances (PostgreSQL); none needed for one process. */
      claims?: JobClaims;
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
    const job = this.jobs.get(learnerId) ?? (await this.runningElsewhere(learnerId));
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

  /** A job another instance is running for the learner (shared claims only), as this one reports it. */
  private async runningElsewhere(learnerId: string): Promise<JobState | undefined> {
    const claims = this.deps.claims;
    if (!claims?.shared || !(await claims.held(learnerId, 'optimize'))) return undefined;
    return { state: 'running', progress: null };
  }

  /** `POST /api/me/scheduler/optimize`: queues a run (or reports the one under way). */
  async requestOptimization(learnerId: string): Promise<SchedulerStatus> {
    const job = this.jobs.get(learnerId);
    if (job && job.state !== 'failed') return this.status(learnerId);
    const reviewCount = await this.deps.storage.read((reader) => reader.scheduler.reviewCount(learnerId));
    if (reviewCount < this.policy.manualMinimumReviews) {
      throw new AppError('conflict', `Optimising needs at least ${this.policy.manualMinimumReviews} reviews; you have ${reviewCount}. Keep reviewing and try again.`);
    }
    this.enqueue(learnerId, false);
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
    for (const learnerId of candidates) if (!this.jobs.has(learnerId) || this.jobs.get(learnerId)!.state === 'failed') this.enqueue(learnerId, true);
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

  private enqueue(learnerId: string, automatic: boolean): void {
    if (this.closed) return;
    this.jobs.set(learnerId, { state: 'queued', progress: null });
    this.queue.push({ learnerId, automatic });
    this.pump();
  }

  /**
   * Runs the job under the learner's claim; 'elsewhere' when another instance holds it or has
   * just served it. With shared claims, what was due when queued is read again once claimed:
   * another instance may have stored a run in between (a sweep of its own, the same request).
   */
  private async runClaimed(job: QueuedJob, signal: AbortSignal): Promise<OptimizeLearnerOutcome | 'elsewhere'> {
    const { learnerId } = job;
    const claims = this.deps.claims ?? localJobClaims;
    if (!(await claims.claim(learnerId, 'optimize'))) return 'elsewhere';
    try {
      if (claims.shared && (await this.servedAlready(job))) return 'elsewhere';
      return await optimizeLearner(this.deps, learnerId, {
        minimumReviews: this.policy.manualMinimumReviews,
        signal,
        onProgress: (completed, total) => this.jobs.set(learnerId, { state: 'running', progress: total > 0 ? Math.min(1, completed / total) : null }),
      });
    } finally {
      await claims.release(learnerId, 'optimize').catch((error: unknown) => this.deps.logger.warn({ err: error, learnerId }, 'could not release an optimisation claim'));
    }
  }

  /**
   * Whether a stored run already serves the job: for the sweep, the run is no longer due; for a
   * request, the newest run was fitted on every review there is (a fit on the same reviews
   * finds the same parameters, so a second one would change nothing).
   */
  private async servedAlready(job: QueuedJob): Promise<boolean> {
    const { reviewCount, last } = await this.deps.storage.read(async (reader) => ({
      reviewCount: await reader.scheduler.reviewCount(job.learnerId),
      last: (await reader.scheduler.listRuns(job.learnerId, 1))[0] ?? null,
    }));
    if (job.automatic) return !automaticRunDue(reviewCount, last, this.deps.clock.now(), this.policy);
    return last !== null && last.reviewCount >= reviewCount;
  }

  /** One fit at a time: the machine's cores serve turns first. */
  private pump(): void {
    if (this.running || this.closed) return;
    const job = this.queue.shift();
    if (!job) return;
    const { learnerId } = job;
    const controller = new AbortController();
    this.jobs.set(learnerId, { state: 'running', progress: 0 });
    const done = this.runClaimed(job, controller.signal)
      .then((outcome) => {
        if (outcome === 'elsewhere') {
          // Another instance runs it or has just stored its run: the learner's status reads that run.
          this.jobs.delete(learnerId);
        } else if (outcome.ok) {
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
