/**
 * "Write a Python function that counts…" — a small family of string-counting tasks, scored
 * by running generated tests in the sandbox. Expected values are computed here over code
 * points, which is what Python's `len` and `str.count` count.
 *
 * Tests are built to tell right from plausibly wrong (the skill blueprint's mutants, run
 * against every seed's tests by server/test/assessment-mutants.test.ts): besides the empty
 * string, an ASCII word and phrase, a non-ASCII word and emoji, each task gets *witnesses* —
 * inputs chosen so that a named mistake changes the result:
 *
 * - count_char: the character at the very end (a loop that stops one short), the lower-case
 *   twin of a capital in the string (case ignored), a character that occurs twice or more
 *   (membership instead of a count), one that does not occur (`str.find`'s −1);
 * - count_vowels: a capitalised word starting with a vowel (only 'aeiou' counted, the first
 *   character skipped, consonants counted instead), a word ending in a vowel (the last one
 *   skipped), a word with y (y counted), an accented vowel (é counted), a repeated vowel
 *   (distinct vowels counted).
 *
 * The first two tests are the visible examples (the stem quotes the first); the rest stay
 * hidden until the assessment is over.
 */
import { z } from 'zod';
import type { CodeTask } from '../generator';
import { defineCodeGenerator } from '../generator';
import type { Random } from '../random';
import { pickOne } from '../random';
import { asciiPhrase, asciiWord, asciiWords, codePointCount, emojiString, pythonLiteral, unicodeWord, unicodeWords } from './text-samples';

const cases = ['count_chars', 'count_char', 'count_vowels'] as const;
type Task = (typeof cases)[number];

const vowels = 'aeiouAEIOU';
const isVowel = (character: string): boolean => vowels.includes(character);

interface TaskDefinition {
  signature: string;
  parameters: string;
  description: string;
  reference: string;
  expected(args: readonly string[]): number;
}

const tasks: Record<Task, TaskDefinition> = {
  count_chars: {
    signature: 'count_chars(s: str) -> int',
    parameters: 's: str',
    description: 'returns the number of characters in the string s',
    reference: 'def count_chars(s: str) -> int:\n    return len(s)\n',
    expected: ([s = '']) => codePointCount(s),
  },
  count_char: {
    signature: 'count_char(s: str, ch: str) -> int',
    parameters: 's: str, ch: str',
    description: 'returns how many times the single character ch occurs in the string s (upper and lower case are different characters)',
    reference: 'def count_char(s: str, ch: str) -> int:\n    return s.count(ch)\n',
    expected: ([s = '', ch = '']) => [...s].filter((character) => character === ch).length,
  },
  count_vowels: {
    signature: 'count_vowels(s: str) -> int',
    parameters: 's: str',
    description: 'returns how many vowels the string s contains, counting only a, e, i, o, u in lower or upper case (accented letters such as é do not count)',
    reference: "def count_vowels(s: str) -> int:\n    return sum(1 for c in s if c in 'aeiouAEIOU')\n",
    expected: ([s = '']) => [...s].filter(isVowel).length,
  },
};

/** How many of the first tests are visible examples. */
const visibleExamples = 2;
/** The most tests any task needs to hold all its witnesses (count_vowels: 9). */
const minimumTests = 9;

// ---------------------------------------------------------------------------
// Witness pools, filtered once from the word lists by the property each must have
// ---------------------------------------------------------------------------

const lowerVowels = [...'aeiou'];
const accentedVowels = 'áàâäãåéèêëíìîïóòôöõúùûü';
const capitalize = (word: string): string => (word[0] ?? '').toUpperCase() + word.slice(1);
const vowelCount = (word: string): number => [...word].filter(isVowel).length;
const letterCount = (word: string): number => [...word].filter((character) => /\p{L}/u.test(character)).length;

function pool(name: string, words: readonly string[]): readonly string[] {
  if (words.length === 0) throw new Error(`python-string-count: the ${name} pool is empty; check text-samples.ts`);
  return words;
}

/** Capitalised, starting with a vowel, with as many vowels as consonants nowhere (so counting consonants differs). */
const capitalVowelWords = pool(
  'capital vowel',
  asciiWords.filter((word) => lowerVowels.includes(word[0]?.toLowerCase() ?? '') && vowelCount(word) * 2 !== letterCount(word)).map(capitalize),
);
const trailingVowelWords = pool('trailing vowel', asciiWords.filter((word) => isVowel(word.at(-1) ?? '')));
const yWords = pool('y', asciiWords.filter((word) => word.toLowerCase().includes('y')));
const accentedVowelWords = pool('accented vowel', unicodeWords.filter((word) => [...word.toLowerCase()].some((character) => accentedVowels.includes(character))));
const repeatedVowelWords = pool(
  'repeated vowel',
  asciiWords.filter((word) => lowerVowels.some((vowel) => [...word].filter((character) => character === vowel || character === vowel.toUpperCase()).length >= 2)),
);
/** Words with a letter that occurs at least twice, exactly as written. */
const repeatedLetterWords = pool('repeated letter', asciiWords.filter((word) => repeatedLetters(word).length > 0));

function repeatedLetters(word: string): string[] {
  const characters = [...word];
  return [...new Set(characters.filter((character) => characters.indexOf(character) !== characters.lastIndexOf(character)))];
}

/** Characters absent from every sample word except a few; one not in `s` is chosen. */
const absentCandidates = [...'xqzjkw'];

function absentFrom(s: string, random: Random): string {
  const characters = new Set(s);
  const absent = absentCandidates.filter((character) => !characters.has(character));
  return pickOne(random, absent.length > 0 ? absent : ['#']);
}

