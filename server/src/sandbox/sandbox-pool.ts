import { Worker, type ResourceLimits } from 'node:worker_threads';
import { FairQueue } from './fair-queue';
import type { WorkerEvent, WorkerFailure, WorkerRunMessage, WorkerStartData } from './protocol';
import { buildRunResult, type RunRecord } from './run-result';
import type { CodeTest, RunResult } from './types';

export interface SandboxPoolOptions {
  /** Used in error messages: "the python sandbox could not start". */
  name: string;
  /** The worker entry file (plain ESM, so it starts the same under tsx, vitest and node). */
  entry: URL;
  /** How many worker threads run submissions side by side. */
  workers: number;
  /** The most runs one owner may have in the pool, waiting or running; more are refused as `busy`. */
  maxQueuedPerOwner: number;
  timeoutMs: number;
  /** How long a run may take to stop after the interrupt before its thread is terminated. */
  graceMs: number;
  memoryBytes: number;
  /** V8 heap caps for each thread; exceeding them ends the thread, not the server. */
  resourceLimits: ResourceLimits;
  /** A thread that is not ready by then (at start-up, or with its next interpreter after a run) is given up. */
  bootTimeoutMs: number;
  /**
   * After this long with nothing queued or running, every thread (and the boot image) is
   * released and the next run starts the pool again, as the first one did. Unset: kept.
   */
  idleMs?: number;
}

/** A validated submission: `argsJson[i]` is `JSON.stringify(tests[i].args)`. */
export interface SandboxJob {
  code: string;
  functionName: string;
  tests: CodeTest[];
  argsJson: string[];
}

export interface RunContext {
  /** Who submitted (the learner id): queues and limits are per owner. */
  owner?: string;
  signal?: AbortSignal;
}

/** The owner of runs submitted without one: they share one queue and one limit. */
export const ANONYMOUS_OWNER = '';

interface PendingRun {
  job: SandboxJob;
  owner: string;
  signal?: AbortSignal;
  resolve(result: RunResult): void;
  reject(reason: unknown): void;
  onAbort?: () => void;
}

interface ActiveRun {
  pending: PendingRun;
  runId: number;
  startedAt: number;
  /** This run's own interrupt flag: a late interrupt cannot reach the next run. */
  interrupt: Int32Array;
  record: Pick<RunRecord, 'loaded' | 'loadFailure' | 'reports' | 'stopped' | 'output'>;
  timers: NodeJS.Timeout[];
  /** The caller gave up: the run is still stopped cleanly, but nobody gets its result. */
  abandoned: boolean;
}

/**
 * booting: started, not ready yet; idle: ready for a run; busy: running one;
 * recycling: the run ended, the thread prepares its next fresh interpreter.
 */
type ThreadState = 'booting' | 'idle' | 'busy' | 'recycling';

interface WorkerThread {
  worker: Worker;
  state: ThreadState;
  /** Has been ready once: until then, a failure is a failed boot. */
  booted: boolean;
  /** Started from another thread's boot image. */
  fromBootImage: boolean;
  active?: ActiveRun;
  bootTimer?: NodeJS.Timeout;
  /** Resolves when the thread is next idle (or gone); rejects if it fails to boot. */
  idle: Deferred;
}

const TIME_LIMIT: WorkerFailure = { kind: 'timeout', message: 'time limit exceeded' };

/**
 * A pool of worker threads for one language and the fair queue in front of it
 * (SPEC §8). Each thread runs one submission at a time; runs wait in
 * per-owner queues and the next free thread takes the oldest run of the owner
 * served least recently, so one learner's loops cannot starve another learner.
 *
 * Each run is watched by two timers: at the time limit its interrupt flag is
 * raised (Python gets a KeyboardInterrupt, QuickJS's interrupt handler fires);
 * if it has still not stopped after `graceMs` (a C-level loop, a swallowed
 * interrupt) its thread is terminated and a fresh one started in the
 * background. A thread that dies (heap cap, crash) is replaced the same way;
 * the server is never affected.
 */
