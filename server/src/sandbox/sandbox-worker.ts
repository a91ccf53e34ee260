import { Worker, type ResourceLimits } from 'node:worker_threads';
import type { WorkerEvent, WorkerFailure, WorkerRunMessage, WorkerStartData } from './protocol';
import { buildRunResult, type RunRecord } from './run-result';
import type { CodeTest, RunResult } from './types';

export interface SandboxWorkerOptions {
  /** Used in error messages: "the python sandbox could not start". */
  name: string;
  /** The worker entry file (plain ESM, so it starts the same under tsx, vitest and node). */
  entry: URL;
  timeoutMs: number;
  /** How long a run may take to stop after the interrupt before its thread is terminated. */
  graceMs: number;
  memoryBytes: number;
  /** V8 heap caps for the thread; exceeding them ends the thread, not the server. */
  resourceLimits: ResourceLimits;
  /** A worker that is not ready by then is given up (and retried on the next run). */
  bootTimeoutMs: number;
}

/** A validated submission: `argsJson[i]` is `JSON.stringify(tests[i].args)`. */
export interface SandboxJob {
  code: string;
  functionName: string;
  tests: CodeTest[];
  argsJson: string[];
}

interface PendingRun {
  job: SandboxJob;
  signal?: AbortSignal;
  resolve(result: RunResult): void;
  reject(reason: unknown): void;
  onAbort?: () => void;
}

interface ActiveRun {
  pending: PendingRun;
  runId: number;
  slot: WorkerSlot;
  startedAt: number;
  record: Pick<RunRecord, 'loaded' | 'loadFailure' | 'reports' | 'stopped' | 'output'>;
  timers: NodeJS.Timeout[];
  /** The caller gave up: the run is still stopped cleanly, but nobody gets its result. */
  abandoned: boolean;
}

interface WorkerSlot {
  worker: Worker;
  ready: Promise<void>;
  isReady: boolean;
}

const TIME_LIMIT: WorkerFailure = { kind: 'timeout', message: 'time limit exceeded' };

/**
 * One sandbox worker thread and the queue in front of it. Runs are serialized
 * (one interpreter runs one submission at a time) and each is watched by two
 * timers: at the time limit the shared interrupt flag is raised (Python gets a
 * KeyboardInterrupt, QuickJS's interrupt handler fires); if the run has still not
 * stopped after `graceMs` (a C-level loop, a swallowed interrupt) the thread is
 * terminated and a fresh one is started in the background. A thread that dies
 * (heap cap, crash) is replaced the same way; the server is never affected.
 */
export class SandboxWorker {
  readonly #options: SandboxWorkerOptions;
  readonly #interruptBuffer = new SharedArrayBuffer(4);
  readonly #interrupt = new Int32Array(this.#interruptBuffer);
  readonly #queue: PendingRun[] = [];
  #slot: WorkerSlot | undefined;
  #active: ActiveRun | undefined;
  #waitingForBoot = false;
  #nextRunId = 1;
  #closed = false;

  constructor(options: SandboxWorkerOptions) {
    this.#options = options;
  }

