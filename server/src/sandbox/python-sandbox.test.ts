import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type CodeTest, type RunResult, type Sandbox } from './index';

// SPEC §4.3 (code execution: time and memory limits, no file system outside a
// scratch area, no network, no process spawning, partial credit) and §8 (the
// sandbox contains escape attempts), for Python: real Pyodide in a real worker
// thread, no mocks. Tests that end in a terminated thread wait for the
// replacement's cold start, hence their long timeouts.

const TIMEOUT_MS = 1500;
const GRACE_MS = 500;
/**
 * How late past the limit a stopped run may end: the loops below never end by themselves, so
 * ending at all shows they were stopped; the slack only absorbs a busy machine (CI shares 2 cores).
 */
const slackMs = 5000;
const SLOW = { timeout: 120_000 };
let sandbox: Sandbox;
let hostDir: string;

beforeAll(async () => {
  hostDir = mkdtempSync(join(tmpdir(), 'sandbox-escape-'));
  process.env.SANDBOX_TEST_SECRET = 'host-only';
  sandbox = createSandbox({ timeoutMs: TIMEOUT_MS });
  await sandbox.warm();
}, 120_000);
afterAll(async () => {
  await sandbox.close();
  rmSync(hostDir, { recursive: true, force: true });
  delete process.env.SANDBOX_TEST_SECRET;
});

const COUNT_CHARS = 'def count_chars(text):\n    return len(text)\n';
const COUNT_CHARS_TESTS: CodeTest[] = [
  { args: ['héllo'], expected: 5 },
  { args: ['🙂'], expected: 1 },
  { args: [''], expected: 0 },
];
const runPython = (code: string, tests: CodeTest[] = [{ args: [], expected: null }], functionName = 'attempt'): Promise<RunResult> =>
  sandbox.run({ language: 'python', code, functionName, tests });
/** Learner code that removes the sandbox's import blocker first, to reach the layer below it. */
const WITHOUT_IMPORT_BLOCKER = 'import sys\nsys.meta_path[:] = [finder for finder in sys.meta_path if "Blocked" not in repr(finder)]\n';

/** After every escape attempt, a correct submission still gets full marks. */
async function expectRecovered(): Promise<void> {
  const result = await runPython(COUNT_CHARS, COUNT_CHARS_TESTS, 'count_chars');
  expect(result).toMatchObject({ passed: 3, total: 3 });
  expect(result.error).toBeUndefined();
}

async function withTcpServer(use: (port: number) => Promise<void>): Promise<number> {
  let connections = 0;
  const server = net.createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await use((server.address() as net.AddressInfo).port);
    await new Promise((resolve) => setTimeout(resolve, 100));
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  return connections;
}

