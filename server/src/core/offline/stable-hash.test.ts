import { describe, expect, it } from 'vitest';
import { pickBySeed, stableHash } from './stable-hash';

describe('stableHash', () => {
  it('is stable and spreads nearby inputs', () => {
    expect(stableHash('pt_1|3')).toBe(stableHash('pt_1|3'));
    const values = new Set(Array.from({ length: 50 }, (_, i) => stableHash(`turn ${i}`) % 4));
    expect(values.size).toBe(4);
  });

  it('picks the same variant for the same seed', () => {
    const list = ['a', 'b', 'c'] as const;
    expect(pickBySeed(list, 'x')).toBe(pickBySeed(list, 'x'));
    expect(list).toContain(pickBySeed(list, 'y'));
  });
});
