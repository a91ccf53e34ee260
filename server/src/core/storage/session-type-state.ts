/**
 * The per-type state of a session (SPEC §4): what only one session type needs, stored as one
 * JSON value validated by the schema of its type instead of a column per field. A session's
 * `type` and its state's `type` are the same by construction: the type is taken from the
 * state when the session is created, and a state of another type is refused on update.
 *
 * Evolving a type's state needs no migration, but every row written earlier must still
 * parse: add fields with `.default(…)`, never rename or narrow one in place.
 */
import { z } from 'zod';
import { SessionMode, StudyPlanContent, SurveyContent, WidgetAnswer, type SessionType } from '@tutorloop/shared';
import type { AssessmentConfig } from '../assessment-session/assessment-config';
import { StorageError } from './storage-error';

/** Recall sessions (SPEC §4.1): the mode, and the point the tutor is probing. */
export const RecallSessionState = z.object({
  type: z.literal('recall'),
  mode: SessionMode,
  /** The tangent's topic while `mode` is `rabbithole`. */
  rabbitholeTopic: z.string().nullable(),
  /** Index into the checklist of the point the tutor is probing. */
  probeIndex: z.number().int().min(0),
  /** Learner turns spent on the current probe point without recalling it. */
  probeAttempts: z.number().int().min(0),
  /** The checklist holds every point of the set because none was due when the session began. */
  allPoints: z.boolean(),
});
export type RecallSessionState = z.infer<typeof RecallSessionState>;

/** Assessment sessions (SPEC §4.3): what the session was created with. */
export const AssessmentSessionState = z.object({
  type: z.literal('assessment'),
  blueprintId: z.string().min(1),
  /** Seeds item generation: the same seed and answers give the same next item, after a restart too. */
  seed: z.string().min(1),
  timeLimitSeconds: z.number().int().positive(),
});
export type AssessmentSessionState = z.infer<typeof AssessmentSessionState>;

/** A question the learning tutor asked and waits on (SPEC §4.4 question lifecycle). */
export const OpenQuestion = z.object({
  question: z.string(),
  expectedAnswer: z.string(),
  acceptedAnswers: z.array(z.string()).default([]),
  concept: z.string(),
  /** The step it was asked in. */
  step: z.number().int().min(1),
  /** Index of the plan's check question on that step, when it is one of them. */
  planQuestion: z.number().int().min(0).nullable().default(null),
  /** asked → probe (1st wrong) → hint (2nd) → explain (3rd+). */
  phase: z.enum(['asked', 'probe', 'hint', 'explain']).default('asked'),
  wrongAttempts: z.number().int().min(0).default(0),
  previousAnswers: z.array(z.string()).default([]),
  askedAtTurn: z.number().int().min(0).default(0),
});
export type OpenQuestion = z.infer<typeof OpenQuestion>;

/** One learner turn of a learning session, as the tutor's timeline and the summary see it. */
export const LearningTimelineEntry = z.object({
  turn: z.number().int().min(0),
  step: z.number().int().min(1),
  intent: z.string(),
  /** Whether the learner answered an open question right (null: no answer was judged). */
  correct: z.boolean().nullable(),
  /** The model's one-line summary: kept for the author (agent logs, summary), never sent to the learner. */
  summary: z.string(),
  /** Mean mastery over the plan's concepts after the turn. */
  meanMastery: z.number().min(0).max(1),
});
export type LearningTimelineEntry = z.infer<typeof LearningTimelineEntry>;

/**
 * Learning sessions (SPEC §4.4): the plan (copied at creation, so editing or deleting the plan
 * never breaks a running session), the current step, mastery per concept, misconceptions, the
 * open question, practice progress, counters and the turn timeline.
 */
export const LearningSessionState = z.object({
  type: z.literal('learning'),
  studyPlanId: z.string().min(1),
  plan: StudyPlanContent,
  currentStep: z.number().int().min(1).default(1),
  /** Steps reached so far (the summary's "steps covered"). */
  stepsReached: z.array(z.number().int().min(1)).default([1]),
  /** Concept → 0–1; a concept absent has no evidence yet. */
  mastery: z.record(z.string(), z.number().min(0).max(1)).default({}),
  misconceptions: z
    .array(z.object({ concept: z.string(), description: z.string(), timesSeen: z.number().int().min(1), resolved: z.boolean() }))
    .default([]),
  openQuestion: OpenQuestion.nullable().default(null),
  /** Plan check questions asked so far, as `step:index`. */
  planQuestionsAsked: z.array(z.string()).default([]),
  questionsAsked: z.number().int().min(0).default(0),
  questionsRight: z.number().int().min(0).default(0),
  /** Of `questionsRight`, those right at the first attempt (absent in sessions stored before it was counted). */
  questionsRightFirstTry: z.number().int().min(0).optional(),
  /** Questions closed by the explain phase after wrong answers (absent in sessions stored before it was counted). */
  questionsExplained: z.number().int().min(0).optional(),
  /** Practice items presented and answered on the current step. */
  practice: z.object({ step: z.number().int().min(1), presented: z.number().int().min(0), answered: z.number().int().min(0) }).nullable().default(null),
  offTopicCount: z.number().int().min(0).default(0),
  safetyFlags: z.number().int().min(0).default(0),
  /** The plan is done: `true` once completion was honoured on the final step. */
  planComplete: z.boolean().default(false),
  /** Extension turns used past the plan (advanced learners, up to 10). Null: no extension. */
  extensionTurns: z.number().int().min(0).nullable().default(null),
  timeline: z.array(LearningTimelineEntry).default([]),
});
export type LearningSessionState = z.infer<typeof LearningSessionState>;

