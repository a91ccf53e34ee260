import { describe, expect, it } from 'vitest';
import { codeLanguageFor, codeSpanOf } from './code-points';

describe('code points', () => {
  it('finds quoted code, not quoted words', () => {
    expect(codeSpanOf('`len(s)` returns the number of characters in a string')).toBe('len(s)');
    expect(codeSpanOf('In Python, `s[::-1]` reverses a string')).toBe('s[::-1]');
    expect(codeSpanOf('The `mitochondria` make ATP')).toBeNull();
    expect(codeSpanOf('No code here')).toBeNull();
  });

  it('picks the editor language from the point and its context', () => {
    expect(codeLanguageFor({ content: '`arr.map(f)` returns a new array', context: 'JavaScript arrays' })).toBe('javascript');
    expect(codeLanguageFor({ content: '`const x = 1` declares a constant', context: null })).toBe('javascript');
    expect(codeLanguageFor({ content: '`len(s)` counts characters', context: null })).toBe('python');
    expect(codeLanguageFor({ content: '`print(x)` writes a line', context: 'Python basics' })).toBe('python');
  });
});
