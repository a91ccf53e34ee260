/**
 * "Run examples" (issue 25 item 2): the learner runs their code on a pending code item's
 * visible examples before answering, as in an IDE. Not an answer: nothing is stored or scored,
 * and only the examples shown with the item run, so no hidden test can be probed. It goes over
 * REST (`POST /api/sessions/{id}/items/{widgetId}/run-examples`), so the WebSocket protocol
 * (SPEC §5) is unchanged. Pure: the service reads the session and runs the sandbox.
 */
import type { CodeLanguage, CodeRunErrorKind, RunExamplesResponse } from '@tutorloop/shared';
import { CodeRunErrorKind as CodeRunErrorKinds } from '@tutorloop/shared';
import { testCases, toOutcomeRecords, visibleTests, type CodeTaskTest, type RawTestOutcome } from '../assessment';
import { isEnded } from '../session/session-view';
import type { StoredItem } from '../storage/assessments';
import type { PendingActionRecord } from '../storage/pending-actions';
import type { StoredSession } from '../storage/sessions';
import { deadlineOf } from './assessment-config';

/** Why examples cannot run; the code is the API error code the edge answers with. */
export interface ExamplesRefusal {
  code: 'not_found' | 'session_ended' | 'widget_not_pending' | 'invalid_payload' | 'conflict';
  message: string;
}

/** What to run: the item's function and its visible examples. */
export interface ExamplesRun {
  language: CodeLanguage;
  functionName: string;
  tests: CodeTaskTest[];
}

export type ExamplesDecision = { ok: true; value: ExamplesRun } | { ok: false; error: ExamplesRefusal };

/** What the session holds that decides whether examples may run. */
export interface ExamplesContext {
  /** The session, or null when no session has that id. */
  session: StoredSession | null;
  learnerId: string;
  /** The session's generated items (assessment items, or a learning session's practice items). */
  items: readonly StoredItem[];
  pending: PendingActionRecord | null;
  widgetId: string;
  language: CodeLanguage;
  now: Date;
}

/**
 * Decides whether the examples of item `widgetId` may run: the learner's own session (another
 * learner's is "not found", so its existence is not revealed), still running, the item a code
 * item waiting for its answer, within an assessment's time, in the item's language.
 */
export function examplesToRun(context: ExamplesContext): ExamplesDecision {
  const refuse = (code: ExamplesRefusal['code'], message: string): ExamplesDecision => ({ ok: false, error: { code, message } });
  const { session } = context;
  if (!session || session.learnerId !== context.learnerId) return refuse('not_found', 'No session with that id.');
  const stored = context.items.find((item) => item.widgetId === context.widgetId);
  const code = stored?.item.kind === 'code' ? stored.item.code : undefined;
  if (!stored || !code) return refuse('not_found', 'No code item with that id in this session.');
  if (isEnded(session.status)) return refuse('session_ended', 'This session has ended; its items take no more runs.');
  if (context.pending?.id !== context.widgetId) return refuse('widget_not_pending', 'That item was already answered: examples run only while it waits for an answer.');
  if (session.type === 'assessment') {
    const deadline = deadlineOf(session.typeState, context.items);
    if (deadline && context.now.getTime() >= deadline.getTime()) return refuse('session_ended', 'Time is up: the assessment takes no more runs or answers.');
  }
  if (context.language !== code.language) return refuse('invalid_payload', `language: this item is answered in ${code.language === 'python' ? 'Python' : code.language}.`);
  const tests = visibleTests(code);
  if (tests.length === 0) return refuse('conflict', 'This item has no examples to run.');
  return { ok: true, value: { language: code.language, functionName: code.functionName, tests } };
}

/** What the sandbox reports of a run (a subset of its `RunResult`). */
export interface ExamplesRunResult {
  passed: number;
  total: number;
  outcomes: RawTestOutcome[];
  error?: { kind: string; message: string };
  output?: string;
  durationMs: number;
}

const errorKinds: ReadonlySet<string> = new Set(CodeRunErrorKinds.options);

/** The response: each example with its input, expected and actual output, and what stopped the run if anything did. */
export function examplesResponse(run: ExamplesRun, result: ExamplesRunResult): RunExamplesResponse {
  const outcomes = result.outcomes.length === run.tests.length ? toOutcomeRecords(result.outcomes) : null;
  const kind = result.error && errorKinds.has(result.error.kind) ? (result.error.kind as CodeRunErrorKind) : result.error ? 'internal' : null;
  return {
    examples: testCases(run.functionName, run.tests, outcomes),
    passed: result.passed,
    total: run.tests.length,
    ...(result.error && kind ? { error: { kind, message: result.error.message.slice(0, 500) } } : {}),
    ...(result.output ? { output: result.output } : {}),
    durationMs: Math.max(0, Math.round(result.durationMs)),
  };
}
