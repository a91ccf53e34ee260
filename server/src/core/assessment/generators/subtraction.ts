/**
 * Subtraction of a 2-digit number with a 2-digit difference (so never negative). The minuend
 * is built as subtrahend + difference; cases count the borrows of the column algorithm: none,
 * one (from the tens, or from the hundreds), or two (the minuend then has three digits and
 * both columns borrow, the mirror image of double-carry addition).
 */
import { z } from 'zod';
import { defineChoiceGenerator, drawUntil } from '../generator';
import { randomInt } from '../random';
import { digitSwap, integerRange, offByOne, offByTen, ones, show, tens } from './numeric';

const cases = ['no_borrow', 'single_borrow', 'double_borrow'] as const;
type SubtractionCase = (typeof cases)[number];

export function subtractionBorrows(minuend: number, subtrahend: number): number {
  const onesBorrow = ones(minuend) < ones(subtrahend) ? 1 : 0;
  const tensBorrow = tens(minuend) - onesBorrow < tens(subtrahend) ? 1 : 0;
  return onesBorrow + tensBorrow;
}

const caseByBorrows: Record<number, SubtractionCase> = { 0: 'no_borrow', 1: 'single_borrow', 2: 'double_borrow' };
const twoDigits = { min: 10, max: 99 };

export const subtractionGenerator = defineChoiceGenerator({
  name: 'subtraction-2digit',
  cases,
  features: ['minuend_ends_in_zero'],
  placeholders: ['minuend', 'subtrahend'],
  constraints: z
    .strictObject({ subtrahend: integerRange(twoDigits, twoDigits), difference: integerRange(twoDigits, twoDigits) })
    .default({ subtrahend: twoDigits, difference: twoDigits }),
  generate(constraints, caseName, random) {
    return drawUntil(
      () => {
        const subtrahend = randomInt(random, constraints.subtrahend.min, constraints.subtrahend.max);
        const difference = randomInt(random, constraints.difference.min, constraints.difference.max);
        return { minuend: subtrahend + difference, subtrahend };
      },
      ({ minuend, subtrahend }) => caseByBorrows[subtractionBorrows(minuend, subtrahend)] === caseName,
      `subtraction ${caseName}`,
    );
  },
  describe({ minuend, subtrahend }) {
    return {
      // Borrowing into a zero (60 − 27) is a classic stumbling block.
      features: { minuend_ends_in_zero: ones(minuend) === 0 ? 1 : 0 },
      placeholders: { minuend: show(minuend), subtrahend: show(subtrahend) },
      contentKey: `${minuend}-${subtrahend}`,
      answer: show(minuend - subtrahend),
    };
  },
  distractors: {
    // The smaller digit taken from the larger in every column, no borrowing: 52 − 17 → 45.
    smaller_from_larger: ({ minuend, subtrahend }) => [
      show(Math.floor(minuend / 100) * 100 + Math.abs(tens(minuend) - tens(subtrahend)) * 10 + Math.abs(ones(minuend) - ones(subtrahend))),
    ],
    // Borrowed into the ones but did not take the ten away: 52 − 17 → 45 as well, 60 − 27 → 43.
    forgot_borrow: ({ minuend, subtrahend }) => (ones(minuend) < ones(subtrahend) ? [show(minuend - subtrahend + 10)] : []),
    off_by_one: ({ minuend, subtrahend }) => offByOne(minuend - subtrahend),
    off_by_ten: ({ minuend, subtrahend }) => offByTen(minuend - subtrahend),
    digit_swap: ({ minuend, subtrahend }) => digitSwap(minuend - subtrahend),
    wrong_operation: ({ minuend, subtrahend }) => [show(minuend + subtrahend)],
  },
});
