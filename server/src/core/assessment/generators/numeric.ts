/** Shared pieces of the arithmetic generators: ranges, digits and numeric distractors. */
import { z } from 'zod';

/** An inclusive integer range `{ min, max }` in a blueprint's constraints. */
export function integerRange(bounds: { min: number; max: number }, fallback: { min: number; max: number }) {
  return z
    .strictObject({ min: z.number().int(), max: z.number().int() })
    .refine((range) => range.min <= range.max, { message: 'min must not exceed max' })
    .refine((range) => range.min >= bounds.min && range.max <= bounds.max, {
      message: `must lie within ${bounds.min}–${bounds.max}`,
    })
    .default(fallback);
}

export const ones = (n: number): number => n % 10;
export const tens = (n: number): number => Math.floor(n / 10) % 10;

/** Options are displayed as plain decimal integers. */
export const show = (n: number): string => String(n);

/** `n ± step` for each step, skipping results below `floor`. */
export function around(n: number, steps: readonly number[], floor = 0): string[] {
  const values: string[] = [];
  for (const step of steps) {
    if (n + step >= floor) values.push(show(n + step));
    if (n - step >= floor) values.push(show(n - step));
  }
  return values;
}

/** Off by one: a careless slip. */
export const offByOne = (n: number): string[] => around(n, [1]);
/** Off by ten: a place-value slip. */
export const offByTen = (n: number): string[] => around(n, [10]);

/** The last two digits swapped (85 → 58, 132 → 123): a transcription error. */
export function digitSwap(n: number): string[] {
  if (n < 10 || ones(n) === 0 || ones(n) === tens(n)) return [];
  const hundredsAndUp = Math.floor(n / 100);
  return [show(hundredsAndUp * 100 + ones(n) * 10 + tens(n))];
}
