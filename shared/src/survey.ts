import { z } from 'zod';
import { Limits } from './limits';
import { RatingProps, ratingScaleMax } from './widgets';

/**
 * Surveys (SPEC §4.5, §6): a survey definition as its author writes it (JSON data, validated
 * here), the REST bodies and lists, the aggregated results its owner sees, and what a
 * respondent sees of a running survey session. Questions are presented verbatim as widgets;
 * there are no correct answers anywhere in a survey.
 */

const text = (max: number) => z.string().trim().min(1, 'is empty').max(max, `is longer than ${max} characters`);

/** The value of `goTo` that ends the survey. */
export const surveyEnd = 'end';

/** A question's id: what skip rules and the CSV export name it by. */
export const SurveyQuestionId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/, 'must be 1–40 letters, digits, "-" or "_", starting with a letter or digit')
  .refine((id) => id !== surveyEnd, `"${surveyEnd}" is reserved for skip rules`);

/**
 * When a skip rule fires: the answer equals a value (an option's text, or a rating), or a
 * rating is at most / at least a value.
 */
export const SkipCondition = z.union([
  z.strictObject({ equals: z.union([z.string().min(1), z.number().int()]) }),
  z.strictObject({ atMost: z.number().int() }),
  z.strictObject({ atLeast: z.number().int() }),
]);
export type SkipCondition = z.infer<typeof SkipCondition>;

/** "If the answer to this question is X, go to question Q′ (a later one) or end." The first rule that fires wins. */
export const SkipRule = z.strictObject({
  when: SkipCondition,
  /** A later question's id, or `"end"`. */
  goTo: z.string().min(1),
});
export type SkipRule = z.infer<typeof SkipRule>;

const questionBase = {
  id: SurveyQuestionId,
  /** Shown verbatim as the widget's prompt. */
  prompt: text(500),
  /** An optional question may be skipped (the web shows a "Skip" button; over the socket, the chat message `skip`). */
  required: z.boolean().default(true),
  skip: z.array(SkipRule).max(10).default([]),
};

export const SurveyQuestion = z.discriminatedUnion('kind', [
  z.strictObject({ ...questionBase, kind: z.literal('multiple_choice'), options: z.array(text(200)).min(2, 'needs at least 2 options').max(6, 'has more than 6 options') }),
  z.strictObject({
    ...questionBase,
    kind: z.literal('rating'),
    min: z.number().int().min(0).max(ratingScaleMax - 1).default(1),
    max: z.number().int().min(1).max(ratingScaleMax).default(5),
    labels: RatingProps.shape.labels,
  }),
  z.strictObject({
    ...questionBase,
    kind: z.literal('free_text'),
    placeholder: text(200).optional(),
    maxLength: z.number().int().min(1).max(Limits.freeTextMaxLength).default(1000),
  }),
]);
export type SurveyQuestion = z.infer<typeof SurveyQuestion>;
export type SurveyQuestionKind = SurveyQuestion['kind'];

/** What makes a skip rule wrong for its question, or null. */
function skipRuleProblem(question: SurveyQuestion, rule: SkipRule): { path: string[]; message: string } | null {
  const { when } = rule;
  switch (question.kind) {
    case 'free_text':
      return { path: ['when'], message: 'free-text answers cannot drive skip rules; put the rule on a multiple-choice or rating question' };
    case 'multiple_choice':
      if (!('equals' in when) || typeof when.equals !== 'string') return { path: ['when'], message: 'a multiple-choice rule needs {"equals": "<one of the options>"}' };
      return question.options.includes(when.equals) ? null : { path: ['when', 'equals'], message: `"${when.equals.slice(0, 60)}" is not one of the options` };
    case 'rating': {
      const value = 'equals' in when ? when.equals : 'atMost' in when ? when.atMost : when.atLeast;
      if (typeof value !== 'number') return { path: ['when', 'equals'], message: 'a rating rule compares numbers' };
      return value >= question.min && value <= question.max ? null : { path: ['when'], message: `${value} is outside the scale ${question.min}–${question.max}` };
    }
    default: {
      const unreachable: never = question;
      throw new Error(`unknown question ${JSON.stringify(unreachable)}`);
    }
  }
}

/** A survey as its author writes it. */
export const SurveyContent = z
  .strictObject({
    title: text(200),
    /** Shown before the first question. */
    description: text(2000).optional(),
    questions: z.array(SurveyQuestion).min(1, 'a survey needs at least one question').max(50),
  })
  .superRefine((survey, context) => {
    const positions = new Map<string, number>();
    survey.questions.forEach((question, index) => {
      if (positions.has(question.id)) context.addIssue({ code: 'custom', path: ['questions', index, 'id'], message: `"${question.id}" is already the id of question ${positions.get(question.id)! + 1}` });
      else positions.set(question.id, index);
    });
    survey.questions.forEach((question, index) => {
      if (question.kind === 'rating') {
        if (question.max <= question.min) context.addIssue({ code: 'custom', path: ['questions', index, 'max'], message: 'must be greater than min' });
        else if (question.max - question.min > ratingScaleMax) context.addIssue({ code: 'custom', path: ['questions', index, 'max'], message: `a scale has at most ${ratingScaleMax + 1} points` });
        for (const key of Object.keys(question.labels ?? {})) {
          const value = Number(key);
          if (value < question.min || value > question.max) context.addIssue({ code: 'custom', path: ['questions', index, 'labels', key], message: `labels a value outside ${question.min}–${question.max}` });
        }
      }
      question.skip.forEach((rule, ruleIndex) => {
        const path = ['questions', index, 'skip', ruleIndex];
        const problem = skipRuleProblem(question, rule);
        if (problem) context.addIssue({ code: 'custom', path: [...path, ...problem.path], message: problem.message });
        // Forward only: a survey always ends, whatever the answers.
        if (rule.goTo !== surveyEnd) {
          const target = positions.get(rule.goTo);
          if (target === undefined) context.addIssue({ code: 'custom', path: [...path, 'goTo'], message: `no question has the id "${rule.goTo.slice(0, 40)}" (use a later question's id or "${surveyEnd}")` });
          else if (target <= index) context.addIssue({ code: 'custom', path: [...path, 'goTo'], message: `must be a later question than this one (or "${surveyEnd}")` });
        }
      });
    });
  });
