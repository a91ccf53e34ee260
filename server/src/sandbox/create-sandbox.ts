import { SandboxPool, stoppedResult, type SandboxJob } from './sandbox-pool';
import { SANDBOX_LANGUAGES, type RunRequest, type RunResult, type Sandbox, type SandboxLanguage, type SandboxOptions } from './types';

const DEFAULT_TIMEOUT_MS = 3000;
const DEFAULT_MEMORY_MB: Record<SandboxLanguage, number> = { python: 128, javascript: 32 };
const DEFAULT_WORKERS = 2;
const DEFAULT_MAX_QUEUED_PER_OWNER = 3;
/** Threads unused this long are released; the next run pays a boot again (seconds, rare once learners stop coding). */
const DEFAULT_IDLE_MS = 5 * 60_000;
/** After the interrupt, how long a run may take to stop before its thread is terminated. */
const GRACE_MS = 500;
/** Pyodide's cold start takes 1.3–6 s; a loaded machine can take ten times that. */
const BOOT_TIMEOUT_MS = 60_000;
const MAX_CODE_CHARS = 65_536;
const MAX_TESTS = 100;
const MAX_ARGS_JSON_CHARS = 65_536;
const IDENTIFIER: Record<SandboxLanguage, RegExp> = {
  python: /^[A-Za-z_][A-Za-z0-9_]*$/,
  javascript: /^[A-Za-z_$][A-Za-z0-9_$]*$/,
};

/**
 * A sandbox with a pool of worker threads per language, started on first use
 * (or by `warm()`) and released after `idleMs` without a run: by default two Pyodide
 * threads (~150 MB RSS each) and two QuickJS threads. Runs wait in per-owner queues
 * served round robin.
 */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const memoryMb = (language: SandboxLanguage) => options.memoryMb ?? DEFAULT_MEMORY_MB[language];
  const maxQueuedPerOwner = positiveInteger('maxQueuedPerOwner', options.maxQueuedPerOwner, DEFAULT_MAX_QUEUED_PER_OWNER);
  const idleMs = positiveInteger('idleMs', options.idleMs, DEFAULT_IDLE_MS);
  const pools: Record<SandboxLanguage, SandboxPool> = {
    python: new SandboxPool({
      name: 'python',
      entry: new URL('./python-worker.mjs', import.meta.url),
      workers: positiveInteger('pythonWorkers', options.pythonWorkers, DEFAULT_WORKERS),
      maxQueuedPerOwner,
      timeoutMs,
      graceMs: GRACE_MS,
      memoryBytes: memoryMb('python') * 1024 * 1024,
      // Pyodide's JavaScript side uses ~17 MB of V8 heap; the Python heap is WebAssembly memory, capped separately.
      resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16 },
      bootTimeoutMs: BOOT_TIMEOUT_MS,
      idleMs,
    }),
    javascript: new SandboxPool({
      name: 'javascript',
      entry: new URL('./javascript-worker.mjs', import.meta.url),
      workers: positiveInteger('javascriptWorkers', options.javascriptWorkers, DEFAULT_WORKERS),
      maxQueuedPerOwner,
      timeoutMs,
      graceMs: GRACE_MS,
      memoryBytes: memoryMb('javascript') * 1024 * 1024,
      resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16 },
      bootTimeoutMs: BOOT_TIMEOUT_MS,
      idleMs,
    }),
  };

  return {
    run(request: RunRequest, signal?: AbortSignal): Promise<RunResult> {
      const prepared = prepareJob(request);
      if (!prepared.ok) return Promise.resolve(prepared.result);
      return pools[request.language].run(prepared.job, { owner: request.owner, signal });
    },
    async warm() {
      await Promise.all(SANDBOX_LANGUAGES.map((language) => pools[language].warm()));
    },
    async close() {
      await Promise.all(SANDBOX_LANGUAGES.map((language) => pools[language].close()));
    },
  };
}

/** Pool sizes and limits are the server's configuration: a bad one is a bug, thrown at start-up. */
function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  const resolved = value ?? fallback;
  if (!Number.isInteger(resolved) || resolved < 1) throw new RangeError(`${name} must be a positive integer, got ${String(value)}`);
  return resolved;
}

type PreparedJob = { ok: true; job: SandboxJob } | { ok: false; result: RunResult };

/** Checks a request before it reaches a worker; a bad request is the caller's bug (`internal`). */
export function prepareJob(request: RunRequest): PreparedJob {
  const tests = Array.isArray(request.tests) ? request.tests : [];
  const refuse = (kind: 'internal' | 'forbidden', message: string): PreparedJob => ({
    ok: false,
    result: stoppedResult({ tests }, { kind, message }),
  });
  if (!SANDBOX_LANGUAGES.includes(request.language)) return refuse('internal', `unsupported language: ${String(request.language)}`);
  if (typeof request.code !== 'string') return refuse('internal', 'code must be a string');
  if (request.code.length > MAX_CODE_CHARS) return refuse('forbidden', `the code is too long (at most ${MAX_CODE_CHARS} characters)`);
  if (!IDENTIFIER[request.language].test(request.functionName)) return refuse('internal', `invalid function name: ${JSON.stringify(request.functionName)}`);
  if (request.owner !== undefined && typeof request.owner !== 'string') return refuse('internal', 'owner must be a string');
  if (tests.length === 0 || tests.length > MAX_TESTS) return refuse('internal', `a run needs 1 to ${MAX_TESTS} tests`);
  const argsJson: string[] = [];
  for (const [index, test] of tests.entries()) {
    const encoded = encodeArgs(test.args);
    if (encoded === undefined) return refuse('internal', `test ${index + 1}: args must be a JSON array of at most ${MAX_ARGS_JSON_CHARS} characters`);
    argsJson.push(encoded);
  }
  return { ok: true, job: { code: request.code, functionName: request.functionName, tests, argsJson } };
}

function encodeArgs(args: unknown): string | undefined {
  if (!Array.isArray(args)) return undefined;
  try {
    const encoded = JSON.stringify(args);
    return encoded.length <= MAX_ARGS_JSON_CHARS ? encoded : undefined;
  } catch {
    return undefined; // cycles, BigInt
  }
}
