/**
 * From a generated problem to a presentable item: the stem from a template, the options
 * (answer + distractors by the skill's strategies, each standing for a named misconception,
 * shuffled), the computed difficulty and the fingerprint that keeps items unique within a session.
 */
import type { DifficultyLevel, Presentation } from './blueprint-schema';
import type { LoadedSkill } from './catalog';
import { computeDifficulty } from './difficulty';
import type { ChoiceProblem, CodeTask, ItemKind, Problem } from './generator';
import { GenerationError } from './generator';
import type { Random } from './random';
import { pickOne, shuffled } from './random';
import { fillTemplate } from './template';

/** A code item as the sandbox needs it: the task plus the skill's execution settings. */
export interface CodeItemTask extends CodeTask {
  timeoutSeconds: number;
  partialCredit: boolean;
}

/** One item, with everything needed to present it (stem, options, code) and to score it (the rest). */
export interface GeneratedItem {
  skillId: string;
  domain: string;
  sectionId: string;
  kind: ItemKind;
  stem: string;
  options?: string[];
  correctIndex?: number;
  /** The answer as displayed in the review: the correct option, or a reference solution. */
  correctAnswer: string;
  code?: CodeItemTask;
  /** Logit scale, computed from the parameters via the skill's difficulty factors. */
  difficulty: number;
  level: DifficultyLevel;
  /** The generation parameters, `case` included. */
  params: Record<string, unknown>;
  /** Stable identity of the item's content (wording and option order aside). */
  fingerprint: string;
}

/**
 * What may be shown to the learner — and to the model presenting the item: no correct
 * index or answer, no parameters, no tests (SPEC §4.3: the answer never enters an LLM context).
 */
export interface LearnerItem {
  sectionId: string;
  kind: ItemKind;
  stem: string;
  options?: string[];
  code?: { language: 'python'; functionName: string; starterCode: string };
}

export function toLearnerItem(item: GeneratedItem): LearnerItem {
  const view: LearnerItem = { sectionId: item.sectionId, kind: item.kind, stem: item.stem };
  if (item.options) view.options = [...item.options];
  if (item.code) view.code = { language: item.code.language, functionName: item.code.functionName, starterCode: item.code.starterCode };
  return view;
}

/** How often a colliding problem is redrawn before giving up (the pool is then too small: a blueprint bug). */
const maxDraws = 500;

/**
 * Generates an item of `caseName` whose fingerprint is not in `exclude` and whose stem is not
 * in `avoidStems` (the wording a learner saw in an earlier attempt, which they would recognise).
 */
export function generateItem(
  skill: LoadedSkill,
  request: { sectionId: string; caseName: string },
  random: Random,
  exclude: ReadonlySet<string> = new Set(),
  avoidStems: ReadonlySet<string> = new Set(),
): GeneratedItem {
  return generateItemWithProblem(skill, request, random, exclude, avoidStems).item;
}

/**
 * `generateItem`, also returning the problem the item was built from (its distractor
 * candidates per strategy): the property tests trace every option back to a misconception.
 * A problem is drawn again when it collides with `exclude` or `avoidStems`, or when the skill's strategies give
 * it fewer distinct distractors than the options need (rare: a few parameter sets per thousand).
 */
export function generateItemWithProblem(
  skill: LoadedSkill,
  request: { sectionId: string; caseName: string },
  random: Random,
  exclude: ReadonlySet<string> = new Set(),
  avoidStems: ReadonlySet<string> = new Set(),
): { item: GeneratedItem; problem: Problem } {
  let short = 0;
  for (let draw = 0; draw < maxDraws; draw++) {
    const problem = skill.generator.generate(request.caseName, random);
    if (exclude.has(fingerprintOf(skill.blueprint.id, problem))) continue;
    if (problem.kind === 'multiple_choice' && misconceptionDistractors(problem, skill.blueprint.presentation).length < wantedDistractors(skill.blueprint.presentation)) {
      short++;
      continue;
    }
    const item = buildItem(skill, request.sectionId, problem, random);
    if (avoidStems.has(item.stem)) continue;
    return { item, problem };
  }
  const reason = short > 0 ? ` (${short} had too few distinct distractors from the named misconceptions)` : '';
  throw new GenerationError(`${skill.blueprint.id}: no unused item of case "${request.caseName}" in ${maxDraws} draws${reason}`);
}

