// The Python sandbox worker thread: one Pyodide interpreter, hardened at boot,
// taking runs one at a time from the host (sandbox-worker.ts). Protocol types are
// in protocol.ts. Plain JavaScript so that it starts the same way under tsx,
// vitest and plain Node.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import { loadPyodide } from 'pyodide';
import { EMSCRIPTEN_EACCES, blockChildProcesses, blockWebSockets, capWasmMemory, closeHostGlobals } from './host-lockdown.mjs';
import { confineWrites, exemptPyodideInternals, listMounts } from './pyodide-file-system.mjs';

const SCRATCH_DIR = '/tmp';
const MAX_OUTPUT_CHARS = 4096;
const port = parentPort;
if (!port) throw new Error('python-worker.mjs must run in a worker thread');

/** @type {{ interruptBuffer: SharedArrayBuffer, memoryBytes: number }} */
const { interruptBuffer, memoryBytes } = workerData;
const interrupt = new Int32Array(interruptBuffer);

let output = '';
const collectOutput = (text) => {
  if (output.length < MAX_OUTPUT_CHARS) output = (output + text + '\n').slice(0, MAX_OUTPUT_CHARS);
};

async function boot() {
  const pyodideUrl = import.meta.resolve('pyodide');
  blockChildProcesses();
  blockWebSockets(new URL('pyodide.asm.mjs', pyodideUrl).href);
  capWasmMemory(memoryBytes);

  const pyodide = await loadPyodide({
    // Everything loads from node_modules; packages are never fetched (no CDN).
    indexURL: fileURLToPath(new URL('.', pyodideUrl)),
    // `import js` would otherwise be the worker's globalThis (process, require...).
    jsglobals: Object.create(null),
    env: { HOME: SCRATCH_DIR },
    stdout: collectOutput,
    stderr: collectOutput,
  });
  if (pyodide.ERRNO_CODES.EACCES !== EMSCRIPTEN_EACCES) throw new Error('unexpected Emscripten errno table');
  pyodide.setStdout({ batched: collectOutput });
  pyodide.setStderr({ batched: collectOutput });
  // input() sees end of file; in Node it would otherwise read the server's stdin.
  pyodide.setStdin({ stdin: () => null });
  // A flag left over from the thread this one replaces must not interrupt the boot.
  Atomics.store(interrupt, 0, 0);
  pyodide.setInterruptBuffer(interrupt);

  const foreignMounts = listMounts(pyodide.FS).filter((mount) => mount.type !== 'MEMFS' && mount.type !== 'special');
  if (foreignMounts.length > 0) throw new Error(`unexpected mounts: ${JSON.stringify(foreignMounts)}`);
  const scratch = confineWrites(pyodide.FS, {
    scratchDir: SCRATCH_DIR,
    maxScratchBytes: 16 * 1024 * 1024,
    maxScratchNodes: 1000,
    errno: pyodide.ERRNO_CODES,
  });
  exemptPyodideInternals(pyodide._api, pyodide.FS);

  pyodide.unregisterJsModule('js');
  pyodide.unregisterJsModule('pyodide_js');
  const harnessSource = readFileSync(new URL('./python-harness.py', import.meta.url), 'utf8');
  const namespace = pyodide.globals.get('dict')();
  pyodide.runPython(harnessSource, { globals: namespace, filename: '<sandbox-harness>' });
  closeHostGlobals();

  return {
    pyodide,
    scratch,
    loadSubmission: namespace.get('load_submission'),
    callTest: namespace.get('call_test'),
    resetState: namespace.get('reset_state'),
  };
}

/**
 * A call into the harness that should never throw. If it does, the interrupt
 * landed outside the harness's try blocks (a timeout) or the interpreter broke.
 */
function callHarness(call) {
  try {
    return { ok: true, value: JSON.parse(call()) };
  } catch (error) {
    const message = String(error?.message ?? error);
    if (message.includes('KeyboardInterrupt')) return { ok: false, failure: { kind: 'timeout', message: 'time limit exceeded' } };
    if (message.includes('MemoryError')) return { ok: false, failure: { kind: 'memory', message: 'MemoryError: memory limit exceeded' } };
    // After a fatal error the interpreter is unusable; the usual one is learner recursion through C code.
    const fatal = error?.pyodide_fatal_error === true;
    if (error instanceof RangeError && message.includes('call stack')) {
      return { ok: false, failure: { kind: 'runtime', message: 'RecursionError: the interpreter ran out of stack' }, fatal };
    }
    return { ok: false, failure: { kind: 'internal', message: `sandbox error: ${message.split('\n').slice(-2).join(' ')}` }, fatal };
  }
}

function handleRun(sandbox, message) {
  // The host clears the interrupt flag when it dispatches a run; clearing it here
  // could swallow an interrupt meant for this run.
  const { runId, code, functionName, argsJson } = message;
  output = '';
  const loaded = callHarness(() => sandbox.loadSubmission(code, functionName));
  if (loaded.fatal) return crash(runId, loaded.failure);
  if (!loaded.ok || !loaded.value.ok) {
    const failure = loaded.ok ? { kind: loaded.value.kind, message: loaded.value.message } : loaded.failure;
    port.postMessage({ type: 'loaded', runId, failure });
  } else {
    port.postMessage({ type: 'loaded', runId });
    for (const [index, args] of argsJson.entries()) {
      const called = callHarness(() => sandbox.callTest(args));
      if (called.fatal) return crash(runId, called.failure);
      const report = called.ok ? called.value : { ok: false, ...called.failure };
      port.postMessage({ type: 'called', runId, index, report });
      // A timeout ends the run: the remaining tests would have no time left.
      if (!report.ok && report.kind === 'timeout') break;
    }
  }
  port.postMessage({ type: 'finished', runId, output });
  resetAfterRun(sandbox, runId);
}

/**
 * Clean-up happens after `finished` is posted, so it is off the learner's clock.
 * The host may still set the interrupt flag for a run that just ended (its timer
 * raced the `finished` message): one retry absorbs that KeyboardInterrupt.
 */
function resetAfterRun(sandbox, runId) {
  sandbox.scratch.resetScratch();
  for (let attempt = 0; attempt < 2; attempt += 1) {
    Atomics.store(interrupt, 0, 0);
    const reset = callHarness(() => {
      sandbox.resetState();
      return '{}';
    });
    if (reset.ok) return;
    if (reset.fatal || reset.failure.kind !== 'timeout') break;
  }
  crash(runId, { kind: 'internal', message: 'the interpreter could not be reset' });
}

// The host terminates this thread and starts a fresh one; until then, runs are refused.
let broken = false;
function crash(runId, failure) {
  broken = true;
  port.postMessage({ type: 'crashed', runId, failure });
}

try {
  const sandbox = await boot();
  port.on('message', (message) => {
    if (!broken) handleRun(sandbox, message);
  });
  port.postMessage({ type: 'ready' });
} catch (error) {
  port.postMessage({ type: 'boot_failed', message: describeBootError(error) });
}

function describeBootError(error) {
  if (error instanceof Error) return error.stack ?? error.message;
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}
