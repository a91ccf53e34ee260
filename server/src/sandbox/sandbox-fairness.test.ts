import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type CodeTest, type RunRequest, type RunResult, type Sandbox } from './index';

// SPEC §8: a pool of workers with a per-learner queue keeps one learner's loops
// from starving others. The attack: five learners kept submitting infinite loops
// to the one Python worker, and a sixth learner's scoring went from 12 ms to
// 18.7 s. Real Pyodide threads (the default pool of two), a short time limit.

const TIMEOUT_MS = 1000;
/** create-sandbox.ts: how long a run may take to stop after its interrupt. */
const GRACE_MS = 500;
const COUNT_CHARS_TESTS: CodeTest[] = [
  { args: ['héllo'], expected: 5 },
  { args: ['🙂'], expected: 1 },
  { args: [''], expected: 0 },
];
const python = (code: string, owner: string): RunRequest => ({ language: 'python', code, functionName: 'count_chars', tests: COUNT_CHARS_TESTS, owner });
const LOOP = 'def count_chars(text):\n    while True:\n        pass\n';
const CORRECT = 'def count_chars(text):\n    return len(text)\n';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = createSandbox({ timeoutMs: TIMEOUT_MS });
  await sandbox.warm();
}, 120_000);
afterAll(() => sandbox.close());

describe('attack: five learners’ infinite loops starve a sixth learner', () => {
  it('serves a sixth learner within one time limit (timeoutMs + grace) of submitting, while five keep their queues full of loops', { timeout: 120_000 }, async () => {
    let attacking = true;
    const attackerResults: RunResult[] = [];
    const firstLoopsEnded: Promise<void>[] = [];
    const attackers = ['attacker-1', 'attacker-2', 'attacker-3', 'attacker-4', 'attacker-5'].flatMap((owner) => {
      let markFirstEnded!: () => void;
      firstLoopsEnded.push(new Promise<void>((resolve) => (markFirstEnded = resolve)));
      // Three lanes each, the per-learner limit: every loop that ends is resubmitted at once.
      return [0, 1, 2].map(async () => {
        while (attacking) {
          attackerResults.push(await sandbox.run(python(LOOP, owner)));
          markFirstEnded();
        }
      });
    });
    // The attack in its steady state: every attacker has been served and is still submitting.
    await Promise.all(firstLoopsEnded);

    const submittedAt = performance.now();
    const victim = await sandbox.run(python(CORRECT, 'learner-6'));
    const waitedMs = performance.now() - submittedAt;
    attacking = false;

    expect(victim).toMatchObject({ passed: 3, total: 3 });
    expect(victim.error).toBeUndefined();
    // At worst a worker finishes one loop (timeoutMs, or timeoutMs + grace if the loop ignores its
    // interrupt) and starts a fresh interpreter; without fair queues the victim waited behind ~15 loops.
    expect(waitedMs, `the sixth learner waited ${Math.round(waitedMs)} ms`).toBeLessThan(2 * (TIMEOUT_MS + GRACE_MS));
    expect(attackerResults.length).toBeGreaterThanOrEqual(5);
    expect(attackerResults.every((result) => result.error?.kind === 'timeout')).toBe(true);
    await sandbox.close();
    await Promise.all(attackers);
  });
});

describe('per-learner queue limit', () => {
  it('resolves a run over the limit at once as busy, asking to wait for the previous run; other learners are not affected', { timeout: 60_000 }, async () => {
    const limited = createSandbox({ timeoutMs: TIMEOUT_MS, javascriptWorkers: 1, maxQueuedPerOwner: 3 });
    try {
      const javascript = (code: string, owner: string): RunRequest => ({ language: 'javascript', code, functionName: 'count_chars', tests: COUNT_CHARS_TESTS, owner });
      const loops = [1, 2, 3].map(() => limited.run(javascript('function count_chars(text) { while (true) {} }', 'alice')));
      const refused = await limited.run(javascript('function count_chars(text) { return [...text].length; }', 'alice'));
      const message = 'a previous run is still queued or running (at most 3 at a time): wait for it to finish, then submit again';
      expect(refused).toEqual({
        passed: 0,
        total: 3,
        outcomes: COUNT_CHARS_TESTS.map(() => ({ passed: false, error: `not run: ${message}` })),
        error: { kind: 'busy', message },
        durationMs: 0,
      });
      // Bob is served even with alice's three loops ahead of him in time.
      const bob = await limited.run(javascript('function count_chars(text) { return [...text].length; }', 'bob'));
      expect(bob).toMatchObject({ passed: 3, total: 3 });
      expect((await Promise.all(loops)).map((result) => result.error?.kind)).toEqual(['timeout', 'timeout', 'timeout']);
      // Once alice's runs have ended, she may submit again.
      expect(await limited.run(javascript('function count_chars(text) { return [...text].length; }', 'alice'))).toMatchObject({ passed: 3 });
    } finally {
      await limited.close();
    }
  });
});