export function buildItem(skill: LoadedSkill, sectionId: string, problem: Problem, random: Random): GeneratedItem {
  const { blueprint } = skill;
  const level = blueprint.difficultyFactors.cases[problem.caseName]?.level;
  if (level === undefined) throw new Error(`${blueprint.id}: case "${problem.caseName}" is not used by the skill`);
  const item: GeneratedItem = {
    skillId: blueprint.id,
    domain: blueprint.domain,
    sectionId,
    kind: problem.kind,
    stem: fillTemplate(pickOne(random, blueprint.presentation.stemTemplates), problem.placeholders),
    correctAnswer: problem.answer,
    difficulty: computeDifficulty(blueprint.difficultyFactors, problem.caseName, problem.features),
    level,
    params: { case: problem.caseName, ...problem.params },
    fingerprint: fingerprintOf(blueprint.id, problem),
  };
  if (problem.kind === 'multiple_choice') {
    return { ...item, ...chooseOptions(problem, blueprint.presentation, random) };
  }
  const evaluation = blueprint.evaluation;
  return {
    ...item,
    code: {
      ...problem.code,
      timeoutSeconds: evaluation.method === 'test_execution' ? evaluation.timeoutSeconds : 5,
      partialCredit: evaluation.method === 'test_execution' ? evaluation.partialCredit : false,
    },
  };
}

export function fingerprintOf(skillId: string, problem: Problem): string {
  return `${skillId}|${problem.contentKey}`;
}

function wantedDistractors(presentation: Presentation): number {
  return presentation.itemType === 'multiple_choice' ? presentation.optionCount - 1 : 0;
}

/** Every distinct wrong option the skill's strategies give for the problem (the answer and empty values excluded). */
function misconceptionDistractors(problem: ChoiceProblem, presentation: Presentation): string[] {
  const strategies = presentation.itemType === 'multiple_choice' ? presentation.distractorStrategies : [];
  const values = new Set<string>();
  for (const strategy of strategies) for (const candidate of problem.distractors[strategy] ?? []) if (candidate !== '' && candidate !== problem.answer) values.add(candidate);
  return [...values];
}

/**
 * Distractors are taken round-robin over the strategies in the blueprint's order (so every
 * strategy is represented before any gives a second candidate), each strategy's own
 * candidates in random order (so "answer ± 1" does not always put the answer in the middle).
 * Only the strategies give options: each wrong option stands for a misconception the
 * blueprint names.
 */
function chooseOptions(problem: ChoiceProblem, presentation: Presentation, random: Random): { options: string[]; correctIndex: number } {
  const wanted = wantedDistractors(presentation);
  const strategies = presentation.itemType === 'multiple_choice' ? presentation.distractorStrategies : [];
  const taken = new Set([problem.answer]);
  const distractors: string[] = [];
  const take = (candidate: string | undefined): void => {
    if (candidate === undefined || candidate === '' || taken.has(candidate) || distractors.length >= wanted) return;
    taken.add(candidate);
    distractors.push(candidate);
  };
  const lists = strategies.map((strategy) => shuffled(random, problem.distractors[strategy] ?? []));
  const rounds = Math.max(0, ...lists.map((list) => list.length));
  for (let round = 0; round < rounds; round++) for (const list of lists) take(list[round]);
  if (distractors.length < wanted) {
    throw new GenerationError(`only ${distractors.length} distinct distractors from the named misconceptions for ${problem.contentKey}, ${wanted} wanted`);
  }
  const options = shuffled(random, [problem.answer, ...distractors]);
  return { options, correctIndex: options.indexOf(problem.answer) };
}
