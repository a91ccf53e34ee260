// The Python sandbox worker thread. Every run gets a fresh Pyodide interpreter,
// used for that run only and then dropped: nothing a submission leaves behind
// (globals, builtins, modules, files, objects changed in place) exists in the
// interpreter of the next run. A spare interpreter is booted right after each
// run, from a memory snapshot of a freshly started one, so a run that finds the
// thread idle does not wait for a boot. The run itself is driven from here through C-level
// callables (compile, exec, itertools.starmap), so no Python frame of the
// sandbox sits under learner code. Protocol types are in protocol.ts. Plain
// JavaScript so that it starts the same way under tsx, vitest and plain Node.

import { Buffer } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import { loadPyodide } from 'pyodide';
import { EMSCRIPTEN_EACCES, blockChildProcesses, blockWebSockets, capWasmMemory, closeHostGlobals } from './host-lockdown.mjs';
import { confineWrites, exemptPyodideInternals, listMounts } from './pyodide-file-system.mjs';

const SCRATCH_DIR = '/tmp';
const SUBMISSION_FILE = '<submission>';
const MAX_OUTPUT_CHARS = 4096;
const MAX_RESULT_CHARS = 65_536;
/** Tracebacks are walked from here; a learner could hand over a cycle. */
const MAX_TRACEBACK_STEPS = 10_000;
const TIME_LIMIT = { kind: 'timeout', message: 'time limit exceeded' };
const MEMORY_LIMIT = { kind: 'memory', message: 'MemoryError: memory limit exceeded' };
const port = parentPort;
if (!port) throw new Error('python-worker.mjs must run in a worker thread');

/** @type {import('./protocol').WorkerStartData} */
const { memoryBytes, bootImage } = workerData;
const pyodideUrl = import.meta.resolve('pyodide');
const harnessSource = readFileSync(new URL('./python-harness.py', import.meta.url), 'utf8');

let output = '';
const collectOutput = (text) => {
  if (output.length < MAX_OUTPUT_CHARS) output = (output + text + '\n').slice(0, MAX_OUTPUT_CHARS);
};

/** What every interpreter of this thread starts with. */
function interpreterOptions() {
  return {
    // Everything loads from node_modules; packages are never fetched (no CDN).
    indexURL: fileURLToPath(new URL('.', pyodideUrl)),
    // `import js` would otherwise be the worker's globalThis (process, require...).
    jsglobals: Object.create(null),
    // An undefined value leaves out one of Emscripten's defaults: USER, LOGNAME,
    // PATH, PWD, LANG, and `_`, which would be the host script's path.
    env: { HOME: SCRATCH_DIR, USER: undefined, LOGNAME: undefined, PATH: undefined, PWD: undefined, LANG: undefined, _: undefined },
    // Otherwise sys.executable and sys.orig_argv hold the host script's path too.
    _sysExecutable: 'python',
    // input() sees end of file; in Node it would otherwise read the server's stdin.
    stdin: () => null,
    stdout: collectOutput,
    stderr: collectOutput,
  };
}

/**
 * Pyodide compiles its 9.6 MB of WebAssembly again for every interpreter it
 * starts. Compiled once per thread and reused, each start is ~70 ms shorter,
 * and code V8 has optimized stays optimized for the next run. Only code is
 * shared: every instance has its own memory, table and globals.
 */
async function reuseCompiledPyodide(wasmUrl) {
  const bytes = readFileSync(wasmUrl);
  const compiled = await WebAssembly.compile(bytes);
  const instantiate = WebAssembly.instantiate;
  const isPyodide = (source) =>
    ArrayBuffer.isView(source) && source.byteLength === bytes.byteLength && Buffer.compare(Buffer.from(source.buffer, source.byteOffset, source.byteLength), bytes) === 0;
  WebAssembly.instantiate = function instantiateCompiledPyodide(source, imports) {
    if (!isPyodide(source)) return instantiate.call(WebAssembly, source, imports);
    return instantiate.call(WebAssembly, compiled, imports).then((instance) => ({ module: compiled, instance }));
  };
}

