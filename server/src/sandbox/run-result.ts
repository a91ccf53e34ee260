import { jsonEqual } from './json-equal';
import type { CallReport, WorkerFailure } from './protocol';
import type { CodeTest, RunErrorKind, RunResult, TestOutcome } from './types';

/** Everything the host learned about one run, from the worker's reports and its own timers. */
export interface RunRecord {
  tests: CodeTest[];
  /** The code loaded and the function was found: tests started. */
  loaded?: boolean;
  /** Why the code could not be loaded (syntax, missing function, an error at top level). */
  loadFailure?: WorkerFailure;
  /** One report per test that ran, by index; holes for tests that never ran. */
  reports: (CallReport | undefined)[];
  /** Why the run was cut short by the host (worker terminated, crashed, closed). */
  stopped?: WorkerFailure;
  durationMs: number;
  output?: string;
}

/**
 * Turns a run record into the result callers see. Each test is scored by comparing
 * the returned JSON with `expected` here, on the host: expected values never enter
 * the sandbox, so learner code can neither read them nor fake a match.
 */
export function buildRunResult(record: RunRecord): RunResult {
  const notRunReason = record.stopped ?? record.loadFailure ?? firstStop(record.reports);
  // When the host stopped a run, the first test without a report is the one that was running.
  const runningIndex = record.loaded && record.stopped ? record.tests.findIndex((_, index) => !record.reports[index]) : -1;
  const outcomes = record.tests.map((test, index): TestOutcome => {
    const report = record.reports[index];
    if (index === runningIndex) return { passed: false, error: record.stopped?.message ?? 'stopped' };
    if (!report) return { passed: false, error: `not run: ${notRunReason?.message ?? 'no result'}` };
    if (!report.ok) return { passed: false, error: report.message };
    const actual = parseActual(report.actualJson);
    if (!actual.ok) return { passed: false, error: 'the sandbox reported a return value that is not JSON' };
    return { passed: jsonEqual(actual.value, normalizeJson(test.expected)), actual: actual.value };
  });
  const passed = outcomes.filter((outcome) => outcome.passed).length;
  const error = record.stopped ?? record.loadFailure ?? firstTestError(record.reports);
  return {
    passed,
    total: record.tests.length,
    outcomes,
    ...(error ? { error: { kind: error.kind, message: error.message } } : {}),
    durationMs: Math.round(record.durationMs),
    ...(record.output ? { output: record.output } : {}),
  };
}

/**
 * Workers send valid JSON, but this runs in a worker's message handler on the
 * server's main thread: a malformed report must not throw there.
 */
function parseActual(actualJson: unknown): { ok: true; value: unknown } | { ok: false } {
  if (typeof actualJson !== 'string') return { ok: false };
  try {
    return { ok: true, value: JSON.parse(actualJson) };
  } catch {
    return { ok: false };
  }
}

/** A JSON round trip, so `expected` compares the way it would after crossing the wire. */
function normalizeJson(value: unknown): unknown {
  return value === undefined ? null : JSON.parse(JSON.stringify(value));
}

function firstStop(reports: (CallReport | undefined)[]): WorkerFailure | undefined {
  return reports.find((report): report is Extract<CallReport, { ok: false }> => report?.ok === false && report.kind === 'timeout');
}

/** The most serious failure among the tests wins; within a kind, the first. */
const SEVERITY: readonly RunErrorKind[] = ['timeout', 'memory', 'internal', 'forbidden', 'runtime'];

function firstTestError(reports: (CallReport | undefined)[]): WorkerFailure | undefined {
  const failures = reports.flatMap((report, index) =>
    report && !report.ok ? [{ kind: report.kind, message: `test ${index + 1}: ${report.message}` }] : [],
  );
  const rank = (failure: WorkerFailure) => {
    const position = SEVERITY.indexOf(failure.kind);
    return position === -1 ? SEVERITY.length : position;
  };
  return failures.reduce<WorkerFailure | undefined>((worst, failure) => (!worst || rank(failure) < rank(worst) ? failure : worst), undefined);
}
