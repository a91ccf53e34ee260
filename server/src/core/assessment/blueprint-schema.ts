/**
 * The shape of the blueprint files (server/blueprints/skills/*.json and
 * server/blueprints/assessments/*.json). Objects are strict so that a misspelt key is an
 * error at load rather than a silently ignored setting. Checks that need more than one file
 * or the generator registry (known names, placeholders, skill references) live in catalog.ts.
 */
import { z } from 'zod';
import { ItemSelection } from '@tutorloop/shared';

export const DifficultyLevel = z.enum(['easy', 'medium', 'hard']);
export type DifficultyLevel = z.infer<typeof DifficultyLevel>;
export const difficultyLevels = DifficultyLevel.options;

/** Bloom's taxonomy, revised. */
export const CognitiveLevel = z.enum(['remember', 'understand', 'apply', 'analyze', 'evaluate', 'create']);

const nonEmpty = z.string().trim().min(1);

export const DifficultyFactors = z.strictObject({
  /** Logit difficulty of the skill's easiest form. */
  base: z.number(),
  /** One entry per generator case the skill uses: its added weight and its difficulty level. */
  cases: z
    .record(z.string(), z.strictObject({ level: DifficultyLevel, weight: z.number() }))
    .refine((cases) => Object.keys(cases).length > 0, { message: 'at least one case is required' }),
  /** Weight per generator feature (feature values lie in [0, 1]). */
  features: z.record(z.string(), z.number()).default({}),
});
export type DifficultyFactors = z.infer<typeof DifficultyFactors>;

const stemTemplates = z.array(nonEmpty).min(1);

export const Presentation = z.discriminatedUnion('itemType', [
  z.strictObject({
    itemType: z.literal('multiple_choice'),
    /** Options shown, the answer included (2–6, as `present_choices` allows). */
    optionCount: z.number().int().min(2).max(6),
    /** Strategy names, in order of preference. Every distractor comes from one of them (no filler values). */
    distractorStrategies: z.array(nonEmpty).min(1),
    /**
     * The misconception behind each strategy, in plain words, keyed by strategy name: one for
     * every strategy listed, so every wrong option shown stands for a named mistake.
     */
    misconceptions: z.record(z.string(), nonEmpty),
    stemTemplates,
  }),
  z.strictObject({ itemType: z.literal('code'), language: z.literal('python'), stemTemplates }),
]);
export type Presentation = z.infer<typeof Presentation>;

/**
 * A plausible wrong solution of a code task (a mutant): wrong case handling, an off-by-one, a
 * wrong boundary, an argument ignored, a constant returned… Every generated item's tests must
 * make each mutant of its case fail at least one test while the reference passes them all; the
 * generator builds discriminating inputs for that, and a property test runs the mutants in the
 * sandbox over hundreds of seeds (server/test/assessment-mutants.test.ts). Never run by the server.
 */
export const Mutant = z.strictObject({
  /** Unique within its case, lower-case words joined by underscores. */
  name: z.string().regex(/^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/, 'use lower-case words joined by underscores, e.g. lowercase_only'),
  /** The generator case (task) whose function it implements. */
  case: nonEmpty,
  /** The mistake it stands for, in plain words. */
  misconception: nonEmpty,
  /** The wrong solution, as a learner would write it: it must define the case's function. */
  code: nonEmpty,
});
export type Mutant = z.infer<typeof Mutant>;

export const Evaluation = z.discriminatedUnion('method', [
  z.strictObject({ method: z.literal('exact_match') }),
  z.strictObject({
    method: z.literal('test_execution'),
    /** Credit = share of tests passed when true; all-or-nothing otherwise. */
    partialCredit: z.boolean(),
    timeoutSeconds: z.number().positive().max(60),
    /** Wrong solutions the tests must reject: at least one for every case the skill uses (checked at load). */
    mutants: z.array(Mutant).min(1),
  }),
]);
export type Evaluation = z.infer<typeof Evaluation>;