/**
 * Starts the interpreter whose memory every later interpreter starts from, and
 * takes the snapshot right away: no learner code ever runs in it.
 */
async function makeBootImage() {
  const maker = await loadPyodide({ ...interpreterOptions(), _makeSnapshot: true });
  return maker.makeMemorySnapshot();
}

/**
 * A fresh interpreter from the boot image, hardened (file system confined, JS
 * bridge closed, python-harness.py run), with the callables a run needs taken
 * before any learner code exists. Booting re-runs Pyodide's loader, which puts
 * a `require` back on globalThis: the host globals are closed again after it.
 */
async function bootInterpreter(image) {
  const pyodide = await loadPyodide({ ...interpreterOptions(), _loadSnapshot: image });
  if (pyodide.ERRNO_CODES.EACCES !== EMSCRIPTEN_EACCES) throw new Error('unexpected Emscripten errno table');
  pyodide.setStdout({ batched: collectOutput });
  pyodide.setStderr({ batched: collectOutput });
  pyodide.setStdin({ stdin: () => null });

  const foreignMounts = listMounts(pyodide.FS).filter((mount) => mount.type !== 'MEMFS' && mount.type !== 'special');
  if (foreignMounts.length > 0) throw new Error(`unexpected mounts: ${JSON.stringify(foreignMounts)}`);
  confineWrites(pyodide.FS, { scratchDir: SCRATCH_DIR, maxScratchBytes: 16 * 1024 * 1024, maxScratchNodes: 1000, errno: pyodide.ERRNO_CODES });
  exemptPyodideInternals(pyodide._api, pyodide.FS);
  pyodide.unregisterJsModule('js');
  pyodide.unregisterJsModule('pyodide_js');

  const builtins = pyodide.pyimport('builtins');
  // Attribute reads go through getattr: some names (`type`, `get`) mean something else on a PyProxy.
  const getattr = builtins.getattr;
  const builtin = (name) => getattr(builtins, name);
  const harness = builtin('dict')();
  pyodide.runPython(harnessSource, { globals: harness, filename: '<sandbox-harness>' });
  const python = {
    builtins,
    getattr,
    compile: builtin('compile'),
    exec: builtin('exec'),
    dict: builtin('dict'),
    list: builtin('list'),
    callable: builtin('callable'),
    isinstance: builtin('isinstance'),
    str: builtin('str'),
    type: builtin('type'),
    starmap: getattr(pyodide.pyimport('itertools'), 'starmap'),
    loads: getattr(pyodide.pyimport('json'), 'loads'),
    sys: pyodide.pyimport('sys'),
    jsonOfResult: harness.get('json_of_result'),
    exceptions: {
      KeyboardInterrupt: builtin('KeyboardInterrupt'),
      MemoryError: builtin('MemoryError'),
      OverflowError: builtin('OverflowError'),
      PermissionError: builtin('PermissionError'),
      SyntaxError: builtin('SyntaxError'),
      ForbiddenImportError: harness.get('ForbiddenImportError'),
    },
    PyProxy: pyodide.ffi.PyProxy,
    PythonError: pyodide.ffi.PythonError,
  };
  closeHostGlobals();
  return { pyodide, python };
}

/** The interpreter broke (a Pyodide fatal error, a JavaScript error from below): the host replaces the thread. */
class InterpreterLost extends Error {
  constructor(failure) {
    super(failure.message);
    this.failure = failure;
  }
}

function lostInterpreterFailure(error) {
  const message = String(error?.message ?? error);
  // The usual one is learner recursion through C code, which overflows the WebAssembly stack.
  if (error instanceof RangeError && message.includes('call stack')) return { kind: 'runtime', message: 'RecursionError: the interpreter ran out of stack' };
  return { kind: 'internal', message: `sandbox error: ${message.split('\n').slice(-2).join(' ')}` };
}

