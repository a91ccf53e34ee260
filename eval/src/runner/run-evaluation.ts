/**
 * Runs suites against one server: checks it is up (`GET /api/health`, which also says
 * which tutor answers), signs the evaluation's learner in, runs every case with bounded
 * concurrency, and returns the typed run result. An expectation that compares two cases
 * (`repliesShorterThan`) is judged once both have run; the case is reported then.
 */
import { performance } from 'node:perf_hooks';
import type { Credentials } from '@tutorloop/shared';
import { toFailure } from '../checks/expectations';
import { checkRepliesShorter } from '../checks/learning-checks';
import type { LearnerEnvironment } from '../learners/learners';
import { ApiClient, describeApiFailure } from '../protocol/api-client';
import { summarize, type CaseResult, type Check, type RunResult } from '../results/result-schema';
import type { Suite } from '../suites/suite-schema';
import { runCase } from './case-runner';
import { mapWithConcurrency } from './pool';

export interface EvaluationTarget {
  url: string;
  /** `started`: a server eval started on a temporary database; `external`: `--url`. */
  server: 'started' | 'external';
  credentials: Credentials;
}

export interface RunEvaluationOptions {
  suites: readonly Suite[];
  target: EvaluationTarget;
  concurrency: number;
  turnTimeoutMs: number;
  label: string | null;
  environment: LearnerEnvironment;
  onCaseStart?: (suite: Suite, caseName: string) => void;
  onCaseDone?: (result: CaseResult) => void;
}

export type RunEvaluationResult = { ok: true; value: RunResult } | { ok: false; error: string };

/** The result with one more session check (a failed one fails the case). */
function withSessionCheck(result: CaseResult, check: Check): CaseResult {
  const failed = !check.passed;
  return {
    ...result,
    status: failed && result.status === 'passed' ? 'failed' : result.status,
    sessionChecks: [...result.sessionChecks, check],
    failures: failed ? [...result.failures, toFailure({ suite: result.suite, case: result.case }, null, check)] : result.failures,
  };
}

export async function runEvaluation(options: RunEvaluationOptions): Promise<RunEvaluationResult> {
  const startedAt = new Date();
  const started = performance.now();
  const anonymous = new ApiClient(options.target.url);
  const health = await anonymous.health();
  if (!health.ok) return { ok: false, error: `the server at ${options.target.url} is not answering: ${describeApiFailure(health.error)}` };
  const signIn = await anonymous.signIn(options.target.credentials);
  if (!signIn.ok) return { ok: false, error: `could not sign in as "${options.target.credentials.username}": ${describeApiFailure(signIn.error)}` };
  const api = anonymous.withToken(signIn.value.token);

  const work = options.suites.flatMap((suite) => suite.cases.map((testCase) => ({ suite, testCase })));
  const key = (suite: string, name: string) => `${suite}\u0000${name}`;
  const inRun = new Set(work.map(({ suite, testCase }) => key(suite.name, testCase.name)));
  const ran = new Map<string, CaseResult>();
  const cases: CaseResult[] = new Array(work.length);
  const waiting = new Map<number, CaseResult>();
  const report = (index: number, result: CaseResult) => {
    const other = work[index]!.testCase.expect?.repliesShorterThan;
    const peer = other === undefined ? undefined : ran.get(key(result.suite, other));
    const judged = other === undefined ? result : withSessionCheck(result, checkRepliesShorter(result.metrics.meanReplyWords ?? null, other, peer && peer.status !== 'not_run' ? (peer.metrics.meanReplyWords ?? null) : undefined));
    cases[index] = judged;
    options.onCaseDone?.(judged);
  };
  await mapWithConcurrency(work, options.concurrency, async ({ suite, testCase }, index) => {
    options.onCaseStart?.(suite, testCase.name);
    const result = await runCase(suite, testCase, { api, turnTimeoutMs: options.turnTimeoutMs, environment: options.environment });
    ran.set(key(suite.name, testCase.name), result);
    const other = testCase.expect?.repliesShorterThan;
    if (other !== undefined && inRun.has(key(suite.name, other)) && !ran.has(key(suite.name, other))) waiting.set(index, result);
    else report(index, result);
    for (const [waitingIndex, waitingResult] of waiting) {
      const waitingCase = work[waitingIndex]!;
      if (waitingCase.suite === suite && waitingCase.testCase.expect?.repliesShorterThan === testCase.name) {
        waiting.delete(waitingIndex);
        report(waitingIndex, waitingResult);
      }
    }
  });

  const endedAt = new Date();
  return {
    ok: true,
    value: {
      schemaVersion: 1,
      metadata: {
        label: options.label,
        serverUrl: options.target.url,
        server: options.target.server,
        tutor: health.value.tutor,
        serverVersion: health.value.version,
        startedAt: startedAt.toISOString(),
        endedAt: endedAt.toISOString(),
        durationMs: performance.now() - started,
        concurrency: options.concurrency,
        suites: options.suites.map((suite) => ({ name: suite.name, file: suite.file, cases: suite.cases.length })),
        node: process.version,
      },
      summary: summarize(cases),
      cases,
    },
  };
}
