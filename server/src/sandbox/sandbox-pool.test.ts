import { afterEach, describe, expect, it, vi } from 'vitest';
import { SandboxPool, type SandboxJob, type SandboxPoolOptions } from './sandbox-pool';
import type { RunResult } from './types';

// The queues, timers and thread replacement of SandboxPool, on real threads: the
// QuickJS worker (it boots in milliseconds) and tiny inline workers that misbehave
// on purpose (never answer, die, fail to boot, exhaust their heap) or that make
// the pool's behaviour observable without timing (block until interrupted).

const countChars: SandboxJob = {
  code: 'function count_chars(text) { return [...text].length }',
  functionName: 'count_chars',
  tests: [{ args: ['héllo'], expected: 5 }],
  argsJson: ['["héllo"]'],
};
const endlessLoop: SandboxJob = { ...countChars, code: 'function count_chars(text) { while (true) {} }' };
const TIMEOUT_MS = 300;
const GRACE_MS = 200;
/**
 * How late past the limit a stopped run may end: the loops below never end by themselves, so
 * ending at all shows they were stopped; the slack only absorbs a busy machine (CI shares 2 cores).
 */
const slackMs = 5000;

const javascriptWorker = new URL('./javascript-worker.mjs', import.meta.url);
/** A worker thread from inline source: it answers `ready`, then does `onRun` for each run. */
const inlineWorker = (onRun: string, onStart = '') =>
  new URL(
    `data:text/javascript,${encodeURIComponent(`
      import { parentPort, workerData } from 'node:worker_threads';
      ${onStart}
      parentPort.on('message', (message) => { ${onRun} });
      parentPort.postMessage({ type: 'ready' });
    `)}`,
  );
/** Reports `value` as test 1's return value and is ready for the next run. */
const answer = (value: string) => `
  parentPort.postMessage({ type: 'loaded', runId: message.runId });
  parentPort.postMessage({ type: 'called', runId: message.runId, index: 0, report: { ok: true, actualJson: JSON.stringify(${value}) } });
  parentPort.postMessage({ type: 'finished', runId: message.runId, output: '' });
  parentPort.postMessage({ type: 'ready' });
`;
/** A run whose code is 'block' holds its thread until its own interrupt flag is raised; any other run answers 5. */
const blockingWorker = inlineWorker(`
  const interrupt = new Int32Array(message.interruptBuffer);
  while (message.code === 'block' && Atomics.load(interrupt, 0) === 0) Atomics.wait(interrupt, 0, 0, 5);
  ${answer('5')}
`);
const blocking: SandboxJob = { ...countChars, code: 'block' };

const pools: SandboxPool[] = [];
function createPool(entry: URL, overrides: Partial<SandboxPoolOptions> = {}): SandboxPool {
  const pool = new SandboxPool({
    name: 'test',
    entry,
    workers: 1,
    maxQueuedPerOwner: 3,
    timeoutMs: TIMEOUT_MS,
    graceMs: GRACE_MS,
    memoryBytes: 32 * 1024 * 1024,
    resourceLimits: {},
    bootTimeoutMs: 20_000,
    ...overrides,
  });
  pools.push(pool);
  return pool;
}
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});

/** Runs jobs and records the order in which they settle. */
function tracker(pool: SandboxPool) {
  const settled: string[] = [];
  const track = (label: string, job: SandboxJob, owner?: string) =>
    pool.run(job, { owner }).then((result) => {
      settled.push(label);
      return result;
    });
  return { settled, track };
}

