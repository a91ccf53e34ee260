/**
 * Helpers for the generator property tests (imported by *.test.ts only). Checks collect
 * failure messages instead of calling `expect` per item: 10,000 items × a dozen checks stay
 * fast, and a failure names the offending item.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { DifficultyLevel } from '../../src/core/assessment/blueprint-schema';
import type { Catalog, LoadedSkill } from '../../src/core/assessment/catalog';
import { loadCatalog } from '../../src/core/assessment/catalog';
import type { GeneratedItem } from '../../src/core/assessment/item-builder';
import { generateItem, generateItemWithProblem } from '../../src/core/assessment/item-builder';
import { createRandom } from '../../src/core/assessment/random';

let shipped: Catalog | undefined;
/** The catalog of server/blueprints, loaded once per test file. */
export function shippedCatalog(): Catalog {
  shipped ??= loadCatalog();
  return shipped;
}

export function shippedSkill(id: string): LoadedSkill {
  const skill = shippedCatalog().getSkill(id);
  if (skill === undefined) throw new Error(`no shipped skill ${id}`);
  return skill;
}

/** Items in the largest shipped assessment: the session size within which items must be unique. */
export function largestAssessmentSize(): number {
  return Math.max(...[...shippedCatalog().assessments.values()].map((assessment) => assessment.totalItems));
}

export interface Range {
  min: number;
  max: number;
}

export interface PropertyReport {
  items: number;
  failures: string[];
  /** Difficulty range per generator case and per level. */
  byCase: Record<string, Range>;
  byLevel: Partial<Record<DifficultyLevel, Range>>;
}

/**
 * Generates `count` items of the skill, cycling through its cases, and runs the common checks
 * (well-formed options, level ↔ case, finite difficulty) plus `check`, an independent
 * recomputation of the answer and the case from the parameters.
 */
export function runProperty(skill: LoadedSkill, count: number, check: (item: GeneratedItem) => string[]): PropertyReport {
  const random = createRandom(`property|${skill.blueprint.id}`);
  const cases = Object.keys(skill.blueprint.difficultyFactors.cases);
  const report: PropertyReport = { items: 0, failures: [], byCase: {}, byLevel: {} };
  for (let index = 0; index < count; index++) {
    const caseName = cases[index % cases.length] ?? '';
    const item = generateItem(skill, { sectionId: 'property', caseName }, random);
    const problems = [...commonProblems(skill, caseName, item), ...check(item)];
    if (problems.length > 0) report.failures.push(`${item.fingerprint} ${JSON.stringify(item.params)}: ${problems.join('; ')}`);
    widen(report.byCase, caseName, item.difficulty);
    widen(report.byLevel, item.level, item.difficulty);
    report.items++;
  }
  return report;
}

function commonProblems(skill: LoadedSkill, caseName: string, item: GeneratedItem): string[] {
  const problems: string[] = [];
  const { blueprint } = skill;
  if (item.params['case'] !== caseName) problems.push(`params.case is ${String(item.params['case'])}`);
  if (item.level !== blueprint.difficultyFactors.cases[caseName]?.level) problems.push(`level ${item.level}`);
  if (!Number.isFinite(item.difficulty)) problems.push('difficulty is not finite');
  if (!item.fingerprint.startsWith(`${blueprint.id}|`)) problems.push('fingerprint lacks the skill id');
  if (/\{[A-Za-z]\w*\}/.test(item.stem)) problems.push('unfilled placeholder in stem');
  if (blueprint.presentation.itemType === 'multiple_choice') {
    const options = item.options ?? [];
    if (options.length !== blueprint.presentation.optionCount) problems.push(`${options.length} options`);
    if (new Set(options).size !== options.length) problems.push(`repeated option in ${JSON.stringify(options)}`);
    if (item.correctIndex === undefined || options[item.correctIndex] !== item.correctAnswer) problems.push('correctIndex does not point at the answer');
    if (options.filter((option) => option === item.correctAnswer).length !== 1) problems.push('answer not exactly once among options');
    if (options.some((option) => option.trim() === '')) problems.push('empty option');
  }
  return problems;
}

