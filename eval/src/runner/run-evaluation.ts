/**
 * Runs suites against one server: checks it is up (`GET /api/health`, which also says
 * which tutor answers), signs the evaluation's learner in, runs every case with bounded
 * concurrency, and returns the typed run result.
 */
import { performance } from 'node:perf_hooks';
import type { Credentials } from '@tutorloop/shared';
import type { LearnerEnvironment } from '../learners/learners';
import { ApiClient, describeApiFailure } from '../protocol/api-client';
import { summarize, type CaseResult, type RunResult } from '../results/result-schema';
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
  const cases = await mapWithConcurrency(work, options.concurrency, async ({ suite, testCase }) => {
    options.onCaseStart?.(suite, testCase.name);
    const result = await runCase(suite, testCase, { api, turnTimeoutMs: options.turnTimeoutMs, environment: options.environment });
    options.onCaseDone?.(result);
    return result;
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
