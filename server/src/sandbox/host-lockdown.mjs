// JavaScript-level guards for the Python worker thread. They matter because
// Python-level blocks can be bypassed by introspection, while these sit below
// anything learner code can touch. Each patch is local to the worker thread:
// a worker has its own V8 isolate and its own copies of Node's built-in
// modules, so the server's main thread is unaffected. The thread boots a fresh
// interpreter for every run; the guards are per thread, so they hold for every
// interpreter it boots (closeHostGlobals is re-applied after each boot).

import { constants as fsConstants } from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';

// Emscripten's NODEFS reads the open flags through process.binding('constants')
// each time an interpreter starts; the stub process hands out only these.
const OPEN_FLAGS = Object.freeze(Object.fromEntries(Object.entries(fsConstants).filter(([name]) => name.startsWith('O_'))));

/**
 * Emscripten's `system()` in Node calls `child_process.spawnSync` with a shell:
 * `os.system('...')` would run a real host command. Every spawning function of
 * this thread's child_process module now fails; spawnSync answers like a shell
 * that cannot find the command (exit status 127), which Emscripten understands.
 */
export function blockChildProcesses() {
  const childProcess = createRequire(import.meta.url)('node:child_process');
  const refuse = () => {
    throw new Error('process spawning is disabled in the sandbox');
  };
  for (const name of ['spawn', 'exec', 'execFile', 'execSync', 'execFileSync', 'fork']) {
    childProcess[name] = refuse;
  }
  childProcess.spawnSync = () => ({
    pid: 0,
    output: [null, null, null],
    stdout: null,
    stderr: null,
    status: 127,
    signal: null,
    error: new Error('process spawning is disabled in the sandbox'),
  });
  // Pyodide's loader hands `import('node:child_process')` to a `require` shim: the
  // ES module's named exports must be the stubs too.
  syncBuiltinESMExports();
}

/** Emscripten's errno for EACCES (python-worker.mjs checks it against Pyodide's table). */
export const EMSCRIPTEN_EACCES = 2;

/**
 * Emscripten's socket layer (SOCKFS) in Node opens real connections through the
 * `ws` package that Pyodide depends on: `socket.create_connection(('127.0.0.1', port))`
 * reaches a host server, and `listen()` opens a host port. Replacing the cached
 * `ws` module, as Pyodide's runtime resolves it, makes both fail. The error is
 * shaped like Emscripten's ErrnoError so a syscall turns it into a Python
 * PermissionError instead of a fatal error.
 * @param {string} pyodideRuntimeUrl URL of pyodide.asm.mjs, the module that requires `ws`.
 */
export function blockWebSockets(pyodideRuntimeUrl) {
  const require = createRequire(pyodideRuntimeUrl);
  const wsPath = require.resolve('ws');
  require(wsPath);
  class BlockedWebSocket {
    constructor() {
      throw Object.assign(new Error('network access is disabled in the sandbox'), { name: 'ErrnoError', errno: EMSCRIPTEN_EACCES });
    }
  }
  BlockedWebSocket.Server = BlockedWebSocket;
  BlockedWebSocket.WebSocketServer = BlockedWebSocket;
  const cached = require.cache[wsPath];
  if (!cached) throw new Error('could not find the ws module to block it');
  cached.exports = BlockedWebSocket;
}

/**
 * Run after every interpreter boot (idempotent: Pyodide's loader puts a
 * `require` back each time it starts an interpreter). Learner code has no JavaScript object to start
 * from (its `js` module is an empty object and the FFI modules are gone), but if
 * one leaked, this is what it would find:
 * - no `.constructor.constructor` → `Function('return process')()`: the
 *   `constructor` link of every function kind is removed (`Function` itself stays,
 *   Pyodide's FFI uses it by name);
 * - no `Error.prepareStackTrace` hook, whose V8 call sites can leak receivers;
 * - no global `eval`, so Emscripten's `emscripten_run_script` (reachable from
 *   WebAssembly, e.g. through ctypes) cannot run host code;
 * - no `require` (Pyodide sets one in Node that hands out fs and child_process),
 *   no `fetch`/`WebSocket`, and a `process` that is only the few fields
 *   Emscripten reads at run time.
 */
export function closeHostGlobals() {
  const functionKinds = [function () {}, async function () {}, function* () {}, async function* () {}].map((example) =>
    Object.getPrototypeOf(example),
  );
  for (const prototype of functionKinds) {
    Object.defineProperty(prototype, 'constructor', { value: undefined, writable: false, configurable: false });
  }
  Object.defineProperty(Error, 'prepareStackTrace', { value: undefined, writable: false, configurable: false });
  for (const name of ['require', 'eval', 'fetch', 'WebSocket', 'EventSource']) delete globalThis[name];
  const { version, versions, platform } = process;
  globalThis.process = {
    version,
    versions,
    platform,
    argv: [],
    env: {},
    exitCode: undefined,
    getuid: () => 0,
    umask: () => 0o022,
    binding(name) {
      if (name !== 'constants') throw new Error(`process.binding('${name}') is not available in the sandbox`);
      return { fs: { ...OPEN_FLAGS } };
    },
  };
}

/**
 * Caps WebAssembly linear memory: Emscripten grows the heap through
 * `Memory.prototype.grow` and treats a throw as "out of memory", so malloc
 * returns NULL and Python raises MemoryError instead of taking gigabytes.
 * @param {number} maxBytes the most linear memory any instance may reach.
 */
export function capWasmMemory(maxBytes) {
  const grow = WebAssembly.Memory.prototype.grow;
  WebAssembly.Memory.prototype.grow = function growWithinCap(deltaPages) {
    if (this.buffer.byteLength + deltaPages * 65_536 > maxBytes) {
      throw new RangeError('sandbox memory limit reached');
    }
    return grow.call(this, deltaPages);
  };
}
