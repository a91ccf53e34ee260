import { describe, expect, it } from 'vitest';
import { jsonEqual } from './json-equal';

describe('jsonEqual', () => {
  it('compares scalars by value, including 1.0 against 1', () => {
    expect(jsonEqual(1, 1.0)).toBe(true);
    expect(jsonEqual('héllo', 'héllo')).toBe(true);
    expect(jsonEqual(null, null)).toBe(true);
    expect(jsonEqual(0, false)).toBe(false);
    expect(jsonEqual(null, 0)).toBe(false);
    expect(jsonEqual('1', 1)).toBe(false);
  });

  it('compares arrays in order and objects regardless of key order', () => {
    expect(jsonEqual([1, [2, 3]], [1, [2, 3]])).toBe(true);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual([1], [1, 1])).toBe(false);
    expect(jsonEqual({ a: 1, b: [null] }, { b: [null], a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(jsonEqual({ a: undefined }, { b: undefined })).toBe(false);
  });

  it('does not confuse arrays with objects', () => {
    expect(jsonEqual([], {})).toBe(false);
    expect(jsonEqual({ 0: 'a' }, ['a'])).toBe(false);
  });
});
