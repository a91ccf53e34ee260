import { z } from 'zod';

/**
 * Assessment sessions (SPEC §4.3): what a learner may see of a blueprint, of the running
 * assessment (never a correct answer or a score before the end) and of the results.
 */

export const ItemSelection = z.enum(['fixed', 'random_from_pool', 'adaptive']);
export type ItemSelection = z.infer<typeof ItemSelection>;

/** One row of `GET /api/blueprints`: an assessment a learner can start. */
export const BlueprintSummary = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  /** Domains the assessment covers, in section order. */
  domains: z.array(z.string()),
  sections: z.array(z.object({ id: z.string(), title: z.string(), domain: z.string(), itemCount: z.number().int().min(1) })),
  totalItems: z.number().int().min(1),
  timeLimitSeconds: z.number().int().min(1),
  selection: ItemSelection,
  /** Item kinds the learner will meet. */
  itemKinds: z.array(z.enum(['multiple_choice', 'code'])),
});
export type BlueprintSummary = z.infer<typeof BlueprintSummary>;
export const BlueprintList = z.object({ blueprints: z.array(BlueprintSummary) });
export type BlueprintList = z.infer<typeof BlueprintList>;

/** Progress of a running assessment, inside `state_update` (type-specific progress, SPEC §5). */
export const AssessmentProgress = z.object({
  blueprintId: z.string(),
  /** Items answered so far. */
  answered: z.number().int().min(0),
  totalItems: z.number().int().min(1),
  /** 1-based position of the item on screen, or null between items / at the end. */
  currentPosition: z.number().int().min(1).nullable(),
  /** Title of the current section. */
  section: z.string().nullable(),
  /** When the server ends the assessment (ISO). */
  deadline: z.string(),
  /**
   * Seconds left when the server sent this state, by the server's clock: a client counts down
   * from it, so a wrong clock on the learner's machine does not shift the time shown.
   */
  remainingSeconds: z.number().min(0),
  timeLimitSeconds: z.number().int().min(1),
});
export type AssessmentProgress = z.infer<typeof AssessmentProgress>;

/** Why a code run produced no verdict on some tests (the sandbox's error kinds a learner can meet). */
export const CodeRunErrorKind = z.enum(['timeout', 'memory', 'syntax', 'runtime', 'forbidden', 'missing_function', 'internal']);
export type CodeRunErrorKind = z.infer<typeof CodeRunErrorKind>;

/**
 * One test of a code item as the learner sees it: the call written in the item's language,
 * what it must return and what the learner's code returned (`null` when the call raised or
 * never ran: then `error` says why).
 */
export const CodeTestCase = z.object({
  /** The call, e.g. `count_vowels('Orbit')`. */
  input: z.string(),
  /** The value it must return, written as a literal of the language (`2`, `'abc'`). */
  expected: z.string(),
  actual: z.string().nullable(),
  passed: z.boolean(),
  error: z.string().optional(),
  /** A visible example, shown with the item; the other tests are shown only once the assessment is over. */
  example: z.boolean(),
});
export type CodeTestCase = z.infer<typeof CodeTestCase>;

/** One answered (or unanswered) item, shown only after the assessment is over. */
export const AssessmentItemReview = z.object({
  position: z.number().int().min(1),
  section: z.string(),
  domain: z.string(),
  skillId: z.string(),
  kind: z.enum(['multiple_choice', 'code']),
  stem: z.string(),
  /** The options of a multiple-choice item. */
  options: z.array(z.string()).optional(),
  /** What the learner answered (the chosen option, or their code); null if unanswered. */
  learnerAnswer: z.string().nullable(),
  correctAnswer: z.string(),
  /** 0–1: 1 for a correct choice; the share of tests passed for code. */
  credit: z.number().min(0).max(1),
  /** Seconds from presentation to answer; null if unanswered. */
  timeSeconds: z.number().min(0).nullable(),
  difficulty: z.number(),
  /**
   * For code items: tests passed of tests run, a short note when the run failed, and each test
   * with its input, expected and actual output (`cases`; absent for answers scored before
   * outcomes were kept, and for unanswered items the actual outputs are null).
   */
  tests: z
    .object({
      passed: z.number().int().min(0),
      total: z.number().int().min(0),
      note: z.string().optional(),
      cases: z.array(CodeTestCase).optional(),
    })
    .optional(),
});
export type AssessmentItemReview = z.infer<typeof AssessmentItemReview>;

/** Ability estimate on the IRT-lite logit scale (0 = an item of average difficulty is a coin flip). */
export const AbilityEstimate = z.object({
  ability: z.number(),
  /** Standard error of the estimate; shrinks as responses come in. */
  standardError: z.number().min(0),
  responses: z.number().int().min(0),
});
export type AbilityEstimate = z.infer<typeof AbilityEstimate>;

/** Results of an assessment, inside the session summary once it is over. */
export const AssessmentResults = z.object({
  blueprintId: z.string(),
  title: z.string(),
  /** Points earned (sum of credit) and the maximum (items in the blueprint). */
  score: z.number().min(0),
  maxScore: z.number().min(0),
  /** score / maxScore, 0–1. */
  percent: z.number().min(0).max(1),
  answered: z.number().int().min(0),
  overall: AbilityEstimate,
  domains: z.array(
    AbilityEstimate.extend({
      domain: z.string(),
      score: z.number().min(0),
      maxScore: z.number().min(0),
    }),
  ),
  items: z.array(AssessmentItemReview),
});
export type AssessmentResults = z.infer<typeof AssessmentResults>;
