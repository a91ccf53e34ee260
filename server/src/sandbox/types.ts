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
}

/** Runs untrusted learner code. Runs of one language are queued and run one at a time. */
export interface Sandbox {
  /** Scores a submission. Never rejects for a learner's fault; rejects with the signal's reason when aborted. */
  run(request: RunRequest, signal?: AbortSignal): Promise<RunResult>;
  /** Starts the workers and waits until both can take a run (Pyodide cold start). */
  warm(): Promise<void>;
  /** Stops the workers; queued and running runs end with an `internal` error. */
  close(): Promise<void>;
}