  /** Starts the thread if needed and resolves once it can take a run. */
  warm(): Promise<void> {
    if (this.#closed) return Promise.reject(new Error(`the ${this.#options.name} sandbox is closed`));
    return this.#ensureSlot().ready;
  }

  run(job: SandboxJob, signal?: AbortSignal): Promise<RunResult> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.#closed) return Promise.resolve(stoppedResult(job, { kind: 'internal', message: `the ${this.#options.name} sandbox is closed` }));
    return new Promise((resolve, reject) => {
      const pending: PendingRun = { job, resolve, reject };
      if (signal) {
        pending.signal = signal;
        pending.onAbort = () => this.#abort(pending);
        signal.addEventListener('abort', pending.onAbort, { once: true });
      }
      this.#queue.push(pending);
      this.#pump();
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    const closed: WorkerFailure = { kind: 'internal', message: `the ${this.#options.name} sandbox was closed` };
    for (const pending of this.#queue.splice(0)) settle(pending, stoppedResult(pending.job, closed));
    if (this.#active) this.#finish(this.#active, closed);
    const slot = this.#slot;
    this.#slot = undefined;
    await slot?.worker.terminate();
  }

  #ensureSlot(): WorkerSlot {
    if (this.#slot) return this.#slot;
    const workerData: WorkerStartData = { interruptBuffer: this.#interruptBuffer, memoryBytes: this.#options.memoryBytes };
    const worker = new Worker(this.#options.entry, {
      workerData,
      resourceLimits: this.#options.resourceLimits,
      // Nothing of the server's environment (secrets) or flags reaches the thread.
      env: {},
      execArgv: [],
      name: `${this.#options.name}-sandbox`,
      // Learner output is captured inside the worker; what reaches the thread's own
      // console is Pyodide's fatal-error dump, which the run result already reports.
      stdout: true,
      stderr: true,
    });
    worker.stdout.resume();
    worker.stderr.resume();
    const slot: WorkerSlot = { worker, isReady: false, ready: Promise.resolve() };
    slot.ready = new Promise<void>((resolve, reject) => {
      const failBoot = (error: Error) => {
        clearTimeout(bootTimer);
        this.#discard(slot);
        reject(new Error(`the ${this.#options.name} sandbox could not start: ${error.message}`));
      };
      const bootTimer = setTimeout(() => failBoot(new Error('boot timed out')), this.#options.bootTimeoutMs);
      worker.on('message', (event: WorkerEvent) => {
        if (event.type === 'ready') {
          clearTimeout(bootTimer);
          slot.isReady = true;
          resolve();
        } else if (event.type === 'boot_failed') {
          failBoot(new Error(event.message));
        } else {
          this.#handleEvent(slot, event);
        }
      });
      worker.on('error', (error) => (slot.isReady ? this.#handleThreadLoss(slot, error) : failBoot(error)));
      worker.on('exit', (code) => {
        const error = new Error(`the worker thread exited with code ${code}`);
        return slot.isReady ? this.#handleThreadLoss(slot, error) : failBoot(error);
      });
    });
    // Callers of warm() and the queue observe failures; this only silences the default handler.
    slot.ready.catch(() => {});
    this.#slot = slot;
    return slot;
  }

  /** Forgets a thread and terminates it. Later events from it are ignored. */
  #discard(slot: WorkerSlot): void {
    if (this.#slot === slot) this.#slot = undefined;
    void slot.worker.terminate();
  }

  #pump(): void {
    if (this.#closed || this.#active || this.#waitingForBoot) return;
    const pending = this.#queue.shift();
    if (!pending) return;
    const slot = this.#ensureSlot();
    if (slot.isReady) return this.#dispatch(slot, pending);
    this.#queue.unshift(pending);
    this.#waitingForBoot = true;
    slot.ready
      .catch((error: unknown) => {
        // The same failure would meet every waiting run: report it to all of them.
        const failure: WorkerFailure = { kind: 'internal', message: error instanceof Error ? error.message : String(error) };
        for (const waiting of this.#queue.splice(0)) settle(waiting, stoppedResult(waiting.job, failure));
      })
      .finally(() => {
        this.#waitingForBoot = false;
        this.#pump();
      });
  }

  #dispatch(slot: WorkerSlot, pending: PendingRun): void {
    const runId = this.#nextRunId++;
    const active: ActiveRun = { pending, runId, slot, startedAt: performance.now(), record: { reports: [] }, timers: [], abandoned: false };
    this.#active = active;
    Atomics.store(this.#interrupt, 0, 0);
    const { code, functionName, argsJson } = pending.job;
    const message: WorkerRunMessage = { type: 'run', runId, code, functionName, argsJson };
    slot.worker.postMessage(message);
    const { timeoutMs, graceMs } = this.#options;
    active.timers.push(
      setTimeout(() => this.#interruptRun(active), timeoutMs),
      setTimeout(() => this.#replaceThread(slot, TIME_LIMIT, runId), timeoutMs + graceMs),
    );
  }

  /** The time limit: results that arrive from now on only count if they are failures. */
  #interruptRun(active: ActiveRun): void {
    if (this.#active !== active) return;
    active.record.stopped ??= TIME_LIMIT;
    Atomics.store(this.#interrupt, 0, 2); // SIGINT
  }

  #handleEvent(slot: WorkerSlot, event: Exclude<WorkerEvent, { type: 'ready' } | { type: 'boot_failed' }>): void {
    if (this.#slot !== slot) return;
    const active = this.#active?.runId === (event as { runId?: number }).runId ? this.#active : undefined;
    switch (event.type) {
      case 'loaded':
        if (active && event.failure) active.record.loadFailure = event.failure;
        else if (active) active.record.loaded = true;
        return;
      case 'called':
        if (active && !(active.record.stopped && event.report.ok)) active.record.reports[event.index] = event.report;
        return;
      case 'finished':
        if (active) {
          active.record.output = event.output;
          this.#finish(active);
        }
        return;
      case 'crashed':
        return this.#replaceThread(slot, event.failure, event.runId);
      default:
        return assertNever(event);
    }
  }

  #handleThreadLoss(slot: WorkerSlot, error: Error & { code?: string }): void {
    if (this.#slot !== slot) return;
    const failure: WorkerFailure =
      error.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? { kind: 'memory', message: 'memory limit exceeded (the sandbox thread ran out of heap)' }
        : { kind: 'internal', message: `the sandbox thread stopped: ${error.message}` };
    this.#replaceThread(slot, failure);
  }

  /**
   * Terminates a thread and starts its replacement right away, so the next run
   * does not pay the cold start. `failedRunId` names the run the failure belongs
   * to; a different active run had not started yet and goes back to the queue.
   */
  #replaceThread(slot: WorkerSlot, failure: WorkerFailure, failedRunId?: number): void {
    if (this.#slot !== slot) return;
    this.#discard(slot);
    const active = this.#active;
    if (active && (failedRunId === undefined || failedRunId === active.runId)) {
      this.#finish(active, failure);
    } else if (active) {
      clearTimers(active);
      this.#active = undefined;
      this.#queue.unshift(active.pending);
    }
    if (!this.#closed) void this.#ensureSlot();
    this.#pump();
  }

  #finish(active: ActiveRun, stopped?: WorkerFailure): void {
    if (this.#active !== active) return;
    this.#active = undefined;
    clearTimers(active);
    if (stopped) active.record.stopped ??= stopped;
    const result = buildRunResult({ ...active.record, tests: active.pending.job.tests, durationMs: performance.now() - active.startedAt });
    if (!active.abandoned) settle(active.pending, result);
    this.#pump();
  }

  #abort(pending: PendingRun): void {
    const reason = pending.signal?.reason;
    const queuedAt = this.#queue.indexOf(pending);
    if (queuedAt !== -1) this.#queue.splice(queuedAt, 1);
    pending.reject(reason);
    const active = this.#active;
    if (active?.pending !== pending) return;
    // Stop the running code now rather than let it use up its time limit.
    active.abandoned = true;
    Atomics.store(this.#interrupt, 0, 2);
    active.timers.push(setTimeout(() => this.#replaceThread(active.slot, TIME_LIMIT, active.runId), this.#options.graceMs));
  }
}

function settle(pending: PendingRun, result: RunResult): void {
  if (pending.onAbort) pending.signal?.removeEventListener('abort', pending.onAbort);
  pending.resolve(result);
}

function clearTimers(active: ActiveRun): void {
  for (const timer of active.timers) clearTimeout(timer);
  active.timers = [];
}

/** The result of a run that never got to execute. */
export function stoppedResult(job: Pick<SandboxJob, 'tests'>, failure: WorkerFailure): RunResult {
  return buildRunResult({ tests: job.tests, reports: [], stopped: failure, durationMs: 0 });
}

function assertNever(value: never): never {
  throw new Error(`unexpected worker event: ${JSON.stringify(value)}`);
}
