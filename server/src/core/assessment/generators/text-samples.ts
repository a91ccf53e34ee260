/**
 * Word lists for the Python string generators. Every non-ASCII sample is a single code point
 * per visible character (precomposed letters, no combining marks, no emoji needing a
 * variation selector or a joiner), so "characters" as a learner sees them and Python's
 * `len` (code points) agree.
 */
import type { Random } from '../random';
import { pickOne, randomInt } from '../random';

export const asciiWords = [
  'apple', 'banana', 'cherry', 'garden', 'python', 'rocket', 'silver', 'window', 'puzzle', 'kettle',
  'orbit', 'planet', 'river', 'forest', 'candle', 'marble', 'pencil', 'ladder', 'tiger', 'zebra',
  'coffee', 'bottle', 'mirror', 'island', 'rhythm', 'sky', 'education', 'queue', 'Hello', 'Mississippi',
  'Banana', 'Ocean', 'Umbrella', 'echo', 'idea', 'cat', 'dog', 'moon', 'lantern', 'velvet',
] as const;

/** Words with non-ASCII characters from the Basic Multilingual Plane (one UTF-16 unit each). */
export const unicodeWords = [
  'héllo', 'café', 'naïve', 'über', 'façade', 'jalapeño', 'crème', 'straße', 'smørrebrød', 'señor',
  'Ångström', 'déjà', 'piñata', 'Zürich', 'привет', 'мир', 'ελληνικά', 'Ωmega', '日本', '東京',
  '你好', '漢字', 'こんにちは', 'カタカナ', '안녕', 'résumé', 'coöperate', 'Łódź', 'İstanbul', 'São',
] as const;

/** Emoji outside the BMP: one code point, two UTF-16 units, four UTF-8 bytes each. */
export const emoji = ['🐍', '😀', '🚀', '🎉', '🍕', '🌍', '🔥', '🎵', '🐱', '💡'] as const;

export const asciiWord = (random: Random): string => pickOne(random, asciiWords);
export const unicodeWord = (random: Random): string => pickOne(random, unicodeWords);

/** Two or three ASCII words separated by single spaces. */
export function asciiPhrase(random: Random): string {
  return Array.from({ length: randomInt(random, 2, 3) }, () => asciiWord(random)).join(' ');
}

/** One or two emoji before or after a word (or on their own). */
export function emojiString(random: Random): string {
  const marks = Array.from({ length: randomInt(random, 1, 2) }, () => pickOne(random, emoji)).join('');
  const word = pickOne(random, ['', asciiWord(random), unicodeWord(random)]);
  return random.next() < 0.5 ? `${marks}${word}` : `${word}${marks}`;
}

/** A Python string literal for `s` (single-quoted, backslashes and quotes escaped). */
export function pythonLiteral(s: string): string {
  return `'${s.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

/** Python's `len`: the number of code points (a surrogate pair is one). */
export const codePointCount = (s: string): number => [...s].length;
