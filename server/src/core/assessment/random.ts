/**
 * A small seedable random source (sfc32 seeded through the cyrb128 string hash).
 *
 * Every generator and every selection step receives a `Random` instead of calling
 * `Math.random`, so an item is a pure function of its seed. The server stores one seed per
 * assessment session and rebuilds the source for each item with `randomForItem(seed,
 * position)`: after a restart the same position yields the same item.
 */

/** The random-source port: a uniform float in [0, 1). */
export interface Random {
  next(): number;
}

/** A reproducible random source: the same seed always yields the same sequence. */
export function createRandom(seed: string | number): Random {
  let [a, b, c, d] = cyrb128(String(seed));
  const next = (): number => {
    // sfc32 (Chris Doty-Humphrey's Small Fast Counting generator), 32-bit arithmetic.
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  // Warm-up: the first outputs of sfc32 still correlate with the seed words.
  for (let i = 0; i < 12; i++) next();
  return { next };
}

/**
 * The random source for the item at `position` (1-based) of the session seeded `sessionSeed`.
 * Deriving a fresh source per position (rather than continuing one stream) is what lets the
 * server regenerate any item from stored data alone.
 */
export function randomForItem(sessionSeed: string, position: number): Random {
  return createRandom(`${sessionSeed}#item-${position}`);
}

/** An integer in [min, max], both inclusive. */
export function randomInt(random: Random, min: number, max: number): number {
  if (!Number.isInteger(min) || !Number.isInteger(max) || max < min) {
    throw new RangeError(`randomInt: invalid range [${min}, ${max}]`);
  }
  return min + Math.floor(random.next() * (max - min + 1));
}

/** One element of a non-empty list. */
export function pickOne<T>(random: Random, items: readonly T[]): T {
  const item = items[Math.floor(random.next() * items.length)];
  if (item === undefined) throw new RangeError('pickOne: empty list');
  return item;
}

/** A shuffled copy (Fisher–Yates); the input is left untouched. */
export function shuffled<T>(random: Random, items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random.next() * (i + 1));
    const held = copy[i] as T;
    copy[i] = copy[j] as T;
    copy[j] = held;
  }
  return copy;
}

/** A 128-bit hash of a string, as four 32-bit words (bryc's cyrb128): the sfc32 seed state. */
function cyrb128(input: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < input.length; i++) {
    const k = input.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}