/**
 * Thought sessions (SPEC §4.5): the topic, and the stored, model-written summary of the
 * conversation older than the sliding window — every message up to `summarizedThrough` (a
 * message `seq`) is in it — so the partner's context stays bounded however long the
 * conversation runs. The closing summary is written when the learner ends the session.
 * (SPEC §3 "thought summaries": they live here, beside the session, because only this
 * session ever reads them and they change in the same transactions as its turns.)
 */
export const ThoughtSessionState = z.object({
  type: z.literal('thought'),
  topic: z.string().nullable().default(null),
  /** The rolling summary of the messages up to `summarizedThrough`; empty before the first refresh. */
  summary: z.string().default(''),
  summarizedThrough: z.number().int().min(0).default(0),
  /** How many times the rolling summary was refreshed. */
  refreshes: z.number().int().min(0).default(0),
  /** The summary of the whole conversation, written at the end. */
  finalSummary: z.string().nullable().default(null),
});
export type ThoughtSessionState = z.infer<typeof ThoughtSessionState>;

/** One answered (or skipped: `answer` null) question of a survey session. */
export const SurveyAnswerRecord = z.object({
  questionId: z.string(),
  answer: WidgetAnswer.nullable(),
  /** The answer as text (an option, "4 of 5", the free text); null when skipped. */
  text: z.string().nullable(),
});
export type SurveyAnswerRecord = z.infer<typeof SurveyAnswerRecord>;

/**
 * Survey sessions (SPEC §4.5): the survey (copied at creation, so editing or deleting it never
 * changes a running session), the question on screen (null once the survey reached its end)
 * and the answers so far, in the order given.
 */
export const SurveySessionState = z.object({
  type: z.literal('survey'),
  surveyId: z.string().min(1),
  survey: SurveyContent,
  current: z.string().nullable(),
  answers: z.array(SurveyAnswerRecord).default([]),
});
export type SurveySessionState = z.infer<typeof SurveySessionState>;

/** Every session type's state, keyed on `type`. */
export const SessionTypeState = z.discriminatedUnion('type', [RecallSessionState, AssessmentSessionState, LearningSessionState, ThoughtSessionState, SurveySessionState]);
export type SessionTypeState = z.infer<typeof SessionTypeState>;

/** The state of one session type. */
export type SessionTypeStateOf<K extends SessionType> = Extract<SessionTypeState, { type: K }>;

// A session type added to the shared enum without a state here fails to compile.
const coversEverySessionType: Record<SessionType, true> = {
  recall: true,
  assessment: true,
  learning: true,
  thought: true,
  survey: true,
} satisfies Record<SessionTypeState['type'], true>;
void coversEverySessionType;

// The assessment state is the assessment engine's config plus its tag.
const assessmentStateIsConfig = (state: AssessmentSessionState): AssessmentConfig => state;
void assessmentStateIsConfig;

/** The state a new recall session starts with. */
export function initialRecallState(allPoints: boolean): RecallSessionState {
  return { type: 'recall', mode: 'recall', rabbitholeTopic: null, probeIndex: 0, probeAttempts: 0, allPoints };
}

/**
 * Validates a type state on its way into storage; an invalid one is a caller's bug and
 * throws `invalid_value` (the adapter's transaction then rolls back).
 */
export function parseTypeState(value: unknown): SessionTypeState {
  const parsed = SessionTypeState.safeParse(value);
  if (!parsed.success) throw new StorageError('invalid_value', `invalid session type state: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** Reads a stored type state back; a row that does not parse is damaged and throws `corrupt`. */
export function readTypeState(sessionId: string, value: unknown): SessionTypeState {
  const parsed = SessionTypeState.safeParse(value);
  if (!parsed.success) throw new StorageError('corrupt', `session ${sessionId}: stored type state does not parse: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/**
 * The state of a session known to be of type `type`. A session of another type here is a
 * routing bug (a recall room handed an assessment), so it throws.
 */
export function typeStateOf<K extends SessionType>(session: { id: string; typeState: SessionTypeState }, type: K): SessionTypeStateOf<K> {
  if (session.typeState.type !== type) {
    throw new StorageError('invalid_value', `session ${session.id} is a ${session.typeState.type} session, not ${type}`);
  }
  return session.typeState as SessionTypeStateOf<K>;
}
