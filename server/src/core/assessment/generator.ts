/**
 * The generator contract. A skill blueprint names a generator; the generator is TypeScript
 * code chosen from a registry by that name, so nothing read from a blueprint file is ever
 * evaluated. A generator draws the parameters of one problem for a given difficulty case and
 * computes everything that follows from them: the answer, the distractor candidates of each
 * named strategy, the values of the stem placeholders and the difficulty features.
 */
import type { z } from 'zod';
import type { Random } from './random';

export type ItemKind = 'multiple_choice' | 'code';

/** One test of a code task: the function is called with `args` and must return `expected`. */
export interface CodeTaskTest {
  args: unknown[];
  expected: unknown;
  /** A visible example: shown with the item, and what "Run examples" runs. The rest stay hidden until the end. */
  visible?: boolean;
}

/** A Python function task, scored by running `tests` in the sandbox. */
export interface CodeTask {
  language: 'python';
  functionName: string;
  starterCode: string;
  tests: CodeTaskTest[];
}

interface ProblemBase {
  caseName: string;
  /** The generation parameters (operands, address and prefix, task and inputs…). */
  params: Record<string, unknown>;
  /** Feature values in [0, 1], weighed by the skill's difficulty factors. */
  features: Record<string, number>;
  /** Values for the `{placeholders}` of the stem templates. */
  placeholders: Record<string, string>;
  /** Identifies the problem's content, independent of wording and option order. */
  contentKey: string;
  /** The correct answer as displayed: an option's text, or a reference solution. */
  answer: string;
}

export interface ChoiceProblem extends ProblemBase {
  kind: 'multiple_choice';
  /**
   * Distractor candidates per strategy name (may include the answer or repeats: filtered later).
   * These are the only source of wrong options: a problem whose strategies give too few distinct
   * ones is drawn again (item-builder.ts), never filled with values no misconception explains.
   */
  distractors: Record<string, readonly string[]>;
}

export interface CodeProblem extends ProblemBase {
  kind: 'code';
  code: CodeTask;
}

export type Problem = ChoiceProblem | CodeProblem;

/** A generator bound to one skill's (validated) constraints. */
export interface BoundGenerator {
  generate(caseName: string, random: Random): Problem;
}

export type BindResult = { ok: true; value: BoundGenerator } | { ok: false; issues: z.core.$ZodIssue[] };

/** What the registry holds and the catalog checks blueprints against. */
export interface Generator {
  readonly name: string;
  readonly kind: ItemKind;
  readonly cases: readonly string[];
  readonly features: readonly string[];
  readonly placeholders: readonly string[];
  /** Empty for code generators. */
  readonly distractorStrategies: readonly string[];
  bind(constraints: unknown): BindResult;
}

/** Thrown when constraints leave no parameters for a case; the catalog reports it at load. */
export class GenerationError extends Error {
  override readonly name = 'GenerationError';
}

interface DescribedProblem<Feature extends string, Placeholder extends string> {
  features: Record<Feature, number>;
  placeholders: Record<Placeholder, string>;
  contentKey: string;
  answer: string;
}

interface GeneratorSpecBase<C, P, Case extends string, Feature extends string, Placeholder extends string> {
  name: string;
  cases: readonly Case[];
  features: readonly Feature[];
  placeholders: readonly Placeholder[];
  constraints: z.ZodType<C>;
  /** Draws parameters for `caseName`; throws GenerationError when the constraints exclude it. */
  generate(constraints: C, caseName: Case, random: Random): P;
  describe(params: P, constraints: C): DescribedProblem<Feature, Placeholder>;
}

export interface ChoiceGeneratorSpec<C, P, Case extends string, Feature extends string, Placeholder extends string, Strategy extends string>
  extends GeneratorSpecBase<C, P, Case, Feature, Placeholder> {
  distractors: Record<Strategy, (params: P) => string[]>;
}

export interface CodeGeneratorSpec<C, P, Case extends string, Feature extends string, Placeholder extends string>
  extends GeneratorSpecBase<C, P, Case, Feature, Placeholder> {
  code(params: P): CodeTask;
}

/** Declares a multiple-choice generator with typed constraints, parameters and names. */
export function defineChoiceGenerator<
  C,
  P extends Record<string, unknown>,
  Case extends string,
  Feature extends string,
  Placeholder extends string,
  Strategy extends string,
>(spec: ChoiceGeneratorSpec<C, P, Case, Feature, Placeholder, Strategy>): Generator {
  const strategies = Object.keys(spec.distractors) as Strategy[];
  return {
    ...names(spec),
    kind: 'multiple_choice',
    distractorStrategies: strategies,
    bind(raw) {
      const parsed = spec.constraints.safeParse(raw);
      if (!parsed.success) return { ok: false, issues: parsed.error.issues };
      const constraints = parsed.data;
      return {
        ok: true,
        value: {
          generate(caseName, random) {
            const params = spec.generate(constraints, knownCase(spec, caseName), random);
            const distractors: Record<string, readonly string[]> = {};
            for (const strategy of strategies) distractors[strategy] = spec.distractors[strategy](params);
            return {
              kind: 'multiple_choice',
              caseName,
              params,
              ...spec.describe(params, constraints),
              distractors,
            };
          },
        },
      };
    },
  };
}

/** Declares a code generator (a function to write, scored by generated tests). */
export function defineCodeGenerator<C, P extends Record<string, unknown>, Case extends string, Feature extends string, Placeholder extends string>(
  spec: CodeGeneratorSpec<C, P, Case, Feature, Placeholder>,
): Generator {
  return {
    ...names(spec),
    kind: 'code',
    distractorStrategies: [],
    bind(raw) {
      const parsed = spec.constraints.safeParse(raw);
      if (!parsed.success) return { ok: false, issues: parsed.error.issues };
      const constraints = parsed.data;
      return {
        ok: true,
        value: {
          generate(caseName, random) {
            const params = spec.generate(constraints, knownCase(spec, caseName), random);
            return { kind: 'code', caseName, params, ...spec.describe(params, constraints), code: spec.code(params) };
          },
        },
      };
    },
  };
}

/**
 * Repeats `draw` until `accept` holds. Rejection sampling keeps each generator a plain
 * "draw, then classify" (the same classification the difficulty uses), at the price of a
 * bound: constraints that make a case impossible fail loudly instead of looping.
 */
export function drawUntil<T>(draw: () => T, accept: (value: T) => boolean, what: string, maxAttempts = 20_000): T {
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    const value = draw();
    if (accept(value)) return value;
  }
  throw new GenerationError(`no parameters found for ${what} in ${maxAttempts} draws; check the constraints`);
}

function names<Case extends string>(spec: { name: string; cases: readonly Case[]; features: readonly string[]; placeholders: readonly string[] }) {
  return { name: spec.name, cases: spec.cases, features: spec.features, placeholders: spec.placeholders };
}

function knownCase<Case extends string>(spec: { name: string; cases: readonly Case[] }, caseName: string): Case {
  const found = spec.cases.find((name) => name === caseName);
  if (found === undefined) throw new GenerationError(`generator "${spec.name}" has no case "${caseName}"`);
  return found;
}