describe('python sandbox: scoring', () => {
  it('passes count_chars on unicode input (é, an emoji, the empty string)', async () => {
    const result = await runPython(COUNT_CHARS, COUNT_CHARS_TESTS, 'count_chars');
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

  it('gives partial credit to a solution that counts UTF-8 bytes', async () => {
    const result = await runPython('def count_chars(text):\n    return len(text.encode("utf-8"))\n', COUNT_CHARS_TESTS, 'count_chars');
    expect(result).toEqual({
      passed: 1,
      total: 3,
      outcomes: [
        { passed: false, actual: 6 },
        { passed: false, actual: 4 },
        { passed: true, actual: 0 },
      ],
      durationMs: expect.any(Number),
    });
  });

  it('reports a syntax error with its line', async () => {
    const result = await runPython('def attempt():\n    return (\n\nx = 1');
    expect(result.error).toEqual({ kind: 'syntax', message: expect.stringMatching(/^SyntaxError: .*\(line 2\)$/) });
    expect(result.outcomes).toEqual([{ passed: false, error: `not run: ${result.error?.message}` }]);
  });

  it('reports a missing function', async () => {
    const result = await runPython('def something_else():\n    pass\n');
    expect(result.error).toEqual({ kind: 'missing_function', message: "define a function named 'attempt'" });
  });

  it('keeps an exception inside its test and scores the others', async () => {
    const result = await runPython('def attempt(n):\n    return 10 // n\n', [
      { args: [2], expected: 5 },
      { args: [0], expected: 0 },
    ]);
    expect(result).toMatchObject({
      passed: 1,
      total: 2,
      outcomes: [{ passed: true, actual: 5 }, { passed: false, error: 'ZeroDivisionError: division by zero (line 2)' }],
      error: { kind: 'runtime', message: 'test 2: ZeroDivisionError: division by zero (line 2)' },
    });
  });

  it('converts tuples and dicts to JSON, refuses values that are not JSON data, and captures print', async () => {
    const code = 'def attempt(kind):\n    print("called with", kind)\n    return (1, {"a": None}) if kind == "ok" else {1, 2}\n';
    const result = await runPython(code, [
      { args: ['ok'], expected: [1, { a: null }] },
      { args: ['set'], expected: [1, 2] },
    ]);
    expect(result).toMatchObject({
      passed: 1,
      outcomes: [{ passed: true, actual: [1, { a: null }] }, { passed: false, error: 'ValueError: return value of type set is not JSON data' }],
      output: 'called with ok\ncalled with set\n',
    });
  });

  it('runs each submission in a fresh interpreter: changes to shared modules and globals are gone', async () => {
    await runPython('import builtins, json\nbuiltins.len = lambda value: 42\njson.dumps = None\nleftover = 1\ndef attempt():\n    return 0\n');
    const result = await runPython('def attempt():\n    return [len("abc"), "leftover" in globals()]\n', [{ args: [], expected: [3, false] }]);
    expect(result.outcomes).toEqual([{ passed: true, actual: [3, false] }]);
  });
});

describe('python sandbox: host data', () => {
  it('does not see the server’s environment variables', async () => {
    const result = await runPython('import os\ndef attempt():\n    return [os.environ.get("SANDBOX_TEST_SECRET"), os.environ.get("HOME")]\n');
    expect(process.env.SANDBOX_TEST_SECRET).toBe('host-only');
    expect(result.outcomes).toEqual([{ passed: false, actual: [null, '/tmp'] }]);
  });

  it('has an empty environment: nothing of the host in os.environ (no `_`, PATH, PWD, USER), sys.argv or sys.executable', async () => {
    const code = 'import os, sys\ndef attempt():\n    return [dict(os.environ), os.getenv("_"), sys.argv, sys.orig_argv, sys.executable]\n';
    const expected = [{ HOME: '/tmp' }, null, [''], ['python'], ''];
    const result = await runPython(code, [{ args: [], expected }]);
    expect(result.outcomes).toEqual([{ passed: true, actual: expected }]);
  });

  it('cannot read the host’s /etc/passwd, and no host directory is mounted', async () => {
    const result = await runPython('import os\ndef attempt(path):\n    if path == "/":\n        return sorted(os.listdir("/"))\n    return open(path).read()\n', [
      { args: ['/etc/passwd'], expected: null },
      { args: ['/'], expected: ['dev', 'home', 'lib', 'proc', 'tmp'] },
    ]);
    expect(result.outcomes).toEqual([
      { passed: false, error: "FileNotFoundError: [Errno 44] No such file or directory: '/etc/passwd' (line 5)" },
      { passed: true, actual: ['dev', 'home', 'lib', 'proc', 'tmp'] },
    ]);
    await expectRecovered();
  });
});

describe('python sandbox: file system', () => {
  it('refuses writes outside the scratch directory /tmp, which is wiped between runs', async () => {
    const code = 'def attempt(path):\n    with open(path, "w") as file:\n        file.write("x")\n    return path\n';
    const result = await runPython(code, [
      { args: ['/lib/python3.14/json.py'], expected: null },
      { args: ['/home/web_user/notes.txt'], expected: null },
      { args: ['/tmp/../lib/evil.py'], expected: null },
      { args: ['/tmp/notes.txt'], expected: '/tmp/notes.txt' },
      { args: ['relative.txt'], expected: 'relative.txt' },
    ]);
    expect(result.outcomes).toEqual([
      { passed: false, error: "PermissionError: [Errno 2] Permission denied: '/lib/python3.14/json.py' (line 2)" },
      { passed: false, error: "PermissionError: [Errno 2] Permission denied: '/home/web_user/notes.txt' (line 2)" },
      { passed: false, error: "PermissionError: [Errno 2] Permission denied: '/tmp/../lib/evil.py' (line 2)" },
      { passed: true, actual: '/tmp/notes.txt' },
      { passed: true, actual: 'relative.txt' },
    ]);
    expect(result.error?.kind).toBe('forbidden');
    const next = await runPython('import os\ndef attempt():\n    return sorted(os.listdir("/tmp"))\n', [{ args: [], expected: [] }]);
    expect(next.outcomes).toEqual([{ passed: true, actual: [] }]);
    await expectRecovered();
  });

  it('caps what a run may write to scratch', async () => {
    const result = await runPython('def attempt():\n    with open("big", "w") as file:\n        for _ in range(100):\n            file.write("y" * 1_000_000)\n');
    expect(result.outcomes).toEqual([{ passed: false, error: 'OSError: [Errno 51] No space left on device (line 4)' }]);
    await expectRecovered();
  });
});

describe('python sandbox: processes', () => {
  it.each([
    ['os.system', 'import os\ndef attempt(marker):\n    return os.system("touch " + marker)\n', 'SandboxViolation: os.system is not allowed in the sandbox (line 3)'],
    ['os.popen', 'import os\ndef attempt(marker):\n    return os.popen("touch " + marker).read()\n', 'SandboxViolation: os.popen is not allowed in the sandbox (line 3)'],
    ['os.fork', 'import os\ndef attempt(marker):\n    return os.fork()\n', 'SandboxViolation: os.fork is not allowed in the sandbox (line 3)'],
    ['os.execv', 'import os\ndef attempt(marker):\n    os.execv("/usr/bin/touch", ["touch", marker])\n', 'SandboxViolation: os.execv is not allowed in the sandbox (line 3)'],
  ])('refuses %s', async (_label, code, error) => {
    const marker = join(hostDir, 'spawned');
    const result = await runPython(code, [{ args: [marker], expected: null }]);
    expect(result).toMatchObject({ outcomes: [{ passed: false, error }], error: { kind: 'forbidden' } });
    expect(existsSync(marker)).toBe(false);
    await expectRecovered();
  });

  it('refuses subprocess at import', async () => {
    const result = await runPython('import subprocess\ndef attempt(marker):\n    return subprocess.run(["touch", marker]).returncode\n');
    expect(result.error).toEqual({ kind: 'forbidden', message: "ForbiddenImportError: import of 'subprocess' is not allowed in the sandbox (line 1)" });
    await expectRecovered();
  });

  it('runs no host command even when Python-level blocks are bypassed (fresh posix module, ctypes)', async () => {
    const marker = join(hostDir, 'spawned-anyway');
    const freshPosix = 'import importlib, sys\ndef attempt(marker):\n    del sys.modules["posix"]\n    return importlib.import_module("posix").system("touch " + marker)\n';
    const viaCtypes = `${WITHOUT_IMPORT_BLOCKER}import ctypes\ndef attempt(marker):\n    return ctypes.CDLL(None).system(("touch " + marker).encode())\n`;
    for (const code of [freshPosix, viaCtypes]) {
      const result = await runPython(code, [{ args: [marker], expected: null }]);
      // 127 << 8: "command not found", the answer of the disabled child_process.
      expect(result.outcomes).toEqual([{ passed: false, actual: 32512 }]);
    }
    expect(existsSync(marker)).toBe(false);
    await expectRecovered();
  });
});

describe('python sandbox: network', () => {
  it('refuses socket at import, and a host server gets no connection', async () => {
    let result: RunResult | undefined;
    const connections = await withTcpServer(async (port) => {
      result = await runPython(`import socket\ndef attempt():\n    socket.create_connection(("127.0.0.1", ${port}), timeout=1)\n`);
    });
    expect(result?.error).toEqual({ kind: 'forbidden', message: "ForbiddenImportError: import of 'socket' is not allowed in the sandbox (line 1)" });
    expect(connections).toBe(0);
    await expectRecovered();
  });

  it('opens no connection and no listening port when the import blocker is bypassed', async () => {
    const results: RunResult[] = [];
    const connections = await withTcpServer(async (port) => {
      const connect = `${WITHOUT_IMPORT_BLOCKER}import socket\ndef attempt():\n    socket.create_connection(("127.0.0.1", ${port}), timeout=1)\n`;
      const listen = `${WITHOUT_IMPORT_BLOCKER}import socket\ndef attempt():\n    server = socket.socket()\n    server.bind(("127.0.0.1", 0))\n    server.listen()\n`;
      results.push(await runPython(connect), await runPython(listen));
    });
    expect(results.map((result) => result.outcomes)).toEqual([
      [{ passed: false, error: 'OSError: [Errno 23] Host is unreachable (line 5)' }],
      [{ passed: false, error: 'PermissionError: [Errno 2] Permission denied (line 7)' }],
    ]);
    expect(connections).toBe(0);
    await expectRecovered();
  });
});

describe('python sandbox: JavaScript bridge', () => {
  it.each([
    ['import js', 'js'],
    ['import pyodide_js', 'pyodide_js'],
    // The parent package is imported first, and refused.
    ['from pyodide.ffi import to_js', 'pyodide'],
    ['from pyodide.code import run_js', 'pyodide'],
    ['import _pyodide_core', '_pyodide_core'],
  ])('refuses `%s`', async (statement, module) => {
    const result = await runPython(`${statement}\ndef attempt():\n    return 1\n`);
    expect(result.error).toEqual({ kind: 'forbidden', message: `ForbiddenImportError: import of '${module}' is not allowed in the sandbox (line 1)` });
    await expectRecovered();
  });

  it('leaves no route to the host’s process or require when the import blocker is bypassed', async () => {
    const code = `${WITHOUT_IMPORT_BLOCKER}
def attempt(route):
    if route == "js":
        import js
        return [name for name in ("process", "require", "globalThis", "Function") if hasattr(js, name)]
    if route == "run_js":
        from pyodide.code import run_js
        return run_js("typeof process")
    import _pyodide_core
    some_object = _pyodide_core.to_js({})
    return [str(some_object.constructor), some_object.constructor.constructor]
`;
    const result = await runPython(code, [
      { args: ['js'], expected: null },
      { args: ['run_js'], expected: null },
      { args: ['to_js'], expected: null },
    ]);
    expect(result.outcomes).toEqual([
      { passed: false, error: "ModuleNotFoundError: No module named 'js' (line 6)" },
      { passed: false, error: "ModuleNotFoundError: No module named 'js' (line 10)" },
      // An Object constructor without its Function constructor: no `Function('return process')`.
      { passed: false, actual: ['function Object() { [native code] }', null] },
    ]);
    await expectRecovered();
  });

  it('contains emscripten_run_script called through ctypes (there is no eval to run it)', SLOW, async () => {
    const result = await runPython(`${WITHOUT_IMPORT_BLOCKER}import ctypes\ndef attempt():\n    return ctypes.CDLL(None).emscripten_run_script(b"process.exit(7)")\n`);
    expect(result.error).toEqual({ kind: 'internal', message: expect.stringContaining('eval is not defined') });
    await expectRecovered();
  });
});

describe('python sandbox: limits', () => {
  it('stops `while True: pass` at the time limit while the main event loop keeps ticking', SLOW, async () => {
    let pings = 0;
    const ping = setInterval(() => (pings += 1), 20);
    const startedAt = performance.now();
    const result = await runPython('def attempt():\n    while True:\n        pass\n');
    const elapsed = performance.now() - startedAt;
    clearInterval(ping);
    expect(result.error).toEqual({ kind: 'timeout', message: 'time limit exceeded' });
    expect(result.outcomes).toEqual([{ passed: false, error: 'time limit exceeded' }]);
    expect(elapsed).toBeLessThan(TIMEOUT_MS + slackMs);
    // A blocked event loop would have ticked once or not at all.
    expect(pings).toBeGreaterThan(TIMEOUT_MS / 20 / 4);
    await expectRecovered();
  });

  it.each([
    ['a loop that swallows the interrupt', 'def attempt():\n    while True:\n        try:\n            while True:\n                pass\n        except BaseException:\n            pass\n'],
    ['a C-level loop', 'def attempt():\n    return sum(range(10**12))\n'],
  ])('terminates and replaces the worker for %s', SLOW, async (_label, code) => {
    const startedAt = performance.now();
    const result = await runPython(code);
    expect(result.error).toEqual({ kind: 'timeout', message: 'time limit exceeded' });
    expect(performance.now() - startedAt).toBeLessThan(TIMEOUT_MS + GRACE_MS + slackMs);
    await expectRecovered();
  });

  it.each([
    ['a list growing forever', 'def attempt():\n    hoard = []\n    while True:\n        hoard.append("y" * 65536)\n', 'MemoryError: memory limit exceeded'],
    ["'x' * 10**9", 'def attempt():\n    return len("x" * 10**9)\n', 'MemoryError: memory limit exceeded'],
    [
      "'x' * 10**10",
      'def attempt():\n    return len("x" * 10**10)\n',
      "MemoryError: memory limit exceeded (OverflowError: cannot fit 'int' into an index-sized integer)",
    ],
  ])('ends a memory bomb (%s) with kind memory', SLOW, async (_label, code, message) => {
    const result = await runPython(code);
    expect(result.error).toEqual({ kind: 'memory', message: `test 1: ${message}` });
    await expectRecovered();
  });

  it('reports deep recursion as a RecursionError', async () => {
    const result = await runPython('def attempt(depth=0):\n    return attempt(depth + 1)\n');
    expect(result.error).toEqual({ kind: 'runtime', message: 'test 1: RecursionError: maximum recursion depth exceeded (line 2)' });
    await expectRecovered();
  });

  it('keeps a raised recursion limit within what the interpreter’s stack can take', SLOW, async () => {
    const code = 'import sys\nsys.setrecursionlimit(10**6)\ndef attempt(depth=0):\n    return sorted([1], key=lambda item: attempt(depth + 1))\n';
    const result = await runPython(code);
    expect(result.error).toEqual({ kind: 'runtime', message: expect.stringContaining('RecursionError') });
    await expectRecovered();
  });

  it('stops a running submission when its caller aborts', SLOW, async () => {
    const controller = new AbortController();
    const startedAt = performance.now();
    const running = sandbox.run(
      { language: 'python', code: 'def attempt():\n    while True:\n        pass\n', functionName: 'attempt', tests: [{ args: [], expected: null }] },
      controller.signal,
    );
    setTimeout(() => controller.abort(new Error('learner left')), 100);
    await expect(running).rejects.toThrow('learner left');
    expect(performance.now() - startedAt).toBeLessThan(TIMEOUT_MS);
    await expectRecovered();
  });
});