/** The time and memory limits, recognised by the name of the exception Pyodide reports. */
function limitFailure(typeName) {
  if (typeName === 'KeyboardInterrupt') return TIME_LIMIT;
  if (typeName === 'MemoryError') return MEMORY_LIMIT;
  return undefined;
}

/**
 * Describes a Python exception that reached JavaScript: the kind the host
 * reports and the message the learner reads. Learner code may run while it is
 * read (a `__str__`, a metaclass), with no sandbox frame under it.
 */
function failureOf(python, error, { compiling = false } = {}) {
  if (!(error instanceof python.PythonError)) throw new InterpreterLost(lostInterpreterFailure(error));
  try {
    return describeException(python, python.getattr(python.sys, 'last_exc'), { compiling });
  } catch (readError) {
    if (!(readError instanceof python.PythonError)) throw new InterpreterLost(lostInterpreterFailure(readError));
    // Reading it raised in turn: the interrupt landed meanwhile, or learner code misbehaved.
    return limitFailure(readError.type) ?? limitFailure(error.type) ?? { kind: 'runtime', message: String(error.type) };
  }
}

function describeException(python, exception, { compiling }) {
  const { getattr, exceptions } = python;
  const is = (type) => python.isinstance(exception, type);
  if (is(exceptions.KeyboardInterrupt)) return TIME_LIMIT;
  if (is(exceptions.MemoryError)) return MEMORY_LIMIT;
  const name = String(getattr(python.type(exception), '__name__'));
  if (compiling && is(exceptions.SyntaxError)) {
    return { kind: 'syntax', message: `${name}: ${getattr(exception, 'msg')} (line ${getattr(exception, 'lineno')})` };
  }
  const detail = textOf(python, exception);
  if (is(exceptions.OverflowError) && (detail.includes('index-sized integer') || detail.startsWith('repeated'))) {
    // On 32-bit WebAssembly `'x' * 10**10` cannot even be attempted: it is a memory bomb.
    return { kind: 'memory', message: `MemoryError: memory limit exceeded (OverflowError: ${detail})` };
  }
  const kind = is(exceptions.PermissionError) || is(exceptions.ForbiddenImportError) ? 'forbidden' : 'runtime';
  const line = submissionLine(python, exception);
  const message = detail ? `${name}: ${detail}` : name;
  return { kind, message: line === undefined ? message : `${message} (line ${line})` };
}

/** `str(exception)`; a learner's exception class may define a `__str__` that raises. */
function textOf(python, exception) {
  try {
    return String(python.str(exception));
  } catch (error) {
    if (!(error instanceof python.PythonError) || limitFailure(error.type)) throw error;
    return '<unprintable>';
  }
}

/** The line of the innermost frame of the submission in the exception's traceback. */
function submissionLine(python, exception) {
  const { getattr } = python;
  let line;
  try {
    let traceback = getattr(exception, '__traceback__');
    for (let step = 0; traceback instanceof python.PyProxy && step < MAX_TRACEBACK_STEPS; step += 1) {
      if (getattr(getattr(getattr(traceback, 'tb_frame'), 'f_code'), 'co_filename') === SUBMISSION_FILE) line = getattr(traceback, 'tb_lineno');
      traceback = getattr(traceback, 'tb_next');
    }
  } catch (error) {
    // A traceback replaced by something else: keep what was found.
    if (!(error instanceof python.PythonError) || limitFailure(error.type)) throw error;
  }
  return typeof line === 'number' ? line : undefined;
}

/** Compiles and executes the submission in a new namespace and finds the function under test. */
function loadFunction(python, { code, functionName }) {
  let compiled;
  try {
    compiled = python.compile(code, SUBMISSION_FILE, 'exec', 0, true);
  } catch (error) {
    return { ok: false, failure: failureOf(python, error, { compiling: true }) };
  }
  try {
    const namespace = python.dict();
    namespace.set('__name__', '__main__');
    namespace.set('__builtins__', python.builtins);
    python.exec(compiled, namespace);
    const fn = namespace.get(functionName);
    if (fn instanceof python.PyProxy && python.callable(fn)) return { ok: true, fn };
  } catch (error) {
    return { ok: false, failure: failureOf(python, error) };
  }
  return { ok: false, failure: { kind: 'missing_function', message: `define a function named '${functionName}'` } };
}

