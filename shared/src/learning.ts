import { z } from 'zod';

/**
 * Learning sessions (SPEC §4.4): study plans as an author writes them, and what a learner may
 * see of a running learning session and of its summary. Expected answers live only in the
 * plan (the author's view); nothing here that reaches a learner's frames carries one.
 */

const text = (max: number) => z.string().trim().min(1, 'is empty').max(max, `is longer than ${max} characters`);

/** A question of a `check` step, with the answer the tutor waits for. */
export const StudyPlanQuestion = z.strictObject({
  question: text(2000),
  expectedAnswer: text(500),
  /** Other wordings that count as right (e.g. "0.5" for "1/2"). */
  acceptedAnswers: z.array(text(500)).max(20).default([]),
});
export type StudyPlanQuestion = z.infer<typeof StudyPlanQuestion>;

export const StudyPlanStepType = z.enum(['explain', 'check', 'practice']);
export type StudyPlanStepType = z.infer<typeof StudyPlanStepType>;

const stepBase = {
  /** 1-based position; steps are numbered 1..N in order. */
  number: z.number().int().min(1),
  /** The concept this step serves (mastery is tracked per concept). */
  concept: text(120),
  /**
   * What to teach or stress here. On an explain step it is the explanation itself, written for
   * the learner (the offline tutor reads it out); on check and practice steps it is guidance
   * for the tutor (what to look for), never shown to the learner as is.
   */
  contentHint: text(4000),
};

export const StudyPlanStep = z.discriminatedUnion('type', [
  z.strictObject({ ...stepBase, type: z.literal('explain') }),
  z.strictObject({ ...stepBase, type: z.literal('check'), questions: z.array(StudyPlanQuestion).min(1, 'a check step needs at least one question').max(10) }),
  z.strictObject({
    ...stepBase,
    type: z.literal('practice'),
    /** A skill blueprint of §4.3 (`GET /api/blueprints` lists the assessments built from them). */
    skillBlueprintId: text(120),
    /** How many generated items the step presents. */
    items: z.number().int().min(1).max(5).default(1),
  }),
]);
export type StudyPlanStep = z.infer<typeof StudyPlanStep>;

export const StudyPlanMisconception = z.strictObject({
  /** The concept it belongs to, when it belongs to one. */
  concept: text(120).optional(),
  description: text(500),
});
export type StudyPlanMisconception = z.infer<typeof StudyPlanMisconception>;

/** A study plan as its author writes it (JSON, or Markdown with front matter). */
export const StudyPlanContent = z
  .strictObject({
    title: text(200),
    topic: text(200),
    /** Grade or level, e.g. "Grade 5" or "first-year networking students". */
    audience: text(200),
    objectives: z.array(text(500)).min(1, 'a plan needs at least one learning objective').max(30),
    prerequisites: z.array(text(500)).max(30).default([]),
    misconceptions: z.array(StudyPlanMisconception).max(50).default([]),
    teachingApproach: text(4000),
    /** Advanced learners may continue past the plan (up to 10 turns). */
    allowExtension: z.boolean().default(false),
    /** Whether the tutor may go back to an earlier step. */
    allowBacktrack: z.boolean().default(false),
    steps: z.array(StudyPlanStep).min(1, 'a plan needs at least one step').max(60),
  })
  .superRefine((plan, ctx) => {
    plan.steps.forEach((step, index) => {
      if (step.number !== index + 1) {
        ctx.addIssue({ code: 'custom', path: ['steps', index, 'number'], message: `must be ${index + 1}: steps are numbered 1..N in order` });
      }
    });
  });
export type StudyPlanContent = z.infer<typeof StudyPlanContent>;
export type StudyPlanContentInput = z.input<typeof StudyPlanContent>;

/** Body of `POST /api/study-plans` and `PUT /api/study-plans/{id}`. */
export const StudyPlanBody = z.strictObject({
  plan: StudyPlanContent,
  /** Readable (not writable) by every learner of the server. */
  shared: z.boolean().default(false),
});
export type StudyPlanBody = z.infer<typeof StudyPlanBody>;

