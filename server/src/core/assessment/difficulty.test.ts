import { describe, expect, it } from 'vitest';
import type { DifficultyFactors } from './blueprint-schema';
import { caseDifficultyRange, computeDifficulty, levelOrderProblems } from './difficulty';

const addition: DifficultyFactors = {
  base: -1.5,
  cases: {
    no_carry: { level: 'easy', weight: 0 },
    single_carry: { level: 'medium', weight: 0.8 },
    double_carry: { level: 'hard', weight: 1.5 },
  },
  features: { large_operands: 0.2 },
};

describe('computeDifficulty', () => {
  it('adds base, case weight and weighted features (hand-computed)', () => {
    expect(computeDifficulty(addition, 'no_carry', { large_operands: 0 })).toBe(-1.5);
    // −1.5 + 0.8 + 0.2 · 1 = −0.5 (without the rounding, floating point gives −0.5000000000000001)
    expect(computeDifficulty(addition, 'single_carry', { large_operands: 1 })).toBe(-0.5);
    expect(computeDifficulty(addition, 'double_carry', {})).toBe(0);
  });

  it('clamps feature values to [0, 1]', () => {
    expect(computeDifficulty(addition, 'no_carry', { large_operands: 7 })).toBe(-1.3);
  });

  it('knows each case’s range and accepts strictly ordered levels', () => {
    expect(caseDifficultyRange(addition, 'single_carry')).toEqual({ min: -0.7, max: -0.5 });
    expect(levelOrderProblems(addition)).toEqual([]);
  });

  it('reports levels whose ranges overlap', () => {
    const overlapping = { ...addition, features: { large_operands: 0.9 } };
    expect(levelOrderProblems(overlapping)).toEqual([
      'level "easy" reaches -0.6 but level "medium" starts at -0.7; levels must not overlap',
      'level "medium" reaches 0.2 but level "hard" starts at 0; levels must not overlap',
    ]);
  });
});
