/**
 * "What does len(s) return?" — reading Python, multiple choice. Cases by what makes the count
 * tricky: a plain word, spaces, non-ASCII letters (bytes ≠ characters), emoji (outside the
 * BMP: two UTF-16 units, four UTF-8 bytes, one Python character).
 */
import { z } from 'zod';
import { defineChoiceGenerator } from '../generator';
import type { Random } from '../random';
import { randomInt } from '../random';
import { asciiPhrase, asciiWord, codePointCount, emojiString, pythonLiteral, unicodeWord } from './text-samples';
import { offByOne } from './numeric';

const cases = ['ascii_word', 'with_spaces', 'non_ascii', 'emoji'] as const;

const encoder = new TextEncoder();
const utf8Length = (s: string): number => encoder.encode(s).length;

export const pythonLenGenerator = defineChoiceGenerator({
  name: 'python-len',
  cases,
  features: ['long_string'],
  placeholders: ['literal'],
  constraints: z.strictObject({}).default({}),
  generate(_constraints, caseName, random) {
    switch (caseName) {
      case 'ascii_word': {
        // A number suffix now and then widens the pool beyond the word list.
        const word = asciiWord(random);
        return { text: random.next() < 0.5 ? word : `${word}${randomInt(random, 1, 99)}` };
      }
      case 'with_spaces':
        return { text: asciiPhrase(random) };
      case 'non_ascii':
        return { text: random.next() < 0.5 ? unicodeWord(random) : `${unicodeWord(random)} ${pickWord(random)}` };
      case 'emoji':
        return { text: emojiString(random) };
      default: {
        const unreachable: never = caseName;
        throw new Error(`unknown case ${String(unreachable)}`);
      }
    }
  },
  describe({ text }) {
    return {
      features: { long_string: codePointCount(text) >= 10 ? 1 : 0 },
      placeholders: { literal: pythonLiteral(text) },
      contentKey: JSON.stringify(text),
      answer: String(codePointCount(text)),
    };
  },
  distractors: {
    // Bytes of the UTF-8 encoding: len(s.encode()).
    utf8_bytes: ({ text }) => [String(utf8Length(text))],
    // UTF-16 code units: what JavaScript's s.length says.
    utf16_units: ({ text }) => [String(text.length)],
    without_spaces: ({ text }) => (text.includes(' ') ? [String(codePointCount(text.replaceAll(' ', '')))] : []),
    // The words of a phrase counted instead of its characters.
    word_count: ({ text }) => (text.includes(' ') ? [String(text.split(' ').filter(Boolean).length)] : []),
    // The literal's two quote marks counted as characters of the string.
    with_quotes: ({ text }) => [String(codePointCount(text) + 2)],
    off_by_one: ({ text }) => offByOne(codePointCount(text)),
  },
});

function pickWord(random: Random): string {
  return random.next() < 0.5 ? asciiWord(random) : unicodeWord(random);
}
