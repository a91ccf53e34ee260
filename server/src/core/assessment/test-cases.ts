/**
 * A code item's tests as a learner reads them (issue 25 item 2): each call written in Python
 * (`count_vowels('Orbit')`), what it must return and what the learner's code returned. The
 * visible examples are shown with the item and run by "Run examples"; every test, hidden ones
 * included, is shown in the results once the assessment is over.
 */
import type { CodeExample, CodeTestCase } from '@tutorloop/shared';
import type { CodeTask, CodeTaskTest } from './generator';

/** What one test of a scored answer produced, as stored with the response (display form, bounded). */
export interface TestOutcomeRecord {
  passed: boolean;
  /** What the function returned, as a Python literal; null when it raised or did not run. */
  actual: string | null;
  error?: string;
}

/** What the sandbox reports for one test (`TestOutcome` of the sandbox). */
export interface RawTestOutcome {
  passed: boolean;
  actual?: unknown;
  error?: string;
}

/** Longest value or message kept per test: a result is for reading, not a dump of a huge return value. */
const maxShownChars = 300;

function bounded(text: string): string {
  return text.length > maxShownChars ? `${text.slice(0, maxShownChars - 1)}…` : text;
}

const escapes: Record<string, string> = { '\\': '\\\\', "'": "\\'", '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** A JSON value written as Python would print its repr: `'abc'`, `3`, `True`, `None`, `[1, 2]`. */
export function pythonRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'None';
  if (typeof value === 'string') {
    let text = "'";
    for (const character of value) {
      const code = character.codePointAt(0) ?? 0;
      text += escapes[character] ?? (code < 0x20 || code === 0x7f ? `\\x${code.toString(16).padStart(2, '0')}` : character);
    }
    return `${text}'`;
  }
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  if (typeof value === 'object') {
    return `{${Object.entries(value as Record<string, unknown>)
      .map(([key, item]) => `${pythonRepr(key)}: ${pythonRepr(item)}`)
      .join(', ')}}`;
  }
  return String(value);
}

/** The call a test makes, as Python source: `count_char('banana', 'a')`. */
export function callText(functionName: string, args: readonly unknown[]): string {
  return `${functionName}(${args.map(pythonRepr).join(', ')})`;
}

/** The tests a learner may run before answering (the first ones, flagged `visible`). */
export function visibleTests(task: Pick<CodeTask, 'tests'>): CodeTaskTest[] {
  return task.tests.filter((test) => test.visible === true);
}

/** The visible examples as the widget shows them. */
export function codeExamples(task: Pick<CodeTask, 'functionName' | 'tests'>): CodeExample[] {
  return visibleTests(task).map((test) => ({ input: callText(task.functionName, test.args), expected: pythonRepr(test.expected) }));
}

/** The sandbox's per-test report, in the bounded display form kept with a response. */
export function toOutcomeRecords(outcomes: readonly RawTestOutcome[]): TestOutcomeRecord[] {
  return outcomes.map((outcome) => ({
    passed: outcome.passed,
    actual: outcome.error === undefined && 'actual' in outcome ? bounded(pythonRepr(outcome.actual)) : null,
    ...(outcome.error !== undefined ? { error: bounded(outcome.error) } : {}),
  }));
}

/**
 * Each test of `tests` with the outcome at its index: input, expected and actual output.
 * Without outcomes (an unanswered item) the actual output is null, nothing passed, and the
 * error says the code never ran.
 */
export function testCases(functionName: string, tests: readonly CodeTaskTest[], outcomes: readonly TestOutcomeRecord[] | null): CodeTestCase[] {
  return tests.map((test, index) => {
    const outcome = outcomes?.[index];
    return {
      input: callText(functionName, test.args),
      expected: pythonRepr(test.expected),
      actual: outcome?.actual ?? null,
      passed: outcome?.passed ?? false,
      ...(outcome?.error !== undefined ? { error: outcome.error } : outcomes === null ? { error: 'not answered' } : {}),
      example: test.visible === true,
    };
  });
}
