import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type CodeTest, type RunResult, type Sandbox } from './index';

// SPEC §4.3 (code execution: time and memory limits, partial credit) and §8 (the
// sandbox contains escape attempts), for JavaScript: real QuickJS in a real worker
// thread, no mocks.

const TIMEOUT_MS = 1000;
/**
 * How late past the limit a stopped run may end: the loops below never end by themselves, so
 * ending at all shows they were stopped; the slack only absorbs a busy machine (CI shares 2 cores).
 */
const slackMs = 5000;
const SLOW = 60_000;
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = createSandbox({ timeoutMs: TIMEOUT_MS });
  await sandbox.warm();
}, 120_000);
afterAll(() => sandbox.close());

const COUNT_CHARS_TESTS: CodeTest[] = [
  { args: ['héllo'], expected: 5 },
  { args: ['🙂'], expected: 1 },
  { args: [''], expected: 0 },
];
const runJavascript = (code: string, tests: CodeTest[] = [{ args: [], expected: null }], functionName = 'attempt'): Promise<RunResult> =>
  sandbox.run({ language: 'javascript', code, functionName, tests });

/** After every escape attempt, a correct submission still gets full marks. */
async function expectRecovered(): Promise<void> {
  const result = await runJavascript('function count_chars(text) { return [...text].length }', COUNT_CHARS_TESTS, 'count_chars');
  expect(result).toMatchObject({ passed: 3, total: 3 });
  expect(result.error).toBeUndefined();
}

describe('javascript sandbox: scoring', () => {
  it('passes count_chars on unicode input (é, an emoji, the empty string)', async () => {
    const result = await runJavascript('const count_chars = (text) => Array.from(text).length;', COUNT_CHARS_TESTS, 'count_chars');
    expect(result).toEqual({
      passed: 3,
      total: 3,
      outcomes: [
        { passed: true, actual: 5 },
        { passed: true, actual: 1 },
        { passed: true, actual: 0 },
      ],
      durationMs: expect.any(Number),
    });
  });

  it('gives partial credit to a solution that counts UTF-16 code units', async () => {
    const result = await runJavascript('function count_chars(text) { return text.length }', COUNT_CHARS_TESTS, 'count_chars');
    expect(result).toMatchObject({ passed: 2, total: 3 });
    expect(result.outcomes[1]).toEqual({ passed: false, actual: 2 });
  });

  it('reports a syntax error with its line', async () => {
    const result = await runJavascript('function attempt() {\n  return (\n}');
    expect(result.error).toEqual({ kind: 'syntax', message: expect.stringMatching(/^SyntaxError: .*\(line 3\)$/) });
  });

  it('reports a missing function', async () => {
    const result = await runJavascript('function somethingElse() {}');
    expect(result.error).toEqual({ kind: 'missing_function', message: "define a function named 'attempt'" });
  });

  it('keeps an exception inside its test and scores the others', async () => {
    const code = 'function attempt(n) {\n  if (n === 0) throw new RangeError("zero");\n  return 10 / n;\n}';
    const result = await runJavascript(code, [
      { args: [2], expected: 5 },
      { args: [0], expected: 0 },
    ]);
    expect(result).toMatchObject({
      passed: 1,
      total: 2,
      outcomes: [{ passed: true, actual: 5 }, { passed: false, error: 'RangeError: zero (line 2)' }],
      error: { kind: 'runtime', message: 'test 2: RangeError: zero (line 2)' },
    });
  });

  it('awaits async functions and captures console output', async () => {
    const result = await runJavascript('async function attempt(a, b) { console.log("adding", a, b); return { sum: a + b }; }', [
      { args: [2, 3], expected: { sum: 5 } },
    ]);
    expect(result).toEqual({ passed: 1, total: 1, outcomes: [{ passed: true, actual: { sum: 5 } }], durationMs: expect.any(Number), output: 'adding 2 3\n' });
  });

  it('reports a rejected promise as the test’s error', async () => {
    const result = await runJavascript('async function attempt() {\n  throw new TypeError("not yet");\n}');
    expect(result.outcomes).toEqual([{ passed: false, error: 'TypeError: not yet (line 2)' }]);
    await expectRecovered();
  });

  it('cannot fake results by replacing JSON.stringify', async () => {
    const result = await runJavascript('JSON.stringify = () => "5";\nfunction attempt() { return 4; }', [{ args: [], expected: 5 }]);
    expect(result.outcomes).toEqual([{ passed: false, actual: 4 }]);
  });
});