export const SkillBlueprint = z.strictObject({
  id: z.string().regex(/^[A-Z0-9]+(?:[._-][A-Z0-9]+)*$/, 'use upper-case words joined by dots, e.g. MATH.ARITH.ADD.2DIGIT'),
  domain: nonEmpty,
  skillStatement: nonEmpty,
  cognitiveLevel: CognitiveLevel,
  generator: z.strictObject({ name: nonEmpty, constraints: z.record(z.string(), z.unknown()).default({}) }),
  difficultyFactors: DifficultyFactors,
  presentation: Presentation,
  evaluation: Evaluation,
  benchmarks: z.strictObject({
    /** Seconds a competent learner takes; responses faster than this count as slightly stronger evidence. */
    expectedSeconds: z.number().positive(),
    /** Share of items a competent learner answers correctly. */
    targetAccuracy: z.number().min(0).max(1),
  }),
});
export type SkillBlueprint = z.infer<typeof SkillBlueprint>;

const DifficultyDistribution = z.strictObject({
  easy: z.number().int().min(0).optional(),
  medium: z.number().int().min(0).optional(),
  hard: z.number().int().min(0).optional(),
});
export type DifficultyDistribution = z.infer<typeof DifficultyDistribution>;

export const AssessmentSection = z.strictObject({
  id: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'use lower-case kebab-case'),
  title: nonEmpty,
  /** Every skill of the section must belong to this domain. */
  domain: nonEmpty,
  skills: z.array(nonEmpty).min(1),
  itemCount: z.number().int().min(1),
  /** Items per difficulty level (fixed and random_from_pool); adaptive selection targets ability instead. */
  difficultyDistribution: DifficultyDistribution.optional(),
});
export type AssessmentSection = z.infer<typeof AssessmentSection>;

export const AssessmentBlueprint = z
  .strictObject({
    id: z.string().regex(/^[A-Z0-9]+(?:-[A-Z0-9]+)*$/, 'use upper-case words joined by hyphens, e.g. MATH-FUNDAMENTALS-L1'),
    title: nonEmpty,
    description: nonEmpty,
    timeLimitMinutes: z.number().int().min(1).max(600),
    selection: ItemSelection,
    /** The form's seed (required for `fixed`): change it to publish a new parallel form. */
    seed: nonEmpty.optional(),
    totalItems: z.number().int().min(1),
    sections: z.array(AssessmentSection).min(1),
  })
  .superRefine((blueprint, context) => {
    const sum = blueprint.sections.reduce((total, section) => total + section.itemCount, 0);
    if (sum !== blueprint.totalItems) {
      context.addIssue({ code: 'custom', path: ['totalItems'], message: `is ${blueprint.totalItems} but the sections hold ${sum} items` });
    }
    if (blueprint.selection === 'fixed' && blueprint.seed === undefined) {
      context.addIssue({ code: 'custom', path: ['seed'], message: 'a fixed form needs a seed' });
    }
    const seen = new Set<string>();
    blueprint.sections.forEach((section, index) => {
      if (seen.has(section.id)) context.addIssue({ code: 'custom', path: ['sections', index, 'id'], message: `duplicate section id "${section.id}"` });
      seen.add(section.id);
      const distribution = section.difficultyDistribution;
      if (distribution === undefined) return;
      const path = ['sections', index, 'difficultyDistribution'];
      if (blueprint.selection === 'adaptive') {
        context.addIssue({ code: 'custom', path, message: 'adaptive selection targets ability; remove the distribution' });
        return;
      }
      const planned = (distribution.easy ?? 0) + (distribution.medium ?? 0) + (distribution.hard ?? 0);
      if (planned !== section.itemCount) {
        context.addIssue({ code: 'custom', path, message: `plans ${planned} items but itemCount is ${section.itemCount}` });
      }
    });
  });
export type AssessmentBlueprint = z.infer<typeof AssessmentBlueprint>;
