/**
 * Messages between the host (sandbox-worker.ts, main thread) and a sandbox worker
 * thread (python-worker.mjs, javascript-worker.mjs). The workers are plain
 * JavaScript so that they start the same way under tsx, vitest and plain Node;
 * these types are their contract.
 */
import type { RunErrorKind } from './types';

/** Data every worker receives at start-up (`workerData`). */
export interface WorkerStartData {
  /** One Int32 the host sets to 2 (SIGINT) when a run's time is up. */
  interruptBuffer: SharedArrayBuffer;
  /** Memory cap for learner code: the Python heap or the QuickJS runtime. */
  memoryBytes: number;
}

/** Host → worker. Runs arrive one at a time: the host waits for `finished`. */
export interface WorkerRunMessage {
  type: 'run';
  runId: number;
  code: string;
  functionName: string;
  /** Each test's argument list, already JSON-encoded. */
  argsJson: string[];
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
  | { type: 'ready' }
  | { type: 'boot_failed'; message: string }
  | { type: 'loaded'; runId: number; failure?: WorkerFailure }
  | { type: 'called'; runId: number; index: number; report: CallReport }
  | { type: 'finished'; runId: number; output: string }
  /** The interpreter is unusable (e.g. a Pyodide fatal error); the host replaces the worker. */
  | { type: 'crashed'; runId?: number; failure: WorkerFailure };
