import { describe, expect, it } from 'vitest';
import { fillTemplate, placeholdersIn } from './template';

describe('stem templates', () => {
  it('lists and fills {placeholders} by plain substitution', () => {
    expect(placeholdersIn('What is {a} + {b}?')).toEqual(['a', 'b']);
    expect(fillTemplate('What is {a} + {b}?', { a: '47', b: '38' })).toBe('What is 47 + 38?');
  });

  it('never evaluates anything: a value that looks like a placeholder or code stays text', () => {
    expect(fillTemplate('{a}', { a: '{b} ${process.exit()}' })).toBe('{b} ${process.exit()}');
    expect(placeholdersIn('{1 + 1} {a.b} {}')).toEqual([]);
  });

  it('throws on a placeholder without a value (the catalog rules this out at load)', () => {
    expect(() => fillTemplate('{missing}', {})).toThrow('{missing}');
  });
});
