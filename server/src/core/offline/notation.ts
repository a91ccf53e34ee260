/**
 * Formulas as written ("O(log n)", "a² + b² = c²", "assets = liabilities + equity"), for the
 * contradiction model (contradictions.ts): the word matcher drops their symbols, so "O(n)" for
 * "O(log n)" or "liabilities - equity" for "liabilities + equity" would read as the point said
 * again. A formula is compared whole, after normalising its spelling (case, spaces, "²" as
 * "^2", "−" and "·"); two formulas speak of the same thing when they have the same head — the
 * left side of an equation, or the function applied ("O(", "P(").
 */

/** A formula found in a text: its normalised form and its head. */
export interface Formula {
  text: string;
  head: string | null;
  /** Where it starts in the text (a character offset). */
  start: number;
}

const OPERATORS = new Set(['=', '+', '-', '*', '/', '^', '<', '>']);
const TOKEN = /[a-z]+|\d+(?:\.\d+)?|[=+\-*/^()<>²³]|\s+|./gu;

/** One character for one, so that offsets stay the text's own. */
function normalise(raw: string): string {
  return raw
    .toLowerCase()
    .replace(/[−–]/g, '-')
    .replace(/[·×]/g, '*')
    .replace(/≤/g, '<')
    .replace(/≥/g, '>');
}

const isOperand = (token: string) => /^[a-z\d]/.test(token);
/** A word of one letter, a number, or a symbol: what a minus or a slash joins in a formula ("n-1", "4/4"; not "right-angled"). */
const isSymbolic = (token: string | undefined) => token !== undefined && (token.length === 1 || /^\d/.test(token));

function headOf(text: string): string | null {
  const equals = text.indexOf('=');
  if (equals > 0) return text.slice(0, equals + 1);
  const call = /^[a-z]+\(/.exec(text);
  return call ? call[0] : null;
}

/** The formulas of a text, in order: runs of operands joined by operators or a function's brackets. */
export function formulasOf(raw: string): Formula[] {
  const tokens = normalise(raw).match(TOKEN) ?? [];
  const offsets: number[] = [];
  tokens.reduce((offset, token) => (offsets.push(offset), offset + token.length), 0);
  const formulas: Formula[] = [];
  let run: string[] = [];
  let start = 0;
  let depth = 0;
  let operators = 0;
  const push = (token: string, at: number) => {
    if (run.length === 0) start = offsets[at]!;
    run.push(token);
  };
  const close = () => {
    while (run.length > 0 && OPERATORS.has(run.at(-1)!)) run.pop();
    const operands = run.filter(isOperand).length;
    if (operands >= 2 && operators > 0 && depth === 0) {
      // A product written with a sign or without one is the same: "n·x", "n*x", "nx".
      // …and so is a function's one argument in brackets or not, inside another's: "O(log(n))", "O(log n)".
      const text = run.join('').replace(/\*/g, '').replace(/(?<=[a-z])\(([a-z\d]+)\)(?=[^(]*\))/g, '$1');
      formulas.push({ text, head: headOf(text), start });
    }
    run = [];
    depth = 0;
    operators = 0;
  };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const spaced = /^\s/.test(tokens[i - 1] ?? ' ');
    if (/^\s+$/.test(token)) continue;
    const previous = run.at(-1);
    if ((token === '²' || token === '³') && previous !== undefined && !spaced) {
      push(token === '²' ? '^2' : '^3', i);
      operators += 1;
      continue;
    }
    if (OPERATORS.has(token)) {
      const after = tokens[i + 1];
      const next = after !== undefined && /^\s+$/.test(after) ? tokens[i + 2] : after;
      // A hyphen or slash between words is spelling ("right-angled", "and/or"), not an operator.
      const symbolic = (token !== '-' && token !== '/') || spaced || (isSymbolic(previous) && isSymbolic(next)) || (previous !== undefined && !isOperand(previous));
      if (!symbolic) {
        close();
        continue;
      }
      if (previous === undefined && token !== '-') continue;
      push(token, i);
      operators += 1;
      continue;
    }
    if (token === '(') {
      // A bracket right after a word applies it ("O(", "P("); after a space it opens an aside.
      if (previous === undefined || spaced) {
        close();
        continue;
      }
      push(token, i);
      depth += 1;
      operators += 1;
      continue;
    }
    if (token === ')') {
      if (depth === 0) {
        close();
        continue;
      }
      push(token, i);
      depth -= 1;
      continue;
    }
    if (!isOperand(token)) {
      close();
      continue;
    }
    // Operands follow each other inside a function's brackets ("log n"), or written together ("3x").
    if (previous !== undefined && (isOperand(previous) || previous === ')' || previous.startsWith('^')) && spaced && depth === 0) close();
    push(token, i);
  }
  close();
  return formulas;
}

/**
 * A formula of the learner's with the head of one of the point's but another body, where the
 * point's is not written: "O(n)" for "O(log n)", "assets = liabilities - equity". `about` says
 * which of the learner's formulas speak of the point (in a multi-point answer, not every one).
 */
export function otherFormula<T extends Formula>(point: readonly Formula[], learner: readonly T[], about: (formula: T) => boolean = () => true): string | null {
  for (const meant of point) {
    if (meant.head === null || learner.some((said) => said.text === meant.text)) continue;
    const other = learner.find((said) => said.head === meant.head && about(said));
    if (other) return `writes "${other.text}" where the point has "${meant.text}"`;
  }
  return null;
}
