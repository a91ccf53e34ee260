/**
 * Messages between the host (sandbox-pool.ts, main thread) and a sandbox worker
 * thread (python-worker.mjs, javascript-worker.mjs). The workers are plain
 * JavaScript so that they start the same way under tsx, vitest and plain Node;
 * these types are their contract.
 */
import type { RunErrorKind } from './types';

/** Data every worker receives at start-up (`workerData`). */
export interface WorkerStartData {
  /** Memory cap for learner code: the Python heap or the QuickJS runtime. */
  memoryBytes: number;
  /**
   * A boot image another thread of the pool made before it ran any learner code
   * (Python: Pyodide's memory snapshot of a freshly started interpreter), so
   * this thread skips the interpreter's cold start. Absent: the thread makes
   * its own and posts it as `boot_image`.
   */
  bootImage?: Uint8Array;
}

/** Host → worker. The host sends a run only after `ready`, and the next one only after `ready` again. */
export interface WorkerRunMessage {
  type: 'run';
  runId: number;
  code: string;
  functionName: string;
  /** Each test's argument list, already JSON-encoded. */
  argsJson: string[];
  /**
   * One Int32 the host sets to 2 (SIGINT) when this run's time is up. A new
   * buffer per run, so a late interrupt can never reach the run after it.
   */
  interruptBuffer: SharedArrayBuffer;
}

/** A failure as the sandbox sees it; the host turns it into `RunResult.error`. */
export interface WorkerFailure {
  kind: RunErrorKind;
  message: string;
}

/** What one test call produced, before the host compares it with the expected value. */
export type CallReport = { ok: true; actualJson: string } | ({ ok: false } & WorkerFailure);

/** Worker → host. */
export type WorkerEvent =
  /** The worker can take a run: after it booted, and again after each run (Python: once a fresh interpreter is up). */
  | { type: 'ready' }
  | { type: 'boot_failed'; message: string }
  /** Sent once, before the first `ready`, by a thread that started without a boot image. */
  | { type: 'boot_image'; image: Uint8Array }
  | { type: 'loaded'; runId: number; failure?: WorkerFailure }
  | { type: 'called'; runId: number; index: number; report: CallReport }
  | { type: 'finished'; runId: number; output: string }
  /** The worker is unusable (e.g. a Pyodide fatal error); the host replaces the thread. */
  | { type: 'crashed'; runId?: number; failure: WorkerFailure };
