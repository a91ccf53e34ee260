/**
 * The JSON result of a run (`result.json`), typed with zod so that `compare` can read any
 * result file back and refuse one that is not. `schemaVersion` changes when the shape does.
 */
import { z } from 'zod';
import { WidgetKindName } from '../suites/suite-schema';

/** One expectation as checked: what was expected, what was seen, and whether they agree. */
export const Check = z.object({
  expectation: z.string(),
  expected: z.string(),
  seen: z.string(),
  passed: z.boolean(),
});
export type Check = z.infer<typeof Check>;

export const LeakRecord = z.object({
  /** `expected_answer`: a learning session's check answer before the learner earned it. */
  kind: z.enum(['internal_language', 'unrecalled_content', 'expected_answer']),
  detail: z.string(),
  excerpt: z.string(),
});
export type LeakRecord = z.infer<typeof LeakRecord>;

export const LearnerAction = z.discriminatedUnion('type', [
  /** Turn 0: the tutor's opening reply after connecting. */
  z.object({ type: z.literal('opening') }),
  z.object({
    type: z.literal('chat'),
    message: z.string(),
    /** What a plan-following learner meant by it (`answer`, `wrong_answer`, `off_topic`, `unsafe`, …). */
    purpose: z.string().optional(),
  }),
  z.object({ type: z.literal('widget_answer'), widgetKind: WidgetKindName, answer: z.string() }),
  /** The learner could not play the turn (nothing was sent). */
  z.object({ type: z.literal('stuck') }),
]);
export type LearnerAction = z.infer<typeof LearnerAction>;

/** A learning session's progress after a turn (`state.learning`), and every step its frames showed. */
export const LearningTurn = z.object({
  step: z.number().int(),
  totalSteps: z.number().int(),
  stepType: z.string(),
  questionOpen: z.boolean(),
  /** `state.learning.step` of each `state_update` of the turn, in order. */
  stepsSeen: z.array(z.number().int()),
});
export type LearningTurn = z.infer<typeof LearningTurn>;

/** The session's agent logs for a turn (`GET /api/sessions/{id}/agent-logs`), for the author. */
export const TurnAgents = z.object({
  /** `agent:outcome` of each call logged for the turn, in order (`safety:ok`, `master_tutor:ok`). */
  calls: z.array(z.string()),
  /** From the master tutor's last usable output of the turn. */
  intent: z.string().nullable(),
  answerCorrect: z.boolean().nullable(),
  turnSummary: z.string().nullable(),
  /** The input summary of that call (the engine's view: step, open question and its phase). */
  inputSummary: z.string().nullable(),
});
export type TurnAgents = z.infer<typeof TurnAgents>;

export const TurnRecord = z.object({
  /** 0 = the opening reply; then learner turns from 1. */
  turn: z.number().int().min(0),
  action: LearnerAction,
  tutorMessage: z.string(),
  /** Time to the first `assistant_delta` after sending, ms. */
  ttftMs: z.number().nullable(),
  /** Time to the `assistant` event after sending, ms. */
  totalMs: z.number().nullable(),
  /** Session status after the turn. */
  status: z.string().nullable(),
  recalledCount: z.number().int().nullable(),
  totalPoints: z.number().int().nullable(),
  /** Contents of the points recalled in this turn (recall sessions). */
  newlyRecalled: z.array(z.string()),
  /** A widget the tutor presented in this reply. */
  widgetPresented: WidgetKindName.nullable(),
  /** That widget as the learner saw it: prompt, and options for multiple choice. */
  widgetDescription: z.string().nullable(),
  /** The widget the learner faces after the turn. */
  pendingWidget: WidgetKindName.nullable(),
  /** `session_complete` arrived in this turn. */
  completed: z.boolean(),
  leaks: z.array(LeakRecord),
  /** Why the turn did not produce a reply (an `error` event, a timeout, a stuck learner). */
  error: z.string().nullable(),
  /** Learning sessions: progress after the turn. */
  learning: LearningTurn.nullable().optional(),
  /** Learning sessions: the model calls of the turn. */
  agents: TurnAgents.nullable().optional(),
  checks: z.array(Check),
});
export type TurnRecord = z.infer<typeof TurnRecord>;

