/**
 * Multiplication: a times-table fact (both factors single-digit), or a 2-digit number times a
 * single digit, with or without a carry from the ones into the tens.
 */
import { z } from 'zod';
import { defineChoiceGenerator, GenerationError } from '../generator';
import { randomInt } from '../random';
import { digitSwap, integerRange, offByOne, offByTen, ones, show, tens } from './numeric';

const cases = ['times_table', 'no_carry', 'carry'] as const;

export const multiplicationGenerator = defineChoiceGenerator({
  name: 'multiplication',
  cases,
  features: ['large_single_digit'],
  placeholders: ['a', 'b'],
  constraints: z
    .strictObject({
      singleDigit: integerRange({ min: 2, max: 9 }, { min: 2, max: 9 }),
      twoDigit: integerRange({ min: 10, max: 99 }, { min: 11, max: 99 }),
    })
    .default({ singleDigit: { min: 2, max: 9 }, twoDigit: { min: 11, max: 99 } }),
  generate(constraints, caseName, random) {
    const single = () => randomInt(random, constraints.singleDigit.min, constraints.singleDigit.max);
    if (caseName === 'times_table') return { a: single(), b: single() };
    const wantCarry = caseName === 'carry';
    // Constructive rather than rejection: pick the single digit, then a ones digit that does
    // (or does not) carry with it, then a two-digit number ending in that digit.
    for (let attempt = 0; attempt < 1000; attempt++) {
      const b = single();
      const onesDigits = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].filter((digit) => digit * b >= 10 === wantCarry);
      const onesDigit = onesDigits[randomInt(random, 0, onesDigits.length - 1)];
      if (onesDigit === undefined) continue;
      const lowTens = Math.ceil((constraints.twoDigit.min - onesDigit) / 10);
      const highTens = Math.floor((constraints.twoDigit.max - onesDigit) / 10);
      if (lowTens > highTens) continue;
      return { a: randomInt(random, lowTens, highTens) * 10 + onesDigit, b };
    }
    throw new GenerationError(`no parameters found for multiplication ${caseName}; check the constraints`);
  },
  describe({ a, b }) {
    const singleDigits = a < 10 ? [a, b] : [b];
    return {
      // The 6–9 rows of the tables are the ones learners miss most.
      features: { large_single_digit: singleDigits.every((digit) => digit >= 6) ? 1 : 0 },
      placeholders: { a: show(a), b: show(b) },
      contentKey: `${Math.min(a, b)}x${Math.max(a, b)}`,
      answer: show(a * b),
    };
  },
  distractors: {
    // A neighbouring fact of the table: 7 × 8 → 48 or 63.
    neighbour_fact: ({ a, b }) => [show(a * (b + 1)), show(a * (b - 1)), show((a + 1) * b), show((a - 1) * b)],
    // Ones product written in full, its tens never carried: 47 × 6 → 242 (24 | 2).
    forgot_carry: ({ a, b }) => (a >= 10 && ones(a) * b >= 10 ? [show(tens(a) * b * 10 + ((ones(a) * b) % 10))] : []),
    off_by_one: ({ a, b }) => offByOne(a * b),
    off_by_ten: ({ a, b }) => offByTen(a * b),
    digit_swap: ({ a, b }) => digitSwap(a * b),
    wrong_operation: ({ a, b }) => [show(a + b)],
  },
});
