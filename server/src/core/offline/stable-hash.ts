/**
 * A stable, seedless 32-bit hash (FNV-1a over UTF-16 code units) used wherever the offline
 * provider needs a "random-looking" but reproducible choice: phrasing variants, option order.
 * Same input → same output, on every machine and every run.
 */
export function stableHash(input: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < input.length; i++) {
    h ^= input.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  // Final avalanche so that nearby inputs spread over the low bits too.
  h ^= h >>> 16;
  h = Math.imul(h, 0x45d9f3b);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Picks one element of a non-empty list by hashing `seed`. */
export function pickBySeed<T>(items: readonly [T, ...T[]], seed: string): T {
  return items[stableHash(seed) % items.length] ?? items[0];
}
