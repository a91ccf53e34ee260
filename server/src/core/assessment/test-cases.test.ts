/** A code item's tests as the learner reads them (issue 25 item 2). */
import { describe, expect, it } from 'vitest';
import { callText, codeExamples, pythonRepr, testCases, toOutcomeRecords } from './test-cases';

const task = {
  functionName: 'count_char',
  tests: [
    { args: ['banana', 'a'], expected: 3, visible: true },
    { args: ["it's", "'"], expected: 1, visible: true },
    { args: ['Banana', 'b'], expected: 0 },
  ],
};

describe('pythonRepr and callText', () => {
  it('write values and calls as Python prints them', () => {
    expect([pythonRepr('héllo 🐍'), pythonRepr("it's"), pythonRepr('a\\b\n\t\u0001'), pythonRepr(3), pythonRepr(-1.5), pythonRepr(true), pythonRepr(null), pythonRepr([1, 'x', [false]]), pythonRepr({ k: 2 })]).toEqual([
      "'héllo 🐍'",
      "'it\\'s'",
      "'a\\\\b\\n\\t\\x01'",
      '3',
      '-1.5',
      'True',
      'None',
      "[1, 'x', [False]]",
      "{'k': 2}",
    ]);
    expect(callText('count_char', ['banana', 'a'])).toBe("count_char('banana', 'a')");
  });
});

describe('codeExamples', () => {
  it('lists the visible tests only, as calls and literals', () => {
    expect(codeExamples(task)).toEqual([
      { input: "count_char('banana', 'a')", expected: '3' },
      { input: "count_char('it\\'s', '\\'')", expected: '1' },
    ]);
  });
});

describe('toOutcomeRecords and testCases', () => {
  it('keep what each test returned, bounded, and show every test with its input, expected and actual output', () => {
    const records = toOutcomeRecords([{ passed: true, actual: 3 }, { passed: false, actual: 'x'.repeat(1000) }, { passed: false, error: 'ZeroDivisionError: division by zero' }]);
    expect(records[0]).toEqual({ passed: true, actual: '3' });
    expect(records[1]!.actual).toHaveLength(300);
    expect(records[1]!.actual!.endsWith('…')).toBe(true);
    expect(records[2]).toEqual({ passed: false, actual: null, error: 'ZeroDivisionError: division by zero' });
    expect(testCases(task.functionName, task.tests, records).map(({ input, expected, passed, example }) => ({ input, expected, passed, example }))).toEqual([
      { input: "count_char('banana', 'a')", expected: '3', passed: true, example: true },
      { input: "count_char('it\\'s', '\\'')", expected: '1', passed: false, example: true },
      { input: "count_char('Banana', 'b')", expected: '0', passed: false, example: false },
    ]);
  });

  it('says an unanswered item’s tests never ran', () => {
    expect(testCases(task.functionName, task.tests.slice(2), null)).toEqual([{ input: "count_char('Banana', 'b')", expected: '0', actual: null, passed: false, error: 'not answered', example: false }]);
  });
});
