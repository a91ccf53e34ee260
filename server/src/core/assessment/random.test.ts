import { describe, expect, it } from 'vitest';
import { createRandom, pickOne, randomForItem, randomInt, shuffled } from './random';

const take = (count: number, seed: string): number[] => {
  const random = createRandom(seed);
  return Array.from({ length: count }, () => random.next());
};

describe('createRandom', () => {
  it('yields the pinned sequence for a pinned seed (golden values: changing them changes every generated item)', () => {
    expect(take(3, 'tutorloop')).toEqual([0.5677288614679128, 0.5726770772598684, 0.6534348868299276]);
  });

  it('is reproducible per seed and differs between seeds', () => {
    expect(take(20, 'a')).toEqual(take(20, 'a'));
    expect(take(20, 'a')).not.toEqual(take(20, 'b'));
    expect(take(5, '42')).toEqual(take(5, String(42)));
  });

  it('stays in [0, 1) and spreads evenly', () => {
    const values = take(20_000, 'spread');
    expect(Math.min(...values)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...values)).toBeLessThan(1);
    const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
    expect(mean).toBeGreaterThan(0.49);
    expect(mean).toBeLessThan(0.51);
  });
});

describe('randomForItem', () => {
  it('rebuilds the same source for the same session seed and position, another for another position', () => {
    expect(randomForItem('session-1', 3).next()).toBe(randomForItem('session-1', 3).next());
    expect(randomForItem('session-1', 3).next()).not.toBe(randomForItem('session-1', 4).next());
    expect(randomForItem('session-1', 3).next()).not.toBe(randomForItem('session-2', 3).next());
  });
});

describe('helpers', () => {
  it('randomInt covers both bounds and nothing outside them', () => {
    const random = createRandom('int');
    const seen = new Set(Array.from({ length: 500 }, () => randomInt(random, 3, 7)));
    expect([...seen].sort()).toEqual([3, 4, 5, 6, 7]);
    expect(() => randomInt(random, 5, 4)).toThrow(RangeError);
  });

  it('shuffled returns a permutation and leaves the input alone', () => {
    const input = [1, 2, 3, 4, 5, 6];
    const output = shuffled(createRandom('shuffle'), input);
    expect(input).toEqual([1, 2, 3, 4, 5, 6]);
    expect([...output].sort()).toEqual(input);
  });

  it('pickOne refuses an empty list', () => {
    expect(() => pickOne(createRandom('empty'), [])).toThrow(RangeError);
  });
});
