/**
 * Item difficulty on the IRT logit scale, computed from the generation parameters:
 *
 *   difficulty = base + cases[case].weight + Σ features[f] · value_f      (value_f ∈ [0, 1])
 *
 * The catalog checks that the levels do not overlap (every easy item is easier than every
 * medium item, every medium easier than every hard), so a level is a promise about the
 * computed difficulty and not just a label.
 */
import type { DifficultyFactors, DifficultyLevel } from './blueprint-schema';
import { difficultyLevels } from './blueprint-schema';

/** Rounded so that stored and displayed values carry no floating-point noise. */
const round = (value: number): number => Math.round(value * 1000) / 1000;

export function computeDifficulty(factors: DifficultyFactors, caseName: string, features: Readonly<Record<string, number>>): number {
  const caseFactor = factors.cases[caseName];
  if (caseFactor === undefined) throw new Error(`difficulty: case "${caseName}" has no factor`);
  let difficulty = factors.base + caseFactor.weight;
  for (const [feature, weight] of Object.entries(factors.features)) {
    difficulty += weight * Math.min(1, Math.max(0, features[feature] ?? 0));
  }
  return round(difficulty);
}

/** The lowest and highest difficulty any item of `caseName` can have. */
export function caseDifficultyRange(factors: DifficultyFactors, caseName: string): { min: number; max: number } {
  const caseWeight = factors.cases[caseName]?.weight ?? 0;
  const weights = Object.values(factors.features);
  const lowest = weights.reduce((sum, weight) => sum + Math.min(0, weight), 0);
  const highest = weights.reduce((sum, weight) => sum + Math.max(0, weight), 0);
  return { min: round(factors.base + caseWeight + lowest), max: round(factors.base + caseWeight + highest) };
}

/** Problems with the level ordering (empty when every level lies strictly above the previous one). */
export function levelOrderProblems(factors: DifficultyFactors): string[] {
  const ranges = difficultyLevels.flatMap((level) => {
    const names = casesAtLevel(factors, level);
    if (names.length === 0) return [];
    const caseRanges = names.map((name) => caseDifficultyRange(factors, name));
    return [{ level, min: Math.min(...caseRanges.map((range) => range.min)), max: Math.max(...caseRanges.map((range) => range.max)) }];
  });
  const problems: string[] = [];
  for (let index = 1; index < ranges.length; index++) {
    const lower = ranges[index - 1];
    const upper = ranges[index];
    if (lower && upper && lower.max >= upper.min) {
      problems.push(`level "${lower.level}" reaches ${lower.max} but level "${upper.level}" starts at ${upper.min}; levels must not overlap`);
    }
  }
  return problems;
}

export function casesAtLevel(factors: DifficultyFactors, level: DifficultyLevel): string[] {
  return Object.entries(factors.cases)
    .filter(([, factor]) => factor.level === level)
    .map(([name]) => name);
}
