/**
 * Scoring a code answer in the sandbox (SPEC §4.3; learning sessions' practice items too, §4.4): the learner's function runs against the
 * item's tests, queued under the learner so that one learner's loops cannot starve others
 * (§8). Partial credit is the share of tests passed.
 */
import type { CodeItemTask } from './item-builder';
import { creditFromTests } from './scoring';
import { toOutcomeRecords, type RawTestOutcome, type TestOutcomeRecord } from './test-cases';

/** A scored code answer: the credit and what the tests said. */
export interface CodeScore {
  credit: number;
  testsPassed: number | null;
  testsTotal: number | null;
  note: string | null;
  /** Each test's outcome, in the order of the item's tests (the results show them once the assessment is over). */
  outcomes?: TestOutcomeRecord[];
}

/** Runs learner code against tests (the sandbox adapter implements it). */
export interface CodeRunner {
  run(
    request: {
      language: 'python' | 'javascript';
      code: string;
      functionName: string;
      tests: Array<{ args: unknown[]; expected: unknown }>;
      /** Whose run it is: the sandbox queues per owner, so one learner's loops cannot starve others. */
      owner?: string;
    },
    signal?: AbortSignal,
  ): Promise<{ passed: number; total: number; error?: { kind: string; message: string }; outcomes?: RawTestOutcome[]; output?: string; durationMs?: number }>;
  /**
   * Starts the interpreters ahead of the first run (Pyodide's cold start takes seconds): called
   * when a code item is presented, so the learner's first run or answer does not pay for it.
   */
  warm?(): Promise<void>;
}

/** While the learner already has runs queued (`busy`), how long to wait before asking again, and how often. */
const busyRetryMs = 500;
const busyRetries = 40;

/**
 * Runs `code` against the task's tests. A `busy` sandbox (this learner's runs from other
 * sessions fill their places) is waited out rather than scored 0: the answer is stored
 * already. Rejects with the signal's reason when cancelled, or when the sandbox stays busy.
 */
export async function scoreCode(
  runner: CodeRunner,
  task: CodeItemTask,
  answer: { code: string; owner?: string },
  signal?: AbortSignal,
): Promise<CodeScore> {
  const tests = task.tests.map(({ args, expected }) => ({ args, expected }));
  const request = { language: task.language, code: answer.code, functionName: task.functionName, tests, ...(answer.owner ? { owner: answer.owner } : {}) };
  let run = await runner.run(request, signal);
  for (let attempt = 0; run.error?.kind === 'busy' && attempt < busyRetries; attempt += 1) {
    await waitFor(busyRetryMs, signal);
    run = await runner.run(request, signal);
  }
  if (run.error?.kind === 'busy') throw new Error('the sandbox stayed busy for this learner; the answer stays stored and is scored on resume');
  return {
    credit: creditFromTests(run.passed, run.total, task.partialCredit),
    testsPassed: run.passed,
    testsTotal: run.total,
    note: run.error ? `${run.error.kind}: ${run.error.message}`.slice(0, 300) : null,
    ...(run.outcomes && run.outcomes.length === task.tests.length ? { outcomes: toOutcomeRecords(run.outcomes) } : {}),
  };
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
function waitFor(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