export class SandboxPool {
  readonly #options: SandboxPoolOptions;
  readonly #queue: FairQueue<PendingRun>;
  readonly #threads = new Set<WorkerThread>();
  /** The first boot image a thread made before running anything; later threads start from it. */
  #bootImage: Uint8Array | undefined;
  #nextRunId = 1;
  #closed = false;
  /** Armed while the pool is quiet (threads all idle, nothing queued): releases the threads when it fires. */
  #idleTimer: NodeJS.Timeout | undefined;

  constructor(options: SandboxPoolOptions) {
    this.#options = options;
    this.#queue = new FairQueue(options.maxQueuedPerOwner);
  }

  /** Starts the threads if needed and resolves once every one can take a run at once. */
  async warm(): Promise<void> {
    this.#disarmIdleRelease();
    for (;;) {
      if (this.#closed) throw new Error(`the ${this.#options.name} sandbox is closed`);
      this.#startThreads();
      const waitingFor = [...this.#threads].filter((thread) => thread.state !== 'idle');
      if (waitingFor.length === 0) return;
      await Promise.all(waitingFor.map((thread) => thread.idle.promise));
    }
  }

  run(job: SandboxJob, context: RunContext = {}): Promise<RunResult> {
    const { owner = ANONYMOUS_OWNER, signal } = context;
    if (signal?.aborted) return Promise.reject(signal.reason);
    this.#disarmIdleRelease();
    if (this.#closed) return Promise.resolve(stoppedResult(job, { kind: 'internal', message: `the ${this.#options.name} sandbox is closed` }));
    if (!this.#queue.hasRoom(owner)) {
      const { maxQueuedPerOwner } = this.#options;
      const message = `a previous run is still queued or running (at most ${maxQueuedPerOwner} at a time): wait for it to finish, then submit again`;
      return Promise.resolve(stoppedResult(job, { kind: 'busy', message }));
    }
    return new Promise((resolve, reject) => {
      const pending: PendingRun = { job, owner, resolve, reject };
      if (signal) {
        pending.signal = signal;
        pending.onAbort = () => this.#abort(pending);
        signal.addEventListener('abort', pending.onAbort, { once: true });
      }
      this.#queue.push(owner, pending);
      this.#startThreads();
      this.#pump();
    });
  }

  /** Threads started and not yet released (booting, idle or busy). */
  get threadCount(): number {
    return this.#threads.size;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#disarmIdleRelease();
    const closed: WorkerFailure = { kind: 'internal', message: `the ${this.#options.name} sandbox was closed` };
    for (const pending of this.#queue.drain()) settle(pending, stoppedResult(pending.job, closed));
    const threads = [...this.#threads];
    this.#threads.clear();
    for (const thread of threads) {
      clearTimeout(thread.bootTimer);
      if (thread.active) this.#finish(thread, thread.active, closed);
      thread.idle.resolve();
    }
    await Promise.all(threads.map((thread) => thread.worker.terminate()));
  }

  /**
   * Starts threads up to the pool size. Without a boot image yet, one thread
   * starts alone: the others start once it is up, from the image it made,
   * rather than each paying the interpreter's cold start. Failed boots are
   * retried here, on the next run or warm(), never in a loop.
   */
  #startThreads(): void {
    while (!this.#closed && this.#threads.size < this.#options.workers) {
      if (!this.#bootImage && [...this.#threads].some((thread) => !thread.booted)) return;
      this.#spawn();
    }
  }

  #spawn(): void {
    const bootImage = this.#bootImage;
    const workerData: WorkerStartData = { memoryBytes: this.#options.memoryBytes, ...(bootImage ? { bootImage } : {}) };
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
    const thread: WorkerThread = { worker, state: 'booting', booted: false, fromBootImage: bootImage !== undefined, idle: deferred() };
    this.#threads.add(thread);
    this.#armBootTimer(thread);
    worker.on('message', (event: WorkerEvent) => this.#handleEvent(thread, event));
    worker.on('error', (error) => this.#handleThreadLoss(thread, error));
    worker.on('exit', (code) => this.#handleThreadLoss(thread, new Error(`the worker thread exited with code ${code}`)));
  }

  #armBootTimer(thread: WorkerThread): void {
    clearTimeout(thread.bootTimer);
    thread.bootTimer = setTimeout(() => {
      if (!thread.booted) return this.#failBoot(thread, new Error('boot timed out'));
      this.#replaceThread(thread, { kind: 'internal', message: `the ${this.#options.name} sandbox did not get a fresh interpreter ready in time` });
    }, this.#options.bootTimeoutMs);
  }

  #handleEvent(thread: WorkerThread, event: WorkerEvent): void {
    if (!this.#threads.has(thread)) return;
    const active = thread.active && 'runId' in event && event.runId === thread.active.runId ? thread.active : undefined;
    switch (event.type) {
      case 'ready':
        if (thread.state === 'busy') return;
        clearTimeout(thread.bootTimer);
        thread.booted = true;
        thread.state = 'idle';
        thread.idle.resolve();
        this.#startThreads();
        return this.#pump();
      case 'boot_failed':
        return this.#failBoot(thread, new Error(event.message));
      case 'boot_image':
        // Only from a thread that has run nothing yet: no learner code can have touched it.
        if (!thread.booted && !this.#bootImage && event.image instanceof Uint8Array) this.#bootImage = event.image;
        return this.#startThreads();
      case 'loaded':
        if (active && event.failure) active.record.loadFailure = event.failure;
        else if (active) active.record.loaded = true;
        return;
      case 'called':
        if (active && !(active.record.stopped && event.report.ok)) active.record.reports[event.index] = event.report;
        return;
      case 'finished':
        if (!active) return;
        active.record.output = event.output;
        thread.state = 'recycling';
        this.#armBootTimer(thread);
        return this.#finish(thread, active);
      case 'crashed':
        return this.#replaceThread(thread, event.failure);
      default:
        return assertNever(event);
    }
  }

  #handleThreadLoss(thread: WorkerThread, error: Error & { code?: string }): void {
    if (!this.#threads.has(thread)) return;
    if (!thread.booted) return this.#failBoot(thread, error);
    const failure: WorkerFailure =
      error.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? { kind: 'memory', message: 'memory limit exceeded (the sandbox thread ran out of heap)' }
        : { kind: 'internal', message: `the sandbox thread stopped: ${error.message}` };
    this.#replaceThread(thread, failure);
  }

  #failBoot(thread: WorkerThread, error: Error): void {
    if (!this.#threads.has(thread)) return;
    this.#forget(thread);
    const failure = new Error(`the ${this.#options.name} sandbox could not start: ${error.message}`);
    thread.idle.reject(failure);
    // A bad image must not fail every later thread: the next one makes its own.
    if (thread.fromBootImage) this.#bootImage = undefined;
    // With no thread left to take them, the same failure would meet every waiting run.
    if (this.#threads.size === 0) {
      for (const pending of this.#queue.drain()) settle(pending, stoppedResult(pending.job, { kind: 'internal', message: failure.message }));
    }
  }

  /**
   * Terminates a thread, ends its run (if any) with `failure`, and starts a
   * replacement right away, so the next run does not wait for a boot.
   */
  #replaceThread(thread: WorkerThread, failure: WorkerFailure): void {
    if (!this.#threads.has(thread)) return;
    this.#forget(thread);
    if (thread.active) this.#finish(thread, thread.active, failure);
    thread.idle.resolve();
    this.#startThreads();
    this.#pump();
  }

  /** Takes a thread out of the pool and terminates it. Later events from it are ignored. */
  #forget(thread: WorkerThread): void {
    this.#threads.delete(thread);
    clearTimeout(thread.bootTimer);
    void thread.worker.terminate();
  }

  #pump(): void {
    if (this.#closed) return;
    for (const thread of this.#threads) {
      if (thread.state !== 'idle') continue;
      const next = this.#queue.shift();
      if (!next) return this.#armIdleRelease();
      this.#dispatch(thread, next.item);
    }
  }

  /**
   * A Pyodide thread holds ~150 MB: a server whose learners stopped running code gives it back
   * after `idleMs`. Armed only when every thread is idle and nothing waits; any run or warm()
   * disarms it. The timer never keeps the process alive.
   */
  #armIdleRelease(): void {
    const { idleMs } = this.#options;
    if (idleMs === undefined || this.#idleTimer || this.#threads.size === 0) return;
    if ([...this.#threads].some((thread) => thread.state !== 'idle')) return;
    this.#idleTimer = setTimeout(() => {
      this.#idleTimer = undefined;
      if (this.#closed || [...this.#threads].some((thread) => thread.state !== 'idle')) return;
      for (const thread of [...this.#threads]) {
        this.#forget(thread);
        thread.idle.resolve();
      }
      this.#bootImage = undefined;
    }, idleMs);
    this.#idleTimer.unref();
  }

  #disarmIdleRelease(): void {
    clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
  }

  #dispatch(thread: WorkerThread, pending: PendingRun): void {
    const interruptBuffer = new SharedArrayBuffer(4);
    const active: ActiveRun = {
      pending,
      runId: this.#nextRunId++,
      startedAt: performance.now(),
      interrupt: new Int32Array(interruptBuffer),
      record: { reports: [] },
      timers: [],
      abandoned: false,
    };
    thread.state = 'busy';
    thread.active = active;
    thread.idle = deferred();
    const { code, functionName, argsJson } = pending.job;
    const message: WorkerRunMessage = { type: 'run', runId: active.runId, code, functionName, argsJson, interruptBuffer };
    thread.worker.postMessage(message);
    const { timeoutMs, graceMs } = this.#options;
    active.timers.push(
      setTimeout(() => this.#interruptRun(thread, active), timeoutMs),
      setTimeout(() => this.#stopRun(thread, active), timeoutMs + graceMs),
    );
  }

  /** The time limit: results that arrive from now on only count if they are failures. */
  #interruptRun(thread: WorkerThread, active: ActiveRun): void {
    if (thread.active !== active) return;
    active.record.stopped ??= TIME_LIMIT;
    Atomics.store(active.interrupt, 0, 2); // SIGINT
  }

  /** The run ignored its interrupt: only terminating its thread stops it. */
  #stopRun(thread: WorkerThread, active: ActiveRun): void {
    if (thread.active === active) this.#replaceThread(thread, TIME_LIMIT);
  }

  #finish(thread: WorkerThread, active: ActiveRun, stopped?: WorkerFailure): void {
    if (thread.active !== active) return;
    thread.active = undefined;
    clearTimers(active);
    this.#queue.release(active.pending.owner);
    if (stopped) active.record.stopped ??= stopped;
    const result = buildRunResult({ ...active.record, tests: active.pending.job.tests, durationMs: performance.now() - active.startedAt });
    if (!active.abandoned) settle(active.pending, result);
    this.#pump();
  }

  #abort(pending: PendingRun): void {
    const wasWaiting = this.#queue.remove(pending.owner, pending);
    pending.reject(pending.signal?.reason);
    if (wasWaiting) return;
    for (const thread of this.#threads) {
      const active = thread.active;
      if (active?.pending !== pending) continue;
      // Stop the running code now rather than let it use up its time limit.
      active.abandoned = true;
      Atomics.store(active.interrupt, 0, 2);
      active.timers.push(setTimeout(() => this.#stopRun(thread, active), this.#options.graceMs));
    }
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

interface Deferred {
  promise: Promise<void>;
  resolve(): void;
  reject(reason: Error): void;
}

function deferred(): Deferred {
  let resolve!: () => void;
  let reject!: (reason: Error) => void;
  const promise = new Promise<void>((onResolve, onReject) => {
    resolve = onResolve;
    reject = onReject;
  });
  // warm() observes failures; this only silences the default handler.
  promise.catch(() => {});
  return { promise, resolve, reject };
}

function assertNever(value: never): never {
  throw new Error(`unexpected worker event: ${JSON.stringify(value)}`);
}