// ---------------------------------------------------------------------------
// Test inputs per task
// ---------------------------------------------------------------------------

/** A witness: draws its arguments; the comment at each use says which mistake it exposes. */
type Draw = (random: Random) => string[];

const single = (draw: (random: Random) => string): Draw => (random) => [draw(random)];

function plan(task: Task): Draw[] {
  switch (task) {
    case 'count_chars':
      // Non-ASCII catches UTF-8 bytes, emoji UTF-16 units, the phrase skipped spaces or words.
      return [single(asciiWord), single(asciiPhrase), () => [''], single(unicodeWord), single(emojiString)];
    case 'count_char':
      return [
        (random) => {
          const word = asciiWord(random);
          return [word, pickOne(random, [...word])];
        },
        // The phrase's last character: a loop that stops one short misses it.
        (random) => {
          const phrase = asciiPhrase(random);
          return [phrase, [...phrase].at(-1) ?? 'a'];
        },
        (random) => ['', absentFrom('', random)],
        (random) => {
          const word = unicodeWord(random);
          const wide = [...word].filter((character) => character.charCodeAt(0) > 127);
          return [word, pickOne(random, wide.length > 0 ? wide : [...word])];
        },
        (random) => {
          const s = emojiString(random);
          const marks = [...s].filter((character) => (character.codePointAt(0) ?? 0) > 0xffff);
          return [s, pickOne(random, marks.length > 0 ? marks : [...s])];
        },
        // The lower-case twin of the capital: counting case-insensitively finds one too many.
        (random) => {
          const word = capitalize(asciiWord(random));
          return [word, word[0]!.toLowerCase()];
        },
        // A letter that occurs twice or more: "is it there?" (0 or 1) is not a count.
        (random) => {
          const word = pickOne(random, repeatedLetterWords);
          return [word, pickOne(random, repeatedLetters(word))];
        },
      ];
    case 'count_vowels':
      return [
        single(asciiWord),
        single(asciiPhrase),
        () => [''],
        // é, ü, å… are not among the five vowels.
        (random) => [pickOne(random, accentedVowelWords)],
        single(emojiString),
        // An upper-case vowel first: 'aeiou' alone misses it, so does a loop from index 1.
        (random) => [pickOne(random, capitalVowelWords)],
        // A vowel last: a loop that stops one short misses it.
        (random) => [pickOne(random, trailingVowelWords)],
        // y is not a vowel here.
        (random) => [random.next() < 0.5 ? pickOne(random, yWords) : `${pickOne(random, yWords)} ${asciiWord(random)}`],
        // The same vowel twice: counting distinct vowels gives less.
        (random) => [pickOne(random, repeatedVowelWords)],
      ];
    default: {
      const unreachable: never = task;
      throw new Error(`unknown task ${String(unreachable)}`);
    }
  }
}

/** Fill-ins past the witnesses, up to the requested count. */
const extraInputs: Array<(random: Random) => string> = [asciiWord, asciiPhrase, unicodeWord, emojiString];

function extraFor(task: Task): Draw {
  return (random) => {
    const s = pickOne(random, extraInputs)(random);
    if (task !== 'count_char') return [s];
    const characters = [...s].filter((character) => character !== ' ');
    return [s, characters.length > 0 ? pickOne(random, characters) : absentFrom(s, random)];
  };
}

/** Draws `draw` until its arguments differ from every test so far (a repeat would test nothing new). */
function distinct(draw: Draw, random: Random, taken: Set<string>): string[] {
  let args = draw(random);
  for (let attempt = 0; attempt < 20 && taken.has(JSON.stringify(args)); attempt++) args = draw(random);
  taken.add(JSON.stringify(args));
  return args;
}

function drawInputs(task: Task, testCount: number, random: Random): string[][] {
  const draws = plan(task);
  const extras = Math.max(0, testCount - draws.length - (task === 'count_char' ? 1 : 0));
  for (let index = 0; index < extras; index++) draws.push(extraFor(task));
  const taken = new Set<string>();
  const inputs = draws.map((draw) => distinct(draw, random, taken));
  // The last count_char test asks for a character the string does not hold: str.find says −1.
  if (task === 'count_char') {
    const word = asciiWord(random);
    inputs.push([word, absentFrom(word, random)]);
  }
  return inputs;
}

export const pythonStringCountGenerator = defineCodeGenerator({
  name: 'python-string-count',
  cases,
  features: [],
  placeholders: ['signature', 'description', 'functionName', 'exampleCall', 'exampleResult'],
  constraints: z
    .strictObject({ testCount: z.number().int().min(minimumTests).max(12).default(minimumTests) })
    .default({ testCount: minimumTests }),
  generate(constraints, task, random) {
    return { task, inputs: drawInputs(task, constraints.testCount, random) };
  },
  describe({ task, inputs }) {
    const example = inputs[0] ?? [];
    return {
      features: {},
      placeholders: {
        signature: tasks[task].signature,
        description: tasks[task].description,
        functionName: task,
        exampleCall: `${task}(${example.map(pythonLiteral).join(', ')})`,
        exampleResult: String(tasks[task].expected(example)),
      },
      contentKey: `${task}:${JSON.stringify(inputs)}`,
      answer: tasks[task].reference,
    };
  },
  code({ task, inputs }): CodeTask {
    return {
      language: 'python',
      functionName: task,
      starterCode: `def ${task}(${tasks[task].parameters}) -> int:\n    # Your code here\n    pass\n`,
      tests: inputs.map((args, index) => ({ args, expected: tasks[task].expected(args), ...(index < visibleExamples ? { visible: true } : {}) })),
    };
  },
});
