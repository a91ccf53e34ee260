/**
 * One quantity said in words or in digits (issue 28, numbers and units): "a quarter" and "25%"
 * or "0.25", "half" and "50 per cent", "tenfold" and "10 times", "twice" and "2". A learner who
 * says the point's number another way has said it; the offline evaluator's alignment
 * (idea-match.ts) reads the pair as the same idea.
 */

/** Words that name a proportion or a multiple. */
const PROPORTIONS: ReadonlyMap<string, number> = new Map([
  ['half', 0.5], ['halve', 0.5], ['quarter', 0.25], ['third', 1 / 3], ['fifth', 0.2], ['tenth', 0.1],
  ['twice', 2], ['double', 2], ['twofold', 2], ['triple', 3], ['threefold', 3], ['tenfold', 10], ['hundredfold', 100],
]);

/** The proportion or multiple a word names, or null. */
export function proportionOf(lemmas: readonly string[]): number | null {
  for (const lemma of lemmas) {
    const value = PROPORTIONS.get(lemma);
    if (value !== undefined) return value;
  }
  return null;
}

/** Relative difference within which two quantities are one ("a third" and "33%"). */
const TOLERANCE = 0.02;

function close(a: number, b: number): boolean {
  return Math.abs(a - b) <= TOLERANCE * Math.max(Math.abs(a), Math.abs(b));
}

/** True when two values are one quantity, as a fraction or as a percentage of it ("0.25", "25"). */
export function sameQuantity(a: number, b: number): boolean {
  return close(a, b) || close(a * 100, b) || close(a, b * 100);
}