describe('javascript sandbox: containment', () => {
  it('exposes no host objects: process, require and globalThis.process are absent', async () => {
    const result = await runJavascript('function attempt() { return [typeof process, typeof require, typeof globalThis.process, typeof fetch, typeof setTimeout]; }');
    expect(result.outcomes).toEqual([{ passed: false, actual: ['undefined', 'undefined', 'undefined', 'undefined', 'undefined'] }]);
    await expectRecovered();
  });

  it("fails import('fs')", async () => {
    const result = await runJavascript('async function attempt() { const fs = await import("fs"); return typeof fs.readFileSync; }');
    expect(result.outcomes).toEqual([{ passed: false, error: "ReferenceError: could not load module 'fs'" }]);
    await expectRecovered();
  });

  it('stops while(true){} at the time limit while the main event loop keeps ticking', { timeout: SLOW }, async () => {
    let pings = 0;
    const ping = setInterval(() => (pings += 1), 20);
    const startedAt = performance.now();
    const result = await runJavascript('function attempt() { while (true) {} }');
    const elapsed = performance.now() - startedAt;
    clearInterval(ping);
    expect(result.error).toEqual({ kind: 'timeout', message: 'time limit exceeded' });
    expect(elapsed).toBeLessThan(TIMEOUT_MS + slackMs);
    // A blocked event loop would have ticked once or not at all.
    expect(pings).toBeGreaterThan(TIMEOUT_MS / 20 / 4);
    await expectRecovered();
  });

  it.each([
    ['one big string', 'function attempt() { return "x".repeat(1e9).length; }'],
    ['one big array', 'function attempt() { return new Array(1e8).fill(0).length; }'],
    ['an array growing forever', 'function attempt() { const hoard = []; while (true) hoard.push(hoard.length); }'],
  ])('ends a memory bomb (%s) with kind memory', async (_label, code) => {
    const result = await runJavascript(code);
    expect(result.error).toEqual({ kind: 'memory', message: 'test 1: memory limit exceeded' });
    await expectRecovered();
  });

  it('reports deep recursion as a runtime error', async () => {
    const result = await runJavascript('function attempt(n = 0) { return attempt(n + 1); }');
    expect(result.error).toEqual({ kind: 'runtime', message: 'test 1: InternalError: stack overflow (line 1)' });
    await expectRecovered();
  });
});

describe('javascript sandbox: each run starts from a fresh runtime (SPEC §8)', () => {
  // One thread, so that the tampering run and the probe go through the same worker.
  let single: Sandbox;
  beforeAll(async () => {
    single = createSandbox({ timeoutMs: TIMEOUT_MS, javascriptWorkers: 1 });
    await single.warm();
  }, 60_000);
  afterAll(() => single.close());

  const TAMPER = `
    globalThis.leftover = 'from the attacker';
    var leftoverVar = 1;
    Array.prototype.map = function () { return ['tampered']; };
    Array.prototype.leftover = 1;
    Object.prototype.leftover = 1;
    String.prototype.trim = function () { return 'tampered'; };
    Math.max = () => -1;
    JSON.stringify = () => '"tampered"';
    JSON.parse = () => ['tampered'];
    Object.defineProperty(globalThis, 'undefinedName', { value: 1, configurable: false });
  `;
  const PROBE = `function attempt() {
    return [typeof leftover, typeof leftoverVar, typeof undefinedName, [1, 2].map((n) => n * 2), 'leftover' in [], 'leftover' in {},
      ' a '.trim(), Math.max(1, 2), JSON.stringify({ a: 1 }), JSON.parse('[1]')];
  }`;
  const CLEAN = ['undefined', 'undefined', 'undefined', [2, 4], false, false, 'a', 2, '{"a":1}', [1]];

  async function expectClean(): Promise<void> {
    const result = await single.run({ language: 'javascript', code: PROBE, functionName: 'attempt', tests: [{ args: [], expected: CLEAN }] });
    expect(result.outcomes).toEqual([{ passed: true, actual: CLEAN }]);
  }

  it('globals, prototypes and JSON changed by one run are untouched in the next', async () => {
    const attacked = await single.run({ language: 'javascript', code: `${TAMPER}\nfunction attempt() { return [1, 2].map((n) => n); }`, functionName: 'attempt', tests: [{ args: [], expected: null }] });
    // The tampering did take effect inside its own run...
    expect(attacked.outcomes).toEqual([{ passed: false, actual: ['tampered'] }]);
    // ...and nowhere else.
    await expectClean();
  });

  it('a run that tampers and then loops until interrupted leaves nothing either', { timeout: SLOW }, async () => {
    const attacked = await single.run({ language: 'javascript', code: `${TAMPER}\nfunction attempt() { while (true) {} }`, functionName: 'attempt', tests: [{ args: [], expected: null }] });
    expect(attacked.error).toEqual({ kind: 'timeout', message: 'time limit exceeded' });
    await expectClean();
  });
});
