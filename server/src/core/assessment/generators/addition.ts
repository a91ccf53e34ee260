/**
 * Two-digit addition. Cases count the carries of the column algorithm: none, exactly one
 * (from the ones, or out of the tens), or two (ones into tens and tens into hundreds, so the
 * sum has three digits).
 */
import { z } from 'zod';
import { defineChoiceGenerator, drawUntil } from '../generator';
import { randomInt } from '../random';
import { digitSwap, integerRange, offByOne, offByTen, ones, show, tens } from './numeric';

const cases = ['no_carry', 'single_carry', 'double_carry'] as const;
type AdditionCase = (typeof cases)[number];

export function additionCarries(a: number, b: number): number {
  const onesCarry = ones(a) + ones(b) >= 10 ? 1 : 0;
  const tensCarry = tens(a) + tens(b) + onesCarry >= 10 ? 1 : 0;
  return onesCarry + tensCarry;
}

const caseByCarries: Record<number, AdditionCase> = { 0: 'no_carry', 1: 'single_carry', 2: 'double_carry' };

export const additionGenerator = defineChoiceGenerator({
  name: 'addition-2digit',
  cases,
  features: ['large_operands'],
  placeholders: ['a', 'b'],
  constraints: z.strictObject({ operands: integerRange({ min: 10, max: 99 }, { min: 10, max: 99 }) }).default({ operands: { min: 10, max: 99 } }),
  generate(constraints, caseName, random) {
    const { min, max } = constraints.operands;
    return drawUntil(
      () => ({ a: randomInt(random, min, max), b: randomInt(random, min, max) }),
      ({ a, b }) => caseByCarries[additionCarries(a, b)] === caseName,
      `addition ${caseName}`,
    );
  },
  describe({ a, b }) {
    return {
      features: { large_operands: a >= 50 && b >= 50 ? 1 : 0 },
      placeholders: { a: show(a), b: show(b) },
      // a + b and b + a are the same problem.
      contentKey: `${Math.min(a, b)}+${Math.max(a, b)}`,
      answer: show(a + b),
    };
  },
  distractors: {
    // The ones digit written down, the carried ten forgotten: 47 + 38 → 75, 58 + 57 → 105.
    forgot_carry: ({ a, b }) => (ones(a) + ones(b) >= 10 ? [show(a + b - 10)] : []),
    // Both column sums written out in full: 47 + 38 → "715".
    column_concat: ({ a, b }) => (ones(a) + ones(b) >= 10 ? [`${tens(a) + tens(b)}${ones(a) + ones(b)}`] : []),
    off_by_one: ({ a, b }) => offByOne(a + b),
    off_by_ten: ({ a, b }) => offByTen(a + b),
    digit_swap: ({ a, b }) => digitSwap(a + b),
    wrong_operation: ({ a, b }) => (a !== b ? [show(Math.abs(a - b))] : []),
  },
});
