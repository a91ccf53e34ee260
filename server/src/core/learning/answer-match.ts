/**
 * Lexical judging of a learner's answer against a check question's expected answer and its
 * accepted variants (SPEC §4.4 "Offline"), deterministic. Short answers (a number, an
 * address, a word or two) must appear whole in the message, not negated ("not 1/2"); longer
 * ones are judged by the share of their content words (stemmed) the message covers. The
 * engine also uses `mentionsAnswer` to keep an expected answer out of replies before the
 * explain phase.
 */
import { stemmer } from 'stemmer';

const numberWords: Record<string, string> = {
  zero: '0', one: '1', two: '2', three: '3', four: '4', five: '5', six: '6', seven: '7', eight: '8', nine: '9', ten: '10',
  eleven: '11', twelve: '12', thirteen: '13', fourteen: '14', fifteen: '15', sixteen: '16', seventeen: '17', eighteen: '18',
  nineteen: '19', twenty: '20', thirty: '30', forty: '40', fifty: '50', sixty: '60', seventy: '70', eighty: '80', ninety: '90', hundred: '100',
};

const stopwords = new Set(
  'a an the is are was were be been it its of to in on at for and or but with as by that this these those there their they them i you we he she my your our so do does did can could would should will just than then'.split(' '),
);
const negations = new Set(['not', 'no', 'never', "isn't", 'isnt', "aren't", 'arent', "don't", 'dont', "doesn't", 'doesnt', 'neither', 'nor']);

/** Lowercase tokens; punctuation inside numbers and addresses (1/2, 192.168.1.0, /24, 3.5) is kept. */
export function answerTokens(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[’‘`]/g, "'")
    .replace(/(?<![\p{L}\p{N}])'|'(?![\p{L}\p{N}])/gu, ' ')
    .split(/[^\p{L}\p{N}./:'%-]+/u)
    // The lookbehind starts the trailing match where the run starts, so a long run is read once, not quadratically.
    .map((token) => token.replace(/^[.:/-]+|(?<![.:-])[.:-]+$/g, ''))
    .filter(Boolean)
    .map((token) => numberWords[token] ?? token);
}

function containsSequence(haystack: readonly string[], needle: readonly string[]): number {
  if (needle.length === 0) return -1;
  outer: for (let start = 0; start + needle.length <= haystack.length; start++) {
    for (let offset = 0; offset < needle.length; offset++) if (haystack[start + offset] !== needle[offset]) continue outer;
    return start;
  }
  return -1;
}

const content = (tokens: readonly string[]) => tokens.filter((token) => !stopwords.has(token));
const stemmed = (tokens: readonly string[]) => tokens.map((token) => (/^\p{L}+$/u.test(token) ? stemmer(token) : token));

/** Coverage needed of a long answer's content words. */
export const longAnswerCoverage = 0.6;
/** Answers up to this many content words must appear whole. */
export const shortAnswerWords = 3;

/** Whether `answer` shows `expected` (one of the expected forms). */
function matchesOne(answerTokensList: readonly string[], expected: string): boolean {
  const wanted = content(answerTokens(expected));
  if (wanted.length === 0) return false;
  if (wanted.length <= shortAnswerWords) {
    const tokens = content(answerTokensList);
    const at = containsSequence(stemmed(tokens), stemmed(wanted));
    if (at < 0) return false;
    // "not 1/2", "it isn't 24": a negation just before the answer takes it back.
    const before = answerTokensList.slice(0, answerTokensList.indexOf(tokens[at]!)).slice(-3);
    return !before.some((token) => negations.has(token));
  }
  const have = new Set(stemmed(content(answerTokensList)));
  const need = stemmed(wanted);
  const hits = need.filter((token) => have.has(token)).length;
  const negated = answerTokensList.some((token) => negations.has(token)) && !answerTokens(expected).some((token) => negations.has(token));
  return !negated && hits / need.length >= longAnswerCoverage;
}

/** Whether the learner's message gives the expected answer or one of the accepted variants. */
export function judgeAnswer(message: string, expectedAnswer: string, acceptedAnswers: readonly string[] = []): boolean {
  const tokens = answerTokens(message);
  return [expectedAnswer, ...acceptedAnswers].some((expected) => matchesOne(tokens, expected));
}

/** Whether `text` states `answer` (its content words, in order): the reply guard before the explain phase. */
export function mentionsAnswer(text: string, answer: string): boolean {
  const wanted = content(answerTokens(answer));
  if (wanted.length === 0) return false;
  // A one-letter answer ("a", "I") is ordinary prose; a one-digit one ("5") is policed.
  if (wanted.length === 1 && /^\p{L}$/u.test(wanted[0]!)) return false;
  return containsSequence(stemmed(content(answerTokens(text))), stemmed(wanted)) >= 0;
}

/** A masked form of an answer for the hint phase: each token keeps its first character ("1__.___._._"). */
export function maskedAnswer(answer: string): string {
  const alnum = answer.replace(/[^\p{L}\p{N}]/gu, '');
  if (alnum.length <= 2) return `${alnum.length} character${alnum.length === 1 ? '' : 's'} long`;
  return answer.replace(/[\p{L}\p{N}]+/gu, (word) => word[0] + '_'.repeat(word.length - 1));
}