describe('SandboxPool: one thread', () => {
  it('runs submissions one at a time, in order; a timeout in the middle does not stall the queue', async () => {
    const pool = createPool(javascriptWorker);
    const { settled, track } = tracker(pool);
    const [first, looping, last] = await Promise.all([track('first', countChars), track('looping', endlessLoop), track('last', countChars)]);
    expect(settled).toEqual(['first', 'looping', 'last']);
    expect(first).toMatchObject({ passed: 1, total: 1 });
    expect(looping.error).toEqual({ kind: 'timeout', message: 'time limit exceeded' });
    expect(last).toMatchObject({ passed: 1, total: 1 });
  });

  it('rejects a queued run with the abort reason and never runs it', async () => {
    const pool = createPool(javascriptWorker);
    const controller = new AbortController();
    const running = pool.run(endlessLoop);
    const queued = pool.run(countChars, { signal: controller.signal });
    controller.abort(new Error('learner left'));
    await expect(queued).rejects.toThrow('learner left');
    expect((await running).error?.kind).toBe('timeout');
  });

  it('interrupts a running run when aborted, well before its time limit, and stays usable', async () => {
    const pool = createPool(javascriptWorker, { timeoutMs: 5000 });
    await pool.warm();
    const controller = new AbortController();
    const startedAt = performance.now();
    const running = pool.run(endlessLoop, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('session closed')), 50);
    await expect(running).rejects.toThrow('session closed');
    expect(performance.now() - startedAt).toBeLessThan(1000);
    expect(await pool.run(countChars)).toMatchObject({ passed: 1, total: 1 });
  });

  it('terminates a thread that ignores the interrupt after the grace period, and replaces it', async () => {
    const pool = createPool(inlineWorker(`parentPort.postMessage({ type: 'loaded', runId: message.runId }); for (;;) {}`));
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const startedAt = performance.now();
      const result = await pool.run(countChars);
      // The second run only finishes because a fresh thread replaced the stuck one.
      expect(result).toMatchObject({ passed: 0, error: { kind: 'timeout', message: 'time limit exceeded' } });
      expect(result.outcomes).toEqual([{ passed: false, error: 'time limit exceeded' }]);
      expect(performance.now() - startedAt).toBeLessThan(TIMEOUT_MS + GRACE_MS + slackMs);
    }
  });

  it('ends a run whose thread exceeds its V8 heap cap with kind memory', async () => {
    const pool = createPool(inlineWorker(`const hoard = []; for (;;) hoard.push({ index: hoard.length, text: 'x' + hoard.length });`), {
      resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 },
      timeoutMs: 20_000,
    });
    const result = await pool.run(countChars);
    expect(result.error).toEqual({ kind: 'memory', message: 'memory limit exceeded (the sandbox thread ran out of heap)' });
  });

  it('reports a thread that dies mid-run as internal and starts a new one', async () => {
    const pool = createPool(inlineWorker(`process.exit(3);`));
    const result = await pool.run(countChars);
    expect(result.error).toEqual({ kind: 'internal', message: 'the sandbox thread stopped: the worker thread exited with code 3' });
    expect((await pool.run(countChars)).error?.kind).toBe('internal');
  });

  it('turns a failed boot into internal results and retries the boot on the next run', async () => {
    const entry = new URL(
      `data:text/javascript,${encodeURIComponent(`
        import { parentPort } from 'node:worker_threads';
        parentPort.postMessage({ type: 'boot_failed', message: 'no interpreter here' });
      `)}`,
    );
    const pool = createPool(entry);
    await expect(pool.warm()).rejects.toThrow('the test sandbox could not start: no interpreter here');
    for (let attempt = 0; attempt < 2; attempt += 1) {
      expect((await pool.run(countChars)).error).toEqual({ kind: 'internal', message: 'the test sandbox could not start: no interpreter here' });
    }
  });

  it('ends running and queued runs with internal on close, and refuses later ones', async () => {
    const pool = createPool(javascriptWorker, { timeoutMs: 5000 });
    await pool.warm();
    const running = pool.run(endlessLoop);
    const queued = pool.run(countChars);
    await pool.close();
    const closed = { kind: 'internal', message: 'the test sandbox was closed' };
    expect((await running).error).toEqual(closed);
    expect((await queued).error).toEqual(closed);
    expect((await pool.run(countChars)).error).toEqual({ kind: 'internal', message: 'the test sandbox is closed' });
  });
});

