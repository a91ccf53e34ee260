import type { CodeTestCase } from '@tutorloop/shared';

/** One test or example: the call, what it must return, what the code returned (or why it did not), and the verdict. */
export function TestCaseRow({ testCase, testId = 'test-case', showExampleTag = false }: { testCase: CodeTestCase; testId?: string; showExampleTag?: boolean }) {
  return (
    <li className={testCase.passed ? 'test-case passed' : 'test-case failed'} data-testid={testId} data-passed={testCase.passed}>
      <span className="test-case-mark" aria-hidden="true">
        {testCase.passed ? '✓' : '✗'}
      </span>
      <span className="visually-hidden">{testCase.passed ? 'Passed: ' : 'Failed: '}</span>
      <span className="test-case-call">
        <code className="test-case-input">{testCase.input}</code>
        {showExampleTag && testCase.example ? <span className="test-case-tag">example</span> : null}
      </span>
      <span className="test-case-values">
        <span>
          <span className="test-case-label">expected</span> <code data-testid="test-case-expected">{testCase.expected}</code>
        </span>
        <span>
          <span className="test-case-label">got</span>{' '}
          {testCase.actual !== null ? (
            <code data-testid="test-case-actual">{testCase.actual}</code>
          ) : (
            <span className="muted" data-testid="test-case-actual">
              {testCase.error ?? 'no value'}
            </span>
          )}
        </span>
      </span>
    </li>
  );
}
