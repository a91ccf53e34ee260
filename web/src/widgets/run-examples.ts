import type { CodeRunErrorKind, RunExamplesBody, RunExamplesResponse } from '@tutorloop/shared';
import { createContext } from 'react';
import type { ApiResult } from '../api/http-client';

/**
 * "Run examples" on a code item (issue 25): how the code editor reaches the server. The session
 * page provides it (it knows the session); without it — a widget shown outside a session, or a
 * tutor's code editor, which has no examples — the editor offers Submit only.
 */
export type RunExamples = (widgetId: string, body: RunExamplesBody) => Promise<ApiResult<RunExamplesResponse>>;

export const RunExamplesContext = createContext<RunExamples | null>(null);

/** Elapsed time while code runs: `0.4 s`, `2.3 s`, then whole seconds from 10 s. */
export function formatElapsed(ms: number): string {
  const seconds = Math.max(0, ms) / 1000;
  return seconds < 10 ? `${seconds.toFixed(1)} s` : `${Math.floor(seconds)} s`;
}

const errorWords: Record<CodeRunErrorKind, string> = {
  syntax: 'Your code has a syntax error, so no example ran.',
  missing_function: 'Your code does not define the function the task asks for.',
  timeout: 'Your code ran out of time (an endless loop?).',
  memory: 'Your code used too much memory.',
  runtime: 'Your code raised an error.',
  forbidden: 'Your code tried something the sandbox does not allow (a file, a process, the network).',
  internal: 'The examples could not run. Try again.',
};

/** One line above the examples' results: how many pass, or why they could not run. */
export function runSummary(response: RunExamplesResponse): string {
  if (response.error && response.passed === 0 && response.examples.every((example) => example.actual === null)) return errorWords[response.error.kind];
  const count = `${response.passed} of ${response.total} ${response.total === 1 ? 'example passes' : 'examples pass'}`;
  return response.error ? `${count}. ${errorWords[response.error.kind]}` : `${count}.`;
}