export type SurveyContent = z.infer<typeof SurveyContent>;
export type SurveyContentInput = z.input<typeof SurveyContent>;

/** Body of `POST /api/surveys` and `PUT /api/surveys/{id}`. */
export const SurveyBody = z.strictObject({
  survey: SurveyContent,
  /** Readable (not writable) by every learner of the server; the results stay the owner's. */
  shared: z.boolean().default(false),
});
export type SurveyBody = z.infer<typeof SurveyBody>;

/** One row of `GET /api/surveys`. */
export const SurveySummary = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  questionCount: z.number().int(),
  shared: z.boolean(),
  /** Whether the caller wrote it (and so may edit it, delete it and read its results). */
  owned: z.boolean(),
  /** Shipped with the server. */
  builtIn: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SurveySummary = z.infer<typeof SurveySummary>;
export const SurveyList = z.object({ surveys: z.array(SurveySummary) });
export type SurveyList = z.infer<typeof SurveyList>;

/** `GET /api/surveys/{id}`. */
export const SurveyDetail = SurveySummary.extend({ survey: SurveyContent });
export type SurveyDetail = z.infer<typeof SurveyDetail>;

// ---------------------------------------------------------------------------
// Results (owner only)
// ---------------------------------------------------------------------------

const resultBase = {
  questionId: z.string(),
  prompt: z.string(),
  /** Respondents who answered it. */
  answered: z.number().int().min(0),
  /** Respondents who skipped it (an optional question). */
  skipped: z.number().int().min(0),
};

/** One question's aggregate. */
export const SurveyQuestionResult = z.discriminatedUnion('kind', [
  z.object({ ...resultBase, kind: z.literal('multiple_choice'), options: z.array(z.object({ option: z.string(), count: z.number().int().min(0) })) }),
  z.object({
    ...resultBase,
    kind: z.literal('rating'),
    min: z.number().int(),
    max: z.number().int(),
    /** Null when nobody answered. */
    mean: z.number().nullable(),
    distribution: z.array(z.object({ value: z.number().int(), count: z.number().int().min(0) })),
  }),
  z.object({ ...resultBase, kind: z.literal('free_text'), answers: z.array(z.string()) }),
]);
export type SurveyQuestionResult = z.infer<typeof SurveyQuestionResult>;

/** `GET /api/surveys/{id}/results` (`?format=csv` gives one row per respondent instead). */
export const SurveyResults = z.object({
  surveyId: z.string(),
  title: z.string(),
  /** Sessions that answered at least one question. */
  respondents: z.number().int().min(0),
  /** Sessions that reached the end of the survey. */
  completed: z.number().int().min(0),
  questions: z.array(SurveyQuestionResult),
});
export type SurveyResults = z.infer<typeof SurveyResults>;

// ---------------------------------------------------------------------------
// What a respondent sees of a survey session
// ---------------------------------------------------------------------------

/** Progress of a survey session inside `state_update` (SPEC §5): question n of N. */
export const SurveyProgress = z.object({
  surveyId: z.string(),
  /** The question on screen, 1-based, counted on the respondent's path (questions done + 1); the last one once finished. */
  question: z.number().int().min(1),
  /** Questions done plus those still ahead on the path the answers so far chose (skip rules followed). */
  totalQuestions: z.number().int().min(1),
  /** Whether the question on screen must be answered (else it may be skipped). */
  required: z.boolean(),
  answered: z.number().int().min(0),
  skipped: z.number().int().min(0),
});
export type SurveyProgress = z.infer<typeof SurveyProgress>;

/** One of the respondent's own answers, as the summary shows it. */
export const SurveyAnswerView = z.object({
  questionId: z.string(),
  prompt: z.string(),
  /** The answer as text (an option, a rating "4 of 5", the free text); null when skipped. */
  answer: z.string().nullable(),
});
export type SurveyAnswerView = z.infer<typeof SurveyAnswerView>;

/** The survey part of a session summary. */
export const SurveySessionSummary = z.object({
  surveyId: z.string(),
  title: z.string(),
  totalQuestions: z.number().int().min(1),
  answered: z.number().int().min(0),
  skipped: z.number().int().min(0),
  /** Whether the survey reached its end (by the last question or a skip rule). */
  finished: z.boolean(),
  answers: z.array(SurveyAnswerView),
});
export type SurveySessionSummary = z.infer<typeof SurveySessionSummary>;