describe('SandboxPool: several threads, per-owner queues', () => {
  it('runs on another thread while one is held by a run that never ends', async () => {
    const pool = createPool(blockingWorker, { workers: 2, timeoutMs: 60_000 });
    await pool.warm();
    let heldSettled = false;
    const held = pool.run(blocking, { owner: 'looper' }).then((result) => {
      heldSettled = true;
      return result;
    });
    expect(await pool.run(countChars, { owner: 'learner' })).toMatchObject({ passed: 1, total: 1 });
    expect(heldSettled).toBe(false);
    await pool.close();
    expect((await held).error?.kind).toBe('internal');
  });

  it('serves owners round robin: a newcomer goes ahead of another owner’s backlog', async () => {
    const pool = createPool(javascriptWorker);
    const { settled, track } = tracker(pool);
    await pool.warm();
    const runs = [
      track('alice 1', endlessLoop, 'alice'),
      track('alice 2', endlessLoop, 'alice'),
      track('alice 3', endlessLoop, 'alice'),
      track('bob 1', countChars, 'bob'),
    ];
    await Promise.all(runs);
    // alice 1 was already running when bob arrived; bob was served before alice's next run.
    expect(settled).toEqual(['alice 1', 'bob 1', 'alice 2', 'alice 3']);
  });

  it('refuses a run over the owner’s limit at once as busy; other owners are not affected', async () => {
    const pool = createPool(blockingWorker, { maxQueuedPerOwner: 2, timeoutMs: 60_000 });
    const held = [pool.run(blocking, { owner: 'alice' }), pool.run(blocking, { owner: 'alice' })];
    const refused = await pool.run(countChars, { owner: 'alice' });
    const message = 'a previous run is still queued or running (at most 2 at a time): wait for it to finish, then submit again';
    expect(refused).toEqual({
      passed: 0,
      total: 1,
      outcomes: [{ passed: false, error: `not run: ${message}` }],
      error: { kind: 'busy', message },
      durationMs: 0,
    });
    const bob = pool.run(countChars, { owner: 'bob' });
    await pool.close();
    expect((await Promise.all([...held, bob])).map((result) => result.error?.kind)).toEqual(['internal', 'internal', 'internal']);
  });

  it('frees an owner’s place when a run ends or its caller gives up', async () => {
    const pool = createPool(blockingWorker, { maxQueuedPerOwner: 1, timeoutMs: TIMEOUT_MS });
    expect(await pool.run(blocking, { owner: 'alice' })).toMatchObject({ error: { kind: 'timeout' } });
    await pool.warm();
    const controller = new AbortController();
    const abandoned = pool.run(blocking, { owner: 'alice', signal: controller.signal });
    controller.abort(new Error('learner left'));
    await expect(abandoned).rejects.toThrow('learner left');
    // The abandoned run counts until it has stopped (else abort and resubmit would hold every thread)...
    expect((await pool.run(countChars, { owner: 'alice' })).error?.kind).toBe('busy');
    // ...which it does at once: its interrupt flag was raised.
    await pool.warm();
    expect(await pool.run(countChars, { owner: 'alice' })).toMatchObject({ passed: 1, total: 1 });
  });

  it('counts runs without an owner as one anonymous owner', async () => {
    const pool = createPool(blockingWorker, { maxQueuedPerOwner: 1, timeoutMs: 60_000 });
    const held = pool.run(blocking);
    const refused: RunResult = await pool.run(countChars);
    expect(refused.error?.kind).toBe('busy');
    await pool.close();
    expect((await held).error?.kind).toBe('internal');
  });
});

describe('SandboxPool: boot image', () => {
  // The inline worker makes an "image" when started without one, then reports, for each run,
  // the image it started from; a run with code 'die' ends its thread, 'forge' posts another image.
  const imageWorker = inlineWorker(
    `
      if (message.code === 'die') process.exit(1);
      if (message.code === 'hold') Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
      if (message.code === 'forge') parentPort.postMessage({ type: 'boot_image', image: new Uint8Array([6, 6, 6]) });
      ${answer('workerData.bootImage ? [...workerData.bootImage] : null')}
    `,
    `if (!workerData.bootImage) parentPort.postMessage({ type: 'boot_image', image: new Uint8Array([1, 2, 3]) });`,
  );
  const report = (code: string) => ({ ...countChars, code });

  it('starts replacement threads from the image the first thread made before running anything; an image sent later is ignored', async () => {
    const pool = createPool(imageWorker);
    expect((await pool.run(report('forge'))).outcomes).toEqual([{ passed: false, actual: null }]);
    expect((await pool.run(report('die'))).error?.kind).toBe('internal');
    expect((await pool.run(report('show'))).outcomes).toEqual([{ passed: false, actual: [1, 2, 3] }]);
  });

  it('starts one thread first and the others from its image, so only one pays the cold start', async () => {
    const pool = createPool(imageWorker, { workers: 2 });
    await pool.warm();
    // The first run holds the first thread for a moment, so the second goes to the other thread.
    const results = await Promise.all([pool.run(report('hold')), pool.run(report('show'))]);
    expect(results.map((result) => result.outcomes)).toEqual([[{ passed: false, actual: null }], [{ passed: false, actual: [1, 2, 3] }]]);
  });

  it('releases every thread and the image after idleMs without a run; the next run starts the pool again from nothing', async () => {
    const pool = createPool(imageWorker, { workers: 2, idleMs: 50 });
    await pool.warm();
    expect(pool.threadCount).toBe(2);
    await vi.waitFor(() => expect(pool.threadCount).toBe(0), { timeout: 20_000, interval: 20 });
    // The first thread of the new start makes its own image: it started from none.
    expect((await pool.run(report('show'))).outcomes).toEqual([{ passed: false, actual: null }]);
    expect(pool.threadCount).toBeGreaterThan(0);
  });

  it('keeps a thread that is running code, however long past idleMs the run lasts', async () => {
    const pool = createPool(blockingWorker, { idleMs: 1 });
    await pool.warm();
    // Blocked until its time limit (300 ms): a release in the meantime would lose the run (it never settles).
    expect((await pool.run(blocking)).error).toEqual({ kind: 'timeout', message: 'time limit exceeded' });
    expect((await pool.run(countChars)).outcomes).toEqual([{ passed: true, actual: 5 }]);
  });
});
