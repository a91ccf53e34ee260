/**
 * "Write a Python function that counts…" — a small family of string-counting tasks, scored
 * by running generated tests in the sandbox. Every task's tests include the empty string, an
 * ASCII word, a phrase with spaces, a non-ASCII word and an emoji string; expected values are
 * computed here over code points, which is what Python's `len` and `str.count` count.
 */
import { z } from 'zod';
import type { CodeTask } from '../generator';
import { defineCodeGenerator } from '../generator';
import type { Random } from '../random';
import { pickOne } from '../random';
import { asciiPhrase, asciiWord, codePointCount, emojiString, pythonLiteral, unicodeWord } from './text-samples';

const cases = ['count_chars', 'count_char', 'count_vowels'] as const;
type Task = (typeof cases)[number];

const vowels = 'aeiouAEIOU';

interface TaskDefinition {
  signature: string;
  description: string;
  reference: string;
  expected(args: readonly string[]): number;
}

const tasks: Record<Task, TaskDefinition> = {
  count_chars: {
    signature: 'count_chars(s: str) -> int',
    description: 'returns the number of characters in the string s',
    reference: 'def count_chars(s: str) -> int:\n    return len(s)\n',
    expected: ([s = '']) => codePointCount(s),
  },
  count_char: {
    signature: 'count_char(s: str, ch: str) -> int',
    description: 'returns how many times the single character ch occurs in the string s',
    reference: 'def count_char(s: str, ch: str) -> int:\n    return s.count(ch)\n',
    expected: ([s = '', ch = '']) => [...s].filter((character) => character === ch).length,
  },
  count_vowels: {
    signature: 'count_vowels(s: str) -> int',
    description: 'returns how many vowels the string s contains, counting only a, e, i, o, u in lower or upper case (accented letters such as é do not count)',
    reference: "def count_vowels(s: str) -> int:\n    return sum(1 for c in s if c in 'aeiouAEIOU')\n",
    expected: ([s = '']) => [...s].filter((character) => vowels.includes(character)).length,
  },
};

/** The inputs every test set covers, in order; `extra` fills up to the requested count. */
const requiredInputs: Array<(random: Random) => string> = [() => '', asciiWord, asciiPhrase, unicodeWord, emojiString];
const extraInputs: Array<(random: Random) => string> = [asciiWord, asciiPhrase, unicodeWord, emojiString];
/** The example in the stem is the plain ASCII word: the edge cases stay for the tests. */
const exampleIndex = 1;

function argumentsFor(task: Task, s: string, random: Random, absentCharacter: boolean): string[] {
  if (task !== 'count_char') return [s];
  const characters = [...s].filter((character) => character !== ' ');
  if (absentCharacter || characters.length === 0) {
    const absent = [...'xqzjkw'].filter((character) => !characters.includes(character));
    return [s, pickOne(random, absent)];
  }
  return [s, pickOne(random, characters)];
}

export const pythonStringCountGenerator = defineCodeGenerator({
  name: 'python-string-count',
  cases,
  features: [],
  placeholders: ['signature', 'description', 'functionName', 'exampleCall', 'exampleResult'],
  constraints: z.strictObject({ testCount: z.number().int().min(requiredInputs.length).max(12).default(6) }).default({ testCount: 6 }),
  generate(constraints, task, random) {
    const inputs: string[][] = [];
    for (let index = 0; index < constraints.testCount; index++) {
      const makeInput = requiredInputs[index] ?? pickOne(random, extraInputs);
      // For count_char the last test asks for a character that does not occur.
      const absent = index === constraints.testCount - 1;
      inputs.push(argumentsFor(task, makeInput(random), random, absent));
    }
    return { task, inputs };
  },
  describe({ task, inputs }) {
    const example = inputs[exampleIndex] ?? [];
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
    const parameters = task === 'count_char' ? 's: str, ch: str' : 's: str';
    return {
      language: 'python',
      functionName: task,
      starterCode: `def ${task}(${parameters}) -> int:\n    # Your code here\n    pass\n`,
      tests: inputs.map((args) => ({ args, expected: tasks[task].expected(args) })),
    };
  },
});