function widen<K extends string>(ranges: Partial<Record<K, Range>>, key: K, value: number): void {
  const range = ranges[key];
  ranges[key] = range === undefined ? { min: value, max: value } : { min: Math.min(range.min, value), max: Math.max(range.max, value) };
}

/** Pairs of adjacent names whose ranges overlap or are out of order (empty when strictly ascending). */
export function overlaps(ranges: Partial<Record<string, Range>>, ascending: readonly string[]): string[] {
  const present = ascending.filter((name) => ranges[name] !== undefined);
  const problems: string[] = [];
  for (let index = 1; index < present.length; index++) {
    const lower = ranges[present[index - 1] ?? ''];
    const upper = ranges[present[index] ?? ''];
    if (lower && upper && !(lower.max < upper.min)) problems.push(`${present[index - 1]} ${JSON.stringify(lower)} vs ${present[index]} ${JSON.stringify(upper)}`);
  }
  return problems;
}

/** Same seed → same item, for `seeds` seeds and every case. */
export function reproducibilityProblems(skill: LoadedSkill, seeds: number): string[] {
  const problems: string[] = [];
  for (const caseName of Object.keys(skill.blueprint.difficultyFactors.cases)) {
    for (let seed = 0; seed < seeds; seed++) {
      const make = () => generateItem(skill, { sectionId: 'repro', caseName }, createRandom(`repro|${seed}`));
      if (JSON.stringify(make()) !== JSON.stringify(make())) problems.push(`${caseName} seed ${seed}`);
    }
  }
  return problems;
}

/** A session of `size` items of one case, each excluded from the next draws: fingerprints must all differ. */
export function sessionFingerprints(skill: LoadedSkill, caseName: string, size: number, seed: string): string[] {
  const random = createRandom(seed);
  const seen = new Set<string>();
  const fingerprints: string[] = [];
  for (let index = 0; index < size; index++) {
    const item = generateItem(skill, { sectionId: 'session', caseName }, random, seen);
    seen.add(item.fingerprint);
    fingerprints.push(item.fingerprint);
  }
  return fingerprints;
}

/** Decimal digits, most significant first, left-padded with zeros to `width`. */
export function digitsOf(n: number, width: number): number[] {
  return [...String(n).padStart(width, '0')].map(Number);
}

/** What the misconception property found over its seeds. */
export interface MisconceptionReport {
  items: number;
  failures: string[];
  /** How many wrong options each strategy of the blueprint accounted for (an option two strategies give counts for both). */
  optionsByStrategy: Record<string, number>;
}

const canonicalInteger = /^(?:0|[1-9]\d*)$/;
const canonicalAddress = /^(?:0|[1-9]\d{0,2})(?:\.(?:0|[1-9]\d{0,2})){3}$/;

/**
 * Issue 25 item 1, choice items: over `seeds` seeds per case, exactly one option is right
 * (the answer, recomputed independently by `check`, appears once, and every option is written
 * the answer's one canonical way, so no other option can mean the same value) and every other
 * option is a candidate of a distractor strategy the blueprint lists *and* names a
 * misconception for — no option comes from anywhere else.
 */