/**
 * One test: the args are decoded by json.loads inside the interpreter (no
 * JavaScript object ever reaches Python), the function is called by
 * `list(itertools.starmap(fn, [args]))`, all C code, and the return value is
 * turned into JSON text only after the call has returned.
 */
function callTest(python, fn, argsJson) {
  let text;
  try {
    const results = python.list(python.starmap(fn, python.loads(`[${argsJson}]`)));
    text = python.jsonOfResult(results);
  } catch (error) {
    return { ok: false, ...failureOf(python, error) };
  }
  // Learner code may have rewritten json.dumps for itself: parse it here, so only valid JSON leaves.
  if (typeof text !== 'string') return { ok: false, kind: 'runtime', message: 'the return value could not be turned into JSON' };
  if (text.length > MAX_RESULT_CHARS) {
    return { ok: false, kind: 'runtime', message: `return value is too large (over ${MAX_RESULT_CHARS} characters of JSON)` };
  }
  try {
    return { ok: true, actualJson: JSON.stringify(JSON.parse(text)) };
  } catch {
    return { ok: false, kind: 'runtime', message: 'the return value could not be turned into JSON' };
  }
}

function runSubmission(python, message) {
  const { runId, argsJson } = message;
  const loaded = loadFunction(python, message);
  if (!loaded.ok) return port.postMessage({ type: 'loaded', runId, failure: loaded.failure });
  port.postMessage({ type: 'loaded', runId });
  for (const [index, args] of argsJson.entries()) {
    const report = callTest(python, loaded.fn, args);
    port.postMessage({ type: 'called', runId, index, report });
    // A timeout ends the run: the remaining tests would have no time left.
    if (!report.ok && report.kind === 'timeout') break;
  }
}

let image = bootImage;
/** The fresh interpreter the next run will use; never used twice. */
let spare;
// After a crash the host terminates this thread and starts a fresh one; until then, runs are refused.
let broken = false;

function handleRun(message) {
  const { runId } = message;
  const interpreter = spare;
  spare = undefined;
  if (!interpreter) return crash(runId, { kind: 'internal', message: 'sandbox error: no interpreter was ready' });
  output = '';
  interpreter.pyodide.setInterruptBuffer(new Int32Array(message.interruptBuffer));
  try {
    runSubmission(interpreter.python, message);
  } catch (error) {
    return crash(runId, error instanceof InterpreterLost ? error.failure : lostInterpreterFailure(error));
  }
  port.postMessage({ type: 'finished', runId, output });
  // The interpreter that ran learner code is dropped here; it never runs anything again.
  void bootSpare();
}

async function bootSpare() {
  try {
    spare = await bootInterpreter(image);
    port.postMessage({ type: 'ready' });
  } catch (error) {
    crash(undefined, { kind: 'internal', message: `the sandbox could not start a fresh interpreter: ${describeBootError(error)}` });
  }
}

function crash(runId, failure) {
  broken = true;
  port.postMessage({ type: 'crashed', runId, failure });
}

try {
  const pyodideRuntimeUrl = new URL('pyodide.asm.mjs', pyodideUrl).href;
  blockChildProcesses();
  blockWebSockets(pyodideRuntimeUrl);
  capWasmMemory(memoryBytes);
  await reuseCompiledPyodide(new URL('pyodide.asm.wasm', pyodideUrl));
  if (!image) {
    image = await makeBootImage();
    port.postMessage({ type: 'boot_image', image });
  }
  spare = await bootInterpreter(image);
  port.on('message', (message) => {
    if (!broken) handleRun(message);
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