export const Failure = z.object({
  /** The turn, or null for a session-level expectation or a setup failure. */
  turn: z.number().int().nullable(),
  expectation: z.string(),
  expected: z.string(),
  seen: z.string(),
  /** One line naming suite, case and turn. */
  message: z.string(),
});
export type Failure = z.infer<typeof Failure>;

export const CaseOutcome = z.object({
  learnerTurns: z.number().int().min(0),
  completed: z.boolean(),
  /** The learner turn in which `session_complete` arrived; null if the learner ended it. */
  completedAtTurn: z.number().int().nullable(),
  /** The summary's reason (`all_recalled`, `ended_by_learner`, …), if the session ended. */
  endReason: z.string().nullable(),
  recalledCount: z.number().int().nullable(),
  totalPoints: z.number().int().nullable(),
  /** Learning sessions: the summary's learning part (`session_complete`), when the session ended. */
  learning: z
    .object({
      planTitle: z.string(),
      stepsCovered: z.number().int(),
      totalSteps: z.number().int(),
      stepsNotCovered: z.array(z.number().int()),
      concepts: z.array(z.object({ concept: z.string(), level: z.string() })),
      questions: z.object({ asked: z.number().int(), answeredRight: z.number().int() }),
      trend: z.string(),
    })
    .nullable()
    .optional(),
});
export type CaseOutcome = z.infer<typeof CaseOutcome>;

export const CaseStatus = z.enum(['passed', 'failed', 'not_run']);
export type CaseStatus = z.infer<typeof CaseStatus>;

export const CaseResult = z.object({
  suite: z.string(),
  suiteFile: z.string(),
  case: z.string(),
  description: z.string().optional(),
  sessionType: z.enum(['recall', 'assessment', 'learning']),
  learner: z.string(),
  status: CaseStatus,
  /** Why the case was not run, or why it failed before its expectations could be checked. */
  reason: z.string().nullable(),
  sessionId: z.string().nullable(),
  turns: z.array(TurnRecord),
  sessionChecks: z.array(Check),
  failures: z.array(Failure),
  outcome: CaseOutcome,
  metrics: z.object({
    meanTtftMs: z.number().nullable(),
    meanTotalMs: z.number().nullable(),
    leaks: z.number().int().min(0),
    /** Mean words of the tutor's replies to learner turns (the opening and post-completion replies excluded). */
    meanReplyWords: z.number().nullable().optional(),
  }),
  durationMs: z.number().min(0),
});
export type CaseResult = z.infer<typeof CaseResult>;

export const RunMetadata = z.object({
  /** Free text given with `--label` (e.g. "prompt v2"). */
  label: z.string().nullable(),
  serverUrl: z.string(),
  /** `started`: eval started the server on a temporary database; `external`: `--url`. */
  server: z.enum(['started', 'external']),
  /** From `GET /api/health`. */
  tutor: z.string(),
  serverVersion: z.string(),
  startedAt: z.string(),
  endedAt: z.string(),
  durationMs: z.number().min(0),
  concurrency: z.number().int().min(1),
  suites: z.array(z.object({ name: z.string(), file: z.string(), cases: z.number().int() })),
  node: z.string(),
});
export type RunMetadata = z.infer<typeof RunMetadata>;

export const RunSummary = z.object({
  cases: z.number().int(),
  passed: z.number().int(),
  failed: z.number().int(),
  notRun: z.number().int(),
});
export type RunSummary = z.infer<typeof RunSummary>;

export const RunResult = z.object({
  schemaVersion: z.literal(1),
  metadata: RunMetadata,
  summary: RunSummary,
  cases: z.array(CaseResult),
});
export type RunResult = z.infer<typeof RunResult>;

export function summarize(cases: readonly CaseResult[]): RunSummary {
  return {
    cases: cases.length,
    passed: cases.filter((result) => result.status === 'passed').length,
    failed: cases.filter((result) => result.status === 'failed').length,
    notRun: cases.filter((result) => result.status === 'not_run').length,
  };
}
