/**
 * What a learning session keeps of its own (SPEC §4.4), stored as its type state (the
 * registry, core/session-type-states.ts, composes every type's schema for storage).
 */
import { z } from 'zod';
import type { SnapshotNeeds } from '../storage/session-snapshot';
import { StudyPlanContent } from '@tutorloop/shared';

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

/** What a learning session's snapshot loads beyond what every session has: its practice items and responses (kept as assessment items). */
export const learningSnapshotNeeds: SnapshotNeeds = { assessment: true };
