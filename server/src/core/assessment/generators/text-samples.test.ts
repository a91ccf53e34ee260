import { describe, expect, it } from 'vitest';
import { asciiWords, codePointCount, emoji, pythonLiteral, unicodeWords } from './text-samples';

describe('text samples', () => {
  it('hold no combining marks, variation selectors or joiners, so code points = visible characters', () => {
    for (const sample of [...asciiWords, ...unicodeWords, ...emoji]) {
      expect(sample).not.toMatch(/[\p{M}\u200d\ufe0e\ufe0f]/u);
      expect(sample.normalize('NFC')).toBe(sample);
    }
  });

  it('classify as promised: ASCII words, BMP non-ASCII words, single astral emoji', () => {
    for (const word of asciiWords) expect(word).toMatch(/^[A-Za-z]+$/);
    for (const word of unicodeWords) {
      expect(word).toMatch(/[^\x00-\x7f]/);
      expect(codePointCount(word)).toBe(word.length);
    }
    for (const mark of emoji) {
      expect(codePointCount(mark)).toBe(1);
      expect(mark.length).toBe(2);
    }
  });

  it('writes Python literals with quotes and backslashes escaped', () => {
    expect(pythonLiteral("it's")).toBe("'it\\'s'");
    expect(pythonLiteral('a\\b')).toBe("'a\\\\b'");
  });
});
