/**
 * Exact division (the dividend is built as divisor × quotient, so there is never a
 * remainder). Cases: a times-table fact read backwards, or a 2-digit quotient whose long
 * division needs no regrouping (84 ÷ 4) or does (72 ÷ 4, where 7 ÷ 4 leaves 3 to carry).
 */
import { z } from 'zod';
import { defineChoiceGenerator, drawUntil } from '../generator';
import { randomInt } from '../random';
import { digitSwap, integerRange, offByOne, offByTen, show } from './numeric';

const cases = ['times_table', 'no_regroup', 'regroup'] as const;

/** True when some step of the long division, before the last, leaves a remainder. */
export function needsRegrouping(dividend: number, divisor: number): boolean {
  const digits = [...String(dividend)].map(Number);
  let remainder = 0;
  for (const [index, digit] of digits.entries()) {
    remainder = (remainder * 10 + digit) % divisor;
    if (remainder !== 0 && index < digits.length - 1) return true;
  }
  return false;
}

export const divisionGenerator = defineChoiceGenerator({
  name: 'division',
  cases,
  features: ['large_divisor'],
  placeholders: ['dividend', 'divisor'],
  constraints: z
    .strictObject({
      divisor: integerRange({ min: 2, max: 9 }, { min: 2, max: 9 }),
      singleDigitQuotient: integerRange({ min: 2, max: 9 }, { min: 2, max: 9 }),
      twoDigitQuotient: integerRange({ min: 10, max: 99 }, { min: 11, max: 99 }),
    })
    .default({ divisor: { min: 2, max: 9 }, singleDigitQuotient: { min: 2, max: 9 }, twoDigitQuotient: { min: 11, max: 99 } }),
  generate(constraints, caseName, random) {
    const quotientRange = caseName === 'times_table' ? constraints.singleDigitQuotient : constraints.twoDigitQuotient;
    return drawUntil(
      () => {
        const divisor = randomInt(random, constraints.divisor.min, constraints.divisor.max);
        const quotient = randomInt(random, quotientRange.min, quotientRange.max);
        return { dividend: divisor * quotient, divisor, quotient };
      },
      ({ dividend, divisor }) => caseName === 'times_table' || needsRegrouping(dividend, divisor) === (caseName === 'regroup'),
      `division ${caseName}`,
    );
  },
  describe({ dividend, divisor, quotient }) {
    return {
      features: { large_divisor: divisor >= 6 ? 1 : 0 },
      placeholders: { dividend: show(dividend), divisor: show(divisor) },
      contentKey: `${dividend}/${divisor}`,
      answer: show(quotient),
    };
  },
  distractors: {
    // Each digit divided on its own, remainders thrown away: 72 ÷ 4 → 10.
    dropped_remainders: ({ dividend, divisor }) => {
      const value = Number([...String(dividend)].map((digit) => Math.floor(Number(digit) / divisor)).join(''));
      return value > 0 ? [show(value)] : [];
    },
    off_by_one: ({ quotient }) => offByOne(quotient).filter((value) => value !== '0'),
    off_by_ten: ({ quotient }) => offByTen(quotient).filter((value) => value !== '0'),
    digit_swap: ({ quotient }) => digitSwap(quotient),
    wrong_operation: ({ dividend, divisor }) => [show(dividend - divisor)],
  },
});
