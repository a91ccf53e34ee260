import { describe, expect, it } from 'vitest';
import { buildRunResult } from './run-result';
import type { CodeTest } from './types';

const tests: CodeTest[] = [
  { args: ['héllo'], expected: 5 },
  { args: ['🙂'], expected: 1 },
  { args: [''], expected: 0 },
];

describe('buildRunResult', () => {
  it('scores each report against expected on the host: partial credit is passed/total', () => {
    const result = buildRunResult({
      tests,
      loaded: true,
      reports: [
        { ok: true, actualJson: '5' },
        { ok: true, actualJson: '2' },
        { ok: true, actualJson: '0.0' },
      ],
      durationMs: 12.4,
    });
    expect(result).toEqual({
      passed: 2,
      total: 3,
      outcomes: [
        { passed: true, actual: 5 },
        { passed: false, actual: 2 },
        { passed: true, actual: 0 },
      ],
      durationMs: 12,
    });
  });

  it('reports the most serious test failure as the run error, each test keeping its own message', () => {
    const result = buildRunResult({
      tests,
      loaded: true,
      reports: [
        { ok: false, kind: 'runtime', message: 'ZeroDivisionError: division by zero (line 2)' },
        { ok: false, kind: 'memory', message: 'MemoryError: memory limit exceeded' },
        { ok: true, actualJson: '0' },
      ],
      durationMs: 5,
      output: 'debug\n',
    });
    expect(result).toEqual({
      passed: 1,
      total: 3,
      outcomes: [
        { passed: false, error: 'ZeroDivisionError: division by zero (line 2)' },
        { passed: false, error: 'MemoryError: memory limit exceeded' },
        { passed: true, actual: 0 },
      ],
      error: { kind: 'memory', message: 'test 2: MemoryError: memory limit exceeded' },
      durationMs: 5,
      output: 'debug\n',
    });
  });

  it('marks every test as not run when the code did not load', () => {
    const failure = { kind: 'syntax', message: "SyntaxError: expected ':' (line 1)" } as const;
    expect(buildRunResult({ tests, loadFailure: failure, reports: [], durationMs: 3 })).toEqual({
      passed: 0,
      total: 3,
      outcomes: tests.map(() => ({ passed: false, error: `not run: ${failure.message}` })),
      error: failure,
      durationMs: 3,
    });
  });

  it('blames the running test when the host stopped the run, and keeps earlier results', () => {
    const result = buildRunResult({
      tests,
      loaded: true,
      reports: [{ ok: true, actualJson: '5' }],
      stopped: { kind: 'timeout', message: 'time limit exceeded' },
      durationMs: 3500,
    });
    expect(result).toEqual({
      passed: 1,
      total: 3,
      outcomes: [
        { passed: true, actual: 5 },
        { passed: false, error: 'time limit exceeded' },
        { passed: false, error: 'not run: time limit exceeded' },
      ],
      error: { kind: 'timeout', message: 'time limit exceeded' },
      durationMs: 3500,
    });
  });

  it('fails a test whose reported return value is not JSON, without throwing on the main thread', () => {
    const result = buildRunResult({ tests, loaded: true, reports: [{ ok: true, actualJson: '{' }, { ok: true, actualJson: '1' }, { ok: true, actualJson: '0' }], durationMs: 4 });
    expect(result.outcomes).toEqual([
      { passed: false, error: 'the sandbox reported a return value that is not JSON' },
      { passed: true, actual: 1 },
      { passed: true, actual: 0 },
    ]);
  });

  it('stops at a test the worker reported as timed out', () => {
    const result = buildRunResult({
      tests,
      loaded: true,
      reports: [{ ok: false, kind: 'timeout', message: 'time limit exceeded' }],
      durationMs: 3000,
    });
    expect(result.outcomes).toEqual([
      { passed: false, error: 'time limit exceeded' },
      { passed: false, error: 'not run: time limit exceeded' },
      { passed: false, error: 'not run: time limit exceeded' },
    ]);
    expect(result.error).toEqual({ kind: 'timeout', message: 'test 1: time limit exceeded' });
  });
});
