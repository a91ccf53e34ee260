import type { RunExamplesResponse } from '@tutorloop/shared';
import { describe, expect, it } from 'vitest';
import { formatElapsed, runSummary } from './run-examples';

const example = (passed: boolean, actual: string | null) => ({ input: "count_vowels('Orbit')", expected: '2', actual, passed, example: true });

describe('run examples wording (issue 25)', () => {
  it('shows the elapsed time to a tenth of a second, then in whole seconds', () => {
    expect([0, 420, 2349, 9990, 12_800].map(formatElapsed)).toEqual(['0.0 s', '0.4 s', '2.3 s', '10.0 s', '12 s']);
  });

  it('counts the examples that pass, and says in plain words why none ran', () => {
    const base: RunExamplesResponse = { examples: [example(true, '2'), example(false, '1')], passed: 1, total: 2, durationMs: 3 };
    expect(runSummary(base)).toBe('1 of 2 examples pass.');
    expect(runSummary({ ...base, examples: [example(true, '2')], passed: 1, total: 1 })).toBe('1 of 1 example passes.');
    const syntax = { ...base, passed: 0, examples: [example(false, null), example(false, null)], error: { kind: 'syntax' as const, message: 'SyntaxError' } };
    expect(runSummary(syntax)).toBe('Your code has a syntax error, so no example ran.');
    const raisedOnce = { ...base, error: { kind: 'runtime' as const, message: 'ZeroDivisionError' } };
    expect(runSummary(raisedOnce)).toBe('1 of 2 examples pass. Your code raised an error.');
  });
});
