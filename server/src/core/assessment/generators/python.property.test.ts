/**
 * Property tests of the Python skills. Expected values are recomputed with UTF-16 surrogate
 * arithmetic (a low surrogate continues a character, anything else starts one), which is how
 * Python counts: one per code point.
 */
import { describeSkillProperties } from '../../../../test/support/assessment-support';
import type { GeneratedItem } from '../item-builder';

function pythonLength(s: string): number {
  let count = 0;
  for (let index = 0; index < s.length; index++) {
    const unit = s.charCodeAt(index);
    if (unit < 0xdc00 || unit > 0xdfff) count++;
  }
  return count;
}
const hasAstral = (s: string): boolean => /[\ud800-\udbff][\udc00-\udfff]/.test(s);
const isAscii = (s: string): boolean => [...s].every((character) => character.charCodeAt(0) < 128);
const pythonLiteral = (s: string): string => `'${s}'`; // the samples hold no quotes or backslashes

describeSkillProperties('PROG.PYTHON.STRING.LEN', {
  caseOrder: ['ascii_word', 'with_spaces', 'non_ascii', 'emoji'],
  check(item) {
    const text = String(item.params['text']);
    const expectedCase = hasAstral(text) ? 'emoji' : !isAscii(text) ? 'non_ascii' : text.includes(' ') ? 'with_spaces' : 'ascii_word';
    const problems: string[] = [];
    if (item.correctAnswer !== String(pythonLength(text))) problems.push(`answer ${item.correctAnswer}, len ${pythonLength(text)}`);
    if (item.params['case'] !== expectedCase) problems.push(`expected ${expectedCase}`);
    if (!item.stem.includes(`len(${pythonLiteral(text)})`)) problems.push('stem lacks the literal');
    return problems;
  },
});

const vowelCount = (s: string): number => s.match(/[aeiou]/gi)?.length ?? 0;
const occurrences = (s: string, ch: string): number => s.split(ch).length - 1;

describeSkillProperties('PROG.PYTHON.STRING.COUNT', {
  caseOrder: ['count_chars', 'count_char', 'count_vowels'],
  check(item) {
    const problems: string[] = [];
    const task = item.params['case'];
    const code = item.code;
    if (code === undefined || item.kind !== 'code') return ['not a code item'];
    if (code.functionName !== task || !code.starterCode.startsWith(`def ${String(task)}(`)) problems.push('function name does not match the task');
    const inputs = code.tests.map((test) => String(test.args[0]));
    if (!inputs.includes('')) problems.push('no empty-string test');
    if (!inputs.some((input) => !isAscii(input) && !hasAstral(input))) problems.push('no non-ASCII test');
    if (!inputs.some(hasAstral)) problems.push('no emoji test');
    for (const test of code.tests) {
      const [s = '', ch = ''] = test.args.map(String);
      const expected = task === 'count_chars' ? pythonLength(s) : task === 'count_char' ? occurrences(s, ch) : vowelCount(s);
      if (test.expected !== expected) problems.push(`${String(task)}(${JSON.stringify(test.args)}) expected ${expected}, got ${String(test.expected)}`);
      if (task === 'count_char' && (test.args.length !== 2 || pythonLength(ch) !== 1)) problems.push('count_char needs one character');
    }
    if (task === 'count_char' && !code.tests.some((test) => test.expected === 0 && test.args[0] !== '')) problems.push('no absent-character test');
    const example = code.tests[0];
    if (example === undefined || !item.stem.includes(`returns ${String(example.expected)}.`)) problems.push('stem example does not match a test');
    if (code.tests.map((test) => test.visible === true).join() !== code.tests.map((_, index) => index < 2).join()) problems.push('the visible examples are not the first two tests');
    problems.push(...missingWitnesses(String(task), code.tests.map((test) => test.args.map(String))));
    return problems;
  },
});

const accented = /[áàâäãåéèêëíìîïóòôöõúùûü]/iu;
const vowelLetters = 'aeiouAEIOU';

/**
 * The discriminating inputs each task must have (issue 25: a wrong solution must fail a test),
 * recognised here from the inputs alone. The mutants that each kind of input exposes are run
 * in the sandbox by server/test/assessment-mutants.test.ts.
 */
function missingWitnesses(task: string, inputs: string[][]): string[] {
  const has = (what: string, found: boolean) => (found ? [] : [`no test with ${what}`]);
  const strings = inputs.map(([s = '']) => s);
  switch (task) {
    case 'count_vowels':
      return [
        ...has('an upper-case vowel', strings.some((s) => /[AEIOU]/u.test(s))),
        ...has('a vowel first', strings.some((s) => vowelLetters.includes(s[0] ?? '-'))),
        ...has('a vowel last', strings.some((s) => vowelLetters.includes(s.at(-1) ?? '-'))),
        ...has('a y', strings.some((s) => /y/iu.test(s))),
        ...has('an accented vowel', strings.some((s) => accented.test(s))),
        ...has('a repeated vowel', strings.some((s) => [...'aeiou'].some((vowel) => s.toLowerCase().split(vowel).length > 2))),
      ];
    case 'count_char':
      return [
        ...has('the character last', inputs.some(([s = '', ch = '']) => s !== '' && s.endsWith(ch))),
        ...has('the character in the other case', inputs.some(([s = '', ch = '']) => ch.toUpperCase() !== ch && s.includes(ch.toUpperCase()))),
        ...has('the character twice', inputs.some(([s = '', ch = '']) => occurrences(s, ch) >= 2)),
      ];
    default:
      return [...has('a space', strings.some((s) => s.includes(' '))), ...has('a non-empty string', strings.some((s) => s !== ''))];
  }
}
