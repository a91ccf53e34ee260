// The JavaScript sandbox worker thread. Learner code runs in QuickJS compiled to
// WebAssembly: a separate interpreter whose only link to this thread is strings
// (the code, JSON-encoded args and results, console text). Each run gets a fresh
// runtime and context with a memory limit, a stack limit and an interrupt
// handler, disposed at the end of the run: globals, prototypes and built-ins a
// submission changes do not exist in the next run. QuickJS could stop an endless
// loop on its own, but it runs here rather than on the main thread so the
// server's event loop never waits for learner code.

import { parentPort, workerData } from 'node:worker_threads';
import { getQuickJS } from 'quickjs-emscripten';

const MAX_OUTPUT_CHARS = 4096;
const MAX_RESULT_CHARS = 65_536;
const STACK_BYTES = 512 * 1024;
const FILENAME = 'submission.js';
const port = parentPort;
if (!port) throw new Error('javascript-worker.mjs must run in a worker thread');

/** @type {import('./protocol').WorkerStartData} */
const { memoryBytes } = workerData;
/** The interrupt flag of the run in progress (a new one per run). */
let interrupt = new Int32Array(1);

/** Maps a QuickJS error (dumped to plain data) to the sandbox's failure kinds. */
function describeError(dumped, { loading }) {
  const name = typeof dumped?.name === 'string' ? dumped.name : 'Error';
  const text = typeof dumped?.message === 'string' ? dumped.message : String(dumped);
  if (Atomics.load(interrupt, 0) !== 0 || (name === 'InternalError' && text === 'interrupted')) {
    return { kind: 'timeout', message: 'time limit exceeded' };
  }
  if (name === 'InternalError' && text === 'out of memory') return { kind: 'memory', message: 'memory limit exceeded' };
  const line = typeof dumped?.lineNumber === 'number' ? dumped.lineNumber : lineFromStack(dumped?.stack);
  const where = line === undefined ? '' : ` (line ${line})`;
  if (loading && name === 'SyntaxError') return { kind: 'syntax', message: `SyntaxError: ${text}${where}` };
  return { kind: 'runtime', message: `${name}: ${text}${where}` };
}

function lineFromStack(stack) {
  const match = typeof stack === 'string' ? /submission\.js:(\d+)/.exec(stack) : null;
  return match ? Number(match[1]) : undefined;
}

/** Reads a failed result's error and frees it. */
function takeError(context, result, options) {
  const dumped = context.dump(result.error);
  result.error.dispose();
  return describeError(dumped, options);
}

/**
 * Everything for one run lives in one runtime, disposed at the end. JSON.parse
 * and JSON.stringify are captured before learner code runs, so redefining them
 * cannot change how args arrive or how results leave.
 * @returns {string} what the code printed
 */
function runSubmission(quickJs, message, post) {
  const runtime = quickJs.newRuntime();
  runtime.setMemoryLimit(memoryBytes);
  runtime.setMaxStackSize(STACK_BYTES);
  runtime.setInterruptHandler(() => Atomics.load(interrupt, 0) !== 0);
  const context = runtime.newContext();
  const handles = [];
  const keep = (handle) => {
    handles.push(handle);
    return handle;
  };
  const output = { text: '' };
  try {
    installConsole(context, keep, output);
    loadAndCall(context, runtime, keep, message, post);
  } finally {
    for (const handle of handles) if (handle.alive) handle.dispose();
    context.dispose();
    runtime.dispose();
  }
  return output.text;
}

function loadAndCall(context, runtime, keep, message, post) {
  const parse = keep(context.unwrapResult(context.evalCode('JSON.parse', 'harness.js')));
  const stringify = keep(context.unwrapResult(context.evalCode('JSON.stringify', 'harness.js')));

  const loaded = context.evalCode(message.code, FILENAME, { type: 'global' });
  if (loaded.error) return post.loaded(takeError(context, loaded, { loading: true }));
  loaded.value.dispose();
  // Scripts share the global lexical scope, so `const f = ...` is visible here too.
  const lookup = context.evalCode(`typeof ${message.functionName} === 'function' ? ${message.functionName} : undefined`, 'harness.js');
  if (lookup.error) return post.loaded(takeError(context, lookup, { loading: true }));
  const fn = keep(lookup.value);
  if (context.typeof(fn) !== 'function') {
    return post.loaded({ kind: 'missing_function', message: `define a function named '${message.functionName}'` });
  }
  post.loaded();

  for (const [index, argsJson] of message.argsJson.entries()) {
    const report = callTest(context, runtime, { fn, parse, stringify }, argsJson);
    post.called(index, report);
    if (!report.ok && report.kind === 'timeout') break;
  }
}