export function misconceptionProperty(skill: LoadedSkill, seeds: number, check: (item: GeneratedItem) => string[]): MisconceptionReport {
  const { blueprint } = skill;
  const presentation = blueprint.presentation;
  if (presentation.itemType !== 'multiple_choice') throw new Error(`${blueprint.id} is not a multiple-choice skill`);
  const report: MisconceptionReport = { items: 0, failures: [], optionsByStrategy: Object.fromEntries(presentation.distractorStrategies.map((strategy) => [strategy, 0])) };
  for (const caseName of Object.keys(blueprint.difficultyFactors.cases)) {
    for (let seed = 0; seed < seeds; seed++) {
      const { item, problem } = generateItemWithProblem(skill, { sectionId: 'misconception', caseName }, createRandom(`misconception|${blueprint.id}|${caseName}|${seed}`));
      if (problem.kind !== 'multiple_choice') throw new Error('a choice skill made a code problem');
      report.items++;
      const problems = [...check(item)];
      const options = item.options ?? [];
      const shape = canonicalInteger.test(item.correctAnswer) ? canonicalInteger : canonicalAddress.test(item.correctAnswer) ? canonicalAddress : null;
      if (shape === null) problems.push(`answer ${item.correctAnswer} has no known canonical form`);
      for (const option of options) if (shape && !shape.test(option)) problems.push(`option ${JSON.stringify(option)} is not written the answer's canonical way`);
      if (options.filter((option) => option === item.correctAnswer).length !== 1) problems.push('the answer is not exactly one option');
      for (const option of options.filter((candidate) => candidate !== item.correctAnswer)) {
        const sources = presentation.distractorStrategies.filter((strategy) => problem.distractors[strategy]?.includes(option));
        if (sources.length === 0) problems.push(`option ${option} comes from no listed strategy`);
        for (const strategy of sources) {
          if (!presentation.misconceptions[strategy]?.trim()) problems.push(`option ${option} comes from ${strategy}, which names no misconception`);
          report.optionsByStrategy[strategy] = (report.optionsByStrategy[strategy] ?? 0) + 1;
        }
      }
      if (problems.length > 0) report.failures.push(`${caseName} seed ${seed} ${JSON.stringify(item.params)} ${JSON.stringify(options)}: ${problems.join('; ')}`);
    }
  }
  return report;
}

export interface SkillPropertyOptions {
  /** Independent recomputation of the answer and the case; returns problems found. */
  check: (item: GeneratedItem) => string[];
  /** The skill's cases from easiest to hardest. */
  caseOrder: readonly string[];
  items?: number;
}

/**
 * The property suite every skill blueprint gets (SPEC §4.3: answers, distinct distractors,
 * difficulty following the factors, uniqueness within a session, reproducibility).
 */
export function describeSkillProperties(skillId: string, options: SkillPropertyOptions): void {
  const count = options.items ?? 10_000;
  describe(`${skillId} (property, ${count} items)`, () => {
    let report: PropertyReport;
    beforeAll(() => {
      report = runProperty(shippedSkill(skillId), count, options.check);
    });

    it('computes every answer as an independent computation does, with distinct options', () => {
      expect(report.items).toBe(count);
      expect(report.failures.slice(0, 5)).toEqual([]);
    });

    it('orders difficulty by case: every item of an easier case is easier than every item of a harder one', () => {
      expect(Object.keys(report.byCase).sort()).toEqual([...options.caseOrder].sort());
      expect(overlaps(report.byCase, options.caseOrder)).toEqual([]);
      expect(overlaps(report.byLevel, ['easy', 'medium', 'hard'])).toEqual([]);
    });

    it('gives the same item for the same seed', () => {
      expect(reproducibilityProblems(shippedSkill(skillId), 25)).toEqual([]);
    });

    if (shippedSkill(skillId).blueprint.presentation.itemType === 'multiple_choice') {
      it('has exactly one right option and every wrong one from a named misconception, over 200 seeds per case (issue 25)', () => {
        const seeds = 200;
        const misconceptions = misconceptionProperty(shippedSkill(skillId), seeds, options.check);
        expect(misconceptions.items).toBe(seeds * options.caseOrder.length);
        expect(misconceptions.failures.slice(0, 5)).toEqual([]);
        // A listed misconception that never gives an option is dead weight in the blueprint.
        expect(Object.entries(misconceptions.optionsByStrategy).filter(([, count]) => count === 0)).toEqual([]);
      });
    }

    it('never repeats an item within a session the size of the largest assessment', () => {
      const size = largestAssessmentSize();
      for (const caseName of options.caseOrder) {
        const fingerprints = sessionFingerprints(shippedSkill(skillId), caseName, size, `session|${caseName}`);
        expect(new Set(fingerprints).size).toBe(size);
      }
    });
  });
}
