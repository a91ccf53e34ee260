import { describe, expect, it } from 'vitest';
import { generateItem } from './item-builder';
import { createRandom } from './random';
import { creditFromTests, scoreChoice } from './scoring';
import { shippedSkill } from '../../../test/support/assessment-support';

describe('scoreChoice', () => {
  const item = generateItem(shippedSkill('MATH.ARITH.ADD.2DIGIT'), { sectionId: 'addition', caseName: 'single_carry' }, createRandom('score'));
  const correct = item.correctIndex ?? -1;

  it('gives 1 for the correct option and 0 for any other, out-of-range included', () => {
    expect(scoreChoice(item, correct)).toBe(1);
    expect(scoreChoice(item, (correct + 1) % 4)).toBe(0);
    expect(scoreChoice(item, 4)).toBe(0);
    expect(scoreChoice(item, -1)).toBe(0);
    expect(scoreChoice(item, Number.NaN)).toBe(0);
  });

  it('refuses a code item (those are scored by running tests)', () => {
    const code = generateItem(shippedSkill('PROG.PYTHON.STRING.COUNT'), { sectionId: 'writing', caseName: 'count_chars' }, createRandom('score'));
    expect(() => scoreChoice(code, 0)).toThrow('code item');
  });
});

describe('creditFromTests', () => {
  it('is the share of tests passed, or all-or-nothing', () => {
    expect(creditFromTests(5, 7)).toBeCloseTo(5 / 7);
    expect(creditFromTests(7, 7)).toBe(1);
    expect(creditFromTests(0, 7)).toBe(0);
    expect(creditFromTests(6, 7, false)).toBe(0);
    expect(creditFromTests(7, 7, false)).toBe(1);
  });

  it('is 0 when nothing ran and never exceeds 1', () => {
    expect(creditFromTests(0, 0)).toBe(0);
    expect(creditFromTests(9, 7)).toBe(1);
  });
});