/** `console.log` and friends append to the run's output (strings only cross over). */
function installConsole(context, keep, output) {
  const console = keep(context.newObject());
  const log = keep(
    context.newFunction('log', (...args) => {
      if (output.text.length >= MAX_OUTPUT_CHARS) return;
      const line = args.map((arg) => (context.typeof(arg) === 'string' ? context.getString(arg) : JSON.stringify(context.dump(arg)))).join(' ');
      output.text = (output.text + line + '\n').slice(0, MAX_OUTPUT_CHARS);
    }),
  );
  for (const name of ['log', 'info', 'warn', 'error', 'debug']) context.setProp(console, name, log);
  context.setProp(context.global, 'console', console);
}

function callTest(context, runtime, { fn, parse, stringify }, argsJson) {
  const argsString = context.newString(argsJson);
  const parsed = context.callFunction(parse, context.undefined, argsString);
  argsString.dispose();
  if (parsed.error) return { ok: false, ...takeError(context, parsed, { loading: false }) };
  const argHandles = [];
  const length = context.getLength(parsed.value) ?? 0;
  for (let index = 0; index < length; index += 1) argHandles.push(context.getProp(parsed.value, index));
  parsed.value.dispose();
  const called = context.callFunction(fn, context.undefined, argHandles);
  for (const handle of argHandles) handle.dispose();
  if (called.error) return { ok: false, ...takeError(context, called, { loading: false }) };

  let value = called.value;
  // An async function's promise settles once its jobs run. The first look only
  // tells whether it is a promise; any handle it hands out is freed, or QuickJS
  // aborts when the runtime is disposed with live objects.
  const state = context.getPromiseState(value);
  if (state.type === 'fulfilled' && !state.notAPromise) state.value.dispose();
  if (state.type === 'rejected') state.error.dispose();
  if (!state.notAPromise) {
    const jobs = runtime.executePendingJobs();
    if (jobs.error) {
      value.dispose();
      return { ok: false, ...takeError(context, jobs, { loading: false }) };
    }
    const settled = context.getPromiseState(value);
    value.dispose();
    if (settled.type === 'pending') return { ok: false, kind: 'runtime', message: 'the returned promise never settled' };
    if (settled.type === 'rejected') return { ok: false, ...takeError(context, settled, { loading: false }) };
    value = settled.value;
  }
  const encoded = context.callFunction(stringify, context.undefined, value);
  value.dispose();
  if (encoded.error) return { ok: false, ...takeError(context, encoded, { loading: false }) };
  const actualJson = context.typeof(encoded.value) === 'string' ? context.getString(encoded.value) : undefined;
  encoded.value.dispose();
  if (actualJson === undefined) return { ok: false, kind: 'runtime', message: 'the function returned a value that is not JSON data (undefined or a function)' };
  if (actualJson.length > MAX_RESULT_CHARS) {
    return { ok: false, kind: 'runtime', message: `return value is too large (over ${MAX_RESULT_CHARS} characters of JSON)` };
  }
  return { ok: true, actualJson };
}

function handleRun(quickJs, message) {
  const { runId } = message;
  interrupt = new Int32Array(message.interruptBuffer);
  try {
    const output = runSubmission(quickJs, message, {
      loaded: (failure) => port.postMessage(failure ? { type: 'loaded', runId, failure } : { type: 'loaded', runId }),
      called: (index, report) => port.postMessage({ type: 'called', runId, index, report }),
    });
    port.postMessage({ type: 'finished', runId, output });
    // A fresh runtime costs well under a millisecond: the thread can take the next run at once.
    port.postMessage({ type: 'ready' });
  } catch (error) {
    // QuickJS itself failed (e.g. its WebAssembly aborted): the host replaces this thread.
    port.postMessage({ type: 'crashed', runId, failure: { kind: 'internal', message: `sandbox error: ${error?.message ?? error}` } });
  }
}

try {
  const quickJs = await getQuickJS();
  port.on('message', (message) => handleRun(quickJs, message));
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
