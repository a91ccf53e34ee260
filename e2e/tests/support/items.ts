/**
 * Answers to assessment items worked out from the stem alone, the way a learner would — never
 * from the server's generators — so a scoring bug cannot hide behind shared code.
 * Stem wordings: server/blueprints/skills/*.json (`stemTemplates`).
 */

const symbolic = /(\d+)\s*([+−×÷])\s*(\d+)/u;
const worded: Array<{ pattern: RegExp; compute(first: number, second: number): number }> = [
  { pattern: /sum of (\d+) and (\d+)/iu, compute: (a, b) => a + b },
  { pattern: /product of (\d+) and (\d+)/iu, compute: (a, b) => a * b },
  { pattern: /subtract (\d+) from (\d+)/iu, compute: (subtrahend, minuend) => minuend - subtrahend },
  { pattern: /divide (\d+) by (\d+)/iu, compute: (dividend, divisor) => dividend / divisor },
];

/** The answer to "What is 47 + 38?", "Calculate: 84 ÷ 4 = ?", "Subtract 19 from 73." and the like. */
export function arithmeticAnswer(stem: string): number {
  const match = symbolic.exec(stem);
  if (match) {
    const a = Number(match[1]);
    const b = Number(match[3]);
    switch (match[2]) {
      case '+':
        return a + b;
      case '−':
        return a - b;
      case '×':
        return a * b;
      case '÷':
        return exactQuotient(a, b, stem);
    }
  }
  for (const { pattern, compute } of worded) {
    const found = pattern.exec(stem);
    if (found) {
      const result = compute(Number(found[1]), Number(found[2]));
      if (!Number.isInteger(result)) throw new Error(`"${stem}" has no whole-number answer`);
      return result;
    }
  }
  throw new Error(`not an arithmetic stem: "${stem}"`);
}

function exactQuotient(dividend: number, divisor: number, stem: string): number {
  if (dividend % divisor !== 0) throw new Error(`"${stem}" is not an exact division`);
  return dividend / divisor;
}

/** The section of MATH-FUNDAMENTALS-L1 a stem belongs to, from its operation. */
export function arithmeticSection(stem: string): 'Addition' | 'Subtraction' | 'Multiplication' | 'Division' {
  if (/\+|sum of/iu.test(stem)) return 'Addition';
  if (/−|subtract/iu.test(stem)) return 'Subtraction';
  if (/×|product of/iu.test(stem)) return 'Multiplication';
  if (/÷|divide/iu.test(stem)) return 'Division';
  throw new Error(`not an arithmetic stem: "${stem}"`);
}

/** Python 3's `len` of the string literal in "What does len('café') return in Python 3?": code points. */
export function pythonLenAnswer(stem: string): number {
  const match = /len\((['"])((?:\\.|(?!\1).)*)\1\)/u.exec(stem);
  if (!match) throw new Error(`no len('…') in "${stem}"`);
  const text = (match[2] ?? '').replace(/\\(.)/gu, '$1');
  return [...text].length;
}

export type CountingTask = 'count_chars' | 'count_char' | 'count_vowels';

/** Which function the stem asks for, read from its signature and checked against its description. */
export function countingTask(stem: string): CountingTask {
  if (/count_vowels\(s: str\) -> int/u.test(stem) && /vowels/u.test(stem)) return 'count_vowels';
  if (/count_char\(s: str, ch: str\) -> int/u.test(stem) && /how many times/u.test(stem)) return 'count_char';
  if (/count_chars\(s: str\) -> int/u.test(stem) && /number of characters/u.test(stem)) return 'count_chars';
  throw new Error(`not a string-counting task: "${stem}"`);
}

/** A working solution, written from the task's description. */
export function countingSolution(task: CountingTask): string {
  switch (task) {
    case 'count_chars':
      return 'def count_chars(s: str) -> int:\n    return len(s)\n';
    case 'count_char':
      return 'def count_char(s: str, ch: str) -> int:\n    total = 0\n    for c in s:\n        if c == ch:\n            total += 1\n    return total\n';
    case 'count_vowels':
      return 'def count_vowels(s: str) -> int:\n    return sum(1 for c in s if c in "aeiouAEIOU")\n';
  }
}

/**
 * A plausible wrong solution: right for ASCII strings, wrong for anything else (it counts
 * UTF-8 bytes). The task's tests always include an empty string, ASCII words, a non-ASCII
 * word and emoji, so it passes some tests and fails others: partial credit.
 */
export function bytesNotCharactersSolution(task: CountingTask): string {
  const parameters = task === 'count_char' ? 's: str, ch: str' : 's: str';
  const body =
    task === 'count_chars'
      ? 'len(s.encode("utf-8"))'
      : task === 'count_char'
        ? 's.count(ch) if s.isascii() else len(s.encode("utf-8"))'
        : 'sum(1 for c in s if c in "aeiouAEIOU") if s.isascii() else len(s.encode("utf-8"))';
  return `def ${task}(${parameters}) -> int:\n    return ${body}\n`;
}
