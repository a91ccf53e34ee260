import { afterEach, describe, expect, it } from 'vitest';
import { SandboxWorker, type SandboxJob, type SandboxWorkerOptions } from './sandbox-worker';

// The queue, timers and thread replacement of SandboxWorker, on real threads: the
// QuickJS worker (it boots in milliseconds) and tiny inline workers that misbehave
// on purpose (never answer, die, fail to boot, exhaust their heap).

const countChars: SandboxJob = {
  code: 'function count_chars(text) { return [...text].length }',
  functionName: 'count_chars',
  tests: [{ args: ['héllo'], expected: 5 }],
  argsJson: ['["héllo"]'],
};
const endlessLoop: SandboxJob = { ...countChars, code: 'function count_chars(text) { while (true) {} }' };
const TIMEOUT_MS = 300;
const GRACE_MS = 200;

const javascriptWorker = new URL('./javascript-worker.mjs', import.meta.url);
/** A worker thread from inline source: it answers `ready`, then does `onRun` for each run. */
const inlineWorker = (onRun: string) =>
  new URL(
    `data:text/javascript,${encodeURIComponent(`
      import { parentPort } from 'node:worker_threads';
      parentPort.on('message', (message) => { ${onRun} });
      parentPort.postMessage({ type: 'ready' });
    `)}`,
  );

const workers: SandboxWorker[] = [];
function createWorker(entry: URL, overrides: Partial<SandboxWorkerOptions> = {}): SandboxWorker {
  const worker = new SandboxWorker({
    name: 'test',
    entry,
    timeoutMs: TIMEOUT_MS,
    graceMs: GRACE_MS,
    memoryBytes: 32 * 1024 * 1024,
    resourceLimits: {},
    bootTimeoutMs: 20_000,
    ...overrides,
  });
  workers.push(worker);
  return worker;
}
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.close()));
});

describe('SandboxWorker', () => {
  it('runs submissions one at a time, in order; a timeout in the middle does not stall the queue', async () => {
    const worker = createWorker(javascriptWorker);
    const settled: string[] = [];
    const track = (label: string, job: SandboxJob) =>
      worker.run(job).then((result) => {
        settled.push(label);
        return result;
      });
    const [first, looping, last] = await Promise.all([track('first', countChars), track('looping', endlessLoop), track('last', countChars)]);
    expect(settled).toEqual(['first', 'looping', 'last']);
    expect(first).toMatchObject({ passed: 1, total: 1 });
    expect(looping.error).toEqual({ kind: 'timeout', message: 'time limit exceeded' });
    expect(last).toMatchObject({ passed: 1, total: 1 });
  });

  it('rejects a queued run with the abort reason and never runs it', async () => {
    const worker = createWorker(javascriptWorker);
    const controller = new AbortController();
    const running = worker.run(endlessLoop);
    const queued = worker.run(countChars, controller.signal);
    controller.abort(new Error('learner left'));
    await expect(queued).rejects.toThrow('learner left');
    expect((await running).error?.kind).toBe('timeout');
  });

  it('interrupts a running run when aborted, well before its time limit, and stays usable', async () => {
    const worker = createWorker(javascriptWorker, { timeoutMs: 5000 });
    await worker.warm();
    const controller = new AbortController();
    const startedAt = performance.now();
    const running = worker.run(endlessLoop, controller.signal);
    setTimeout(() => controller.abort(new Error('session closed')), 50);
    await expect(running).rejects.toThrow('session closed');
    expect(performance.now() - startedAt).toBeLessThan(1000);
    expect(await worker.run(countChars)).toMatchObject({ passed: 1, total: 1 });
  });

  it('terminates a thread that ignores the interrupt after the grace period, and replaces it', async () => {
    const worker = createWorker(inlineWorker(`parentPort.postMessage({ type: 'loaded', runId: message.runId }); for (;;) {}`));
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const startedAt = performance.now();
      const result = await worker.run(countChars);
      // The second run only finishes because a fresh thread replaced the stuck one.
      expect(result).toMatchObject({ passed: 0, error: { kind: 'timeout', message: 'time limit exceeded' } });
      expect(result.outcomes).toEqual([{ passed: false, error: 'time limit exceeded' }]);
      expect(performance.now() - startedAt).toBeLessThan(TIMEOUT_MS + GRACE_MS + 1000);
    }
  });

  it('ends a run whose thread exceeds its V8 heap cap with kind memory', async () => {
    const worker = createWorker(inlineWorker(`const hoard = []; for (;;) hoard.push({ index: hoard.length, text: 'x' + hoard.length });`), {
      resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 },
      timeoutMs: 20_000,
    });
    const result = await worker.run(countChars);
    expect(result.error).toEqual({ kind: 'memory', message: 'memory limit exceeded (the sandbox thread ran out of heap)' });
  });

  it('reports a thread that dies mid-run as internal and starts a new one', async () => {
    const worker = createWorker(inlineWorker(`process.exit(3);`));
    const result = await worker.run(countChars);
    expect(result.error).toEqual({ kind: 'internal', message: 'the sandbox thread stopped: the worker thread exited with code 3' });
    expect((await worker.run(countChars)).error?.kind).toBe('internal');
  });

  it('turns a failed boot into internal results and retries the boot on the next run', async () => {
    const entry = new URL(
      `data:text/javascript,${encodeURIComponent(`
        import { parentPort } from 'node:worker_threads';
        parentPort.postMessage({ type: 'boot_failed', message: 'no interpreter here' });
      `)}`,
    );
    const worker = createWorker(entry);
    await expect(worker.warm()).rejects.toThrow('the test sandbox could not start: no interpreter here');
    for (let attempt = 0; attempt < 2; attempt += 1) {
      expect((await worker.run(countChars)).error).toEqual({ kind: 'internal', message: 'the test sandbox could not start: no interpreter here' });
    }
  });

  it('ends running and queued runs with internal on close, and refuses later ones', async () => {
    const worker = createWorker(javascriptWorker, { timeoutMs: 5000 });
    await worker.warm();
    const running = worker.run(endlessLoop);
    const queued = worker.run(countChars);
    await worker.close();
    const closed = { kind: 'internal', message: 'the test sandbox was closed' };
    expect((await running).error).toEqual(closed);
    expect((await queued).error).toEqual(closed);
    expect((await worker.run(countChars)).error).toEqual({ kind: 'internal', message: 'the test sandbox is closed' });
  });
});
