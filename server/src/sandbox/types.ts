/** One test case: the function is called with `args` and must return `expected` (JSON values). */
export interface CodeTest {
  args: unknown[];
  expected: unknown;
}

export const SANDBOX_LANGUAGES = ['python', 'javascript'] as const;
export type SandboxLanguage = (typeof SANDBOX_LANGUAGES)[number];

/** A submission to score: `code` must define `functionName`; each test calls it once. */
export interface RunRequest {
  language: SandboxLanguage;
  code: string;
  functionName: string;
  tests: CodeTest[];
  /**
   * Who submitted it (the learner id). Runs wait in one queue per owner, served
   * round robin, and an owner may have at most `maxQueuedPerOwner` runs in the
   * sandbox. Runs without an owner share one anonymous owner.
   */
  owner?: string;
}

/** The outcome of one test, in the order of `RunRequest.tests`. */
export interface TestOutcome {
  passed: boolean;
  /** What the function returned (JSON data), when it returned. */
  actual?: unknown;
  /** Why there is no usable return value: the exception, or why the test did not run. */
  error?: string;
}

export const RUN_ERROR_KINDS = {
  /** The time limit was reached (interrupted, or the worker was replaced). */
  timeout: 'timeout',
  /** The memory limit was reached (MemoryError, QuickJS out of memory, or the worker's heap cap). */
  memory: 'memory',
  /** The code does not parse. */
  syntax: 'syntax',
  /** Something else went wrong while loading the code or inside a test (the first such error). */
  runtime: 'runtime',
  /** The code tried something the sandbox refuses: a blocked import, a process, a write outside scratch. */
  forbidden: 'forbidden',
  /** The code does not define `functionName` as a function. */
  missing_function: 'missing_function',
  /** A fault of the sandbox itself (worker failed to start, closed sandbox, bad request). */
  internal: 'internal',
  /** The owner already has `maxQueuedPerOwner` runs queued or running: nothing ran; wait for the previous run. */
  busy: 'busy',
} as const;
export type RunErrorKind = keyof typeof RUN_ERROR_KINDS;

/**
 * The score of one submission. Partial credit is `passed / total`.
 * `error` is set when something other than wrong answers happened: the run was cut
 * short (timeout, memory, internal), the code could not be loaded (syntax,
 * missing_function, forbidden or runtime at load) or a test raised (the first such
 * error; every test's own message is in its outcome).
 */
export interface RunResult {
  passed: number;
  total: number;
  outcomes: TestOutcome[];
  error?: { kind: RunErrorKind; message: string };
  /** Wall time of the run inside the sandbox, from dispatch to the last report. */
  durationMs: number;
  /** What the code printed (stdout and stderr, or console.log), cut at 4 KiB. */
  output?: string;
}

export interface SandboxOptions {
  /** Time limit per run (load plus every test), in milliseconds. Default 3000. */
  timeoutMs?: number;
  /**
   * Memory cap in MB. Default 128 for Python (its whole WebAssembly heap, the
   * interpreter's own ~35 MB included) and 32 for JavaScript (the QuickJS runtime).
   * When set, it applies to both languages.
   */
  memoryMb?: number;
  /** Python worker threads, each running one submission at a time. Default 2 (~150 MB RSS each). */
  pythonWorkers?: number;
  /** QuickJS worker threads. Default 2. */
  javascriptWorkers?: number;
  /**
   * The most runs one owner may have in the sandbox per language, queued or
   * running; one more resolves at once with a `busy` error. Default 3.
   */
  maxQueuedPerOwner?: number;
  /**
   * A language's threads are released after this many milliseconds without a run, and start
   * again on the next one (a Pyodide thread holds ~150 MB). Default 5 minutes.
   */
  idleMs?: number;
}

/**
 * Runs untrusted learner code. Each language has a pool of worker threads;
 * every run starts from a clean interpreter, and runs wait in per-owner queues
 * served round robin.
 */
export interface Sandbox {
  /** Scores a submission. Never rejects for a learner's fault; rejects with the signal's reason when aborted. */
  run(request: RunRequest, signal?: AbortSignal): Promise<RunResult>;
  /** Starts the workers and waits until every one can take a run at once (the Pyodide cold start, or the next fresh interpreter). */
  warm(): Promise<void>;
  /** Stops the workers; queued and running runs end with an `internal` error. */
  close(): Promise<void>;
}