/** Body of `POST /api/study-plans/import`: a plan as JSON text or Markdown with front matter. */
export const StudyPlanImportBody = z.strictObject({
  format: z.enum(['json', 'markdown']),
  text: z.string().min(1, 'is empty').max(200_000),
  shared: z.boolean().default(false),
});
export type StudyPlanImportBody = z.infer<typeof StudyPlanImportBody>;

/** One row of `GET /api/study-plans`. */
export const StudyPlanSummary = z.object({
  id: z.string(),
  title: z.string(),
  topic: z.string(),
  audience: z.string(),
  stepCount: z.number().int(),
  concepts: z.array(z.string()),
  shared: z.boolean(),
  /** Whether the caller wrote it (and so may edit or delete it). */
  owned: z.boolean(),
  /** Shipped with the server. */
  builtIn: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type StudyPlanSummary = z.infer<typeof StudyPlanSummary>;
export const StudyPlanList = z.object({ studyPlans: z.array(StudyPlanSummary) });
export type StudyPlanList = z.infer<typeof StudyPlanList>;

/** `GET /api/study-plans/{id}`: the whole plan (its author's content, expected answers included). */
export const StudyPlanDetail = StudyPlanSummary.extend({ plan: StudyPlanContent });
export type StudyPlanDetail = z.infer<typeof StudyPlanDetail>;

// ---------------------------------------------------------------------------
// What a learner sees of a learning session
// ---------------------------------------------------------------------------

/** Coarse mastery of a concept: the only form mastery takes in a learner's frames. */
export const MasteryLevel = z.enum(['not_started', 'learning', 'developing', 'mastered']);
export type MasteryLevel = z.infer<typeof MasteryLevel>;

/** Progress of a learning session inside `state_update` (SPEC §4.4, §5). */
export const LearningProgress = z.object({
  studyPlanId: z.string(),
  /** The current step, 1-based (n of N). */
  step: z.number().int().min(1),
  totalSteps: z.number().int().min(1),
  stepType: StudyPlanStepType,
  concept: z.string(),
  steps: z.array(z.object({ number: z.number().int().min(1), type: StudyPlanStepType, concept: z.string(), status: z.enum(['done', 'current', 'upcoming']) })),
  concepts: z.array(z.object({ concept: z.string(), level: MasteryLevel })),
  /** Whether the tutor is waiting for the answer to a question. */
  questionOpen: z.boolean(),
  /** The plan is done and the learner is in the extension (up to 10 more turns). */
  extension: z.boolean(),
});
export type LearningProgress = z.infer<typeof LearningProgress>;

/** The learning part of a session summary. */
export const LearningSummary = z.object({
  studyPlanId: z.string(),
  planTitle: z.string(),
  stepsCovered: z.number().int().min(0),
  totalSteps: z.number().int().min(1),
  steps: z.array(z.object({ number: z.number().int().min(1), type: StudyPlanStepType, concept: z.string(), covered: z.boolean() })),
  concepts: z.array(z.object({ concept: z.string(), level: MasteryLevel })),
  misconceptions: z.object({ met: z.number().int().min(0), resolved: z.number().int().min(0), concepts: z.array(z.string()) }),
  /** Questions asked and how many were answered right. */
  /**
   * Questions asked and how they ended: `answeredRight` counts every right answer; of those,
   * `rightFirstTry` came at the first attempt and `rightAfterHelp` after a probe or a hint;
   * `explained` were given away at the explain phase after wrong answers.
   */
  questions: z.object({
    asked: z.number().int().min(0),
    answeredRight: z.number().int().min(0),
    rightFirstTry: z.number().int().min(0).optional(),
    rightAfterHelp: z.number().int().min(0).optional(),
    explained: z.number().int().min(0).optional(),
  }),
  /** How mean mastery moved over the session's turns. */
  trend: z.enum(['improving', 'steady', 'declining']),
});
export type LearningSummary = z.infer<typeof LearningSummary>;
