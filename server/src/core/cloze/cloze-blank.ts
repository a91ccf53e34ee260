/**
 * Which term a cloze drill blanks in a point (SPEC §4.6), pure and deterministic for a given
 * point:
 * - a question/answer point (an Anki-style card, or one line holding both — the offline
 *   evaluator's reading, offline/question-answer.ts): the question, with its answer blanked; a
 *   long answer (a definition) keeps its words and loses its rarest one instead;
 * - any other point: its rarest content word in general English (WordNet's sense-tagged counts,
 *   the data the offline evaluator weighs words by), never a stop word, never a number unless
 *   the point has nothing else. A short lowercase word WordNet does not know at all ("unless",
 *   "cannot", a quoted "der") is a function word or a code word, not the point's idea: it comes
 *   last. Ties go to the longer word, then the earlier one. Every occurrence of the chosen term
 *   is blanked, so the rest of the sentence never gives it away.
 * A point made only of stop words has no blank (null): a drill leaves it out.
 */
import { isStopword, stem, wordSpans, type WordSpan } from '../offline/lexical';
import { isCard, parseQuestionAnswer } from '../offline/question-answer';
import { lemmasOf } from '../offline/text-analysis';
import { wordNet } from '../offline/wordnet';

/** What stands for the blanked term in a prompt. */
export const blankMark = '_____';

/** A point as a drill asks it: the prompt with its blank, and the term blanked. */
export interface Blank {
  prompt: string;
  answer: string;
}

/** Answers up to this many words are blanked whole; a longer one loses only its rarest word. */
const wholeAnswerMaxWords = 4;

const isNumberOnly = (token: string) => /^[\p{N}.,]+$/u.test(token);
const apostrophes = new Set(["'", '’']);

function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/** Unknown lowercase words up to this length rank last (see the header). */
const unknownWordMaxLength = 6;

/** How common a word is in general English: its most frequent reading ("stored" is as common as "store"). */
function frequencyOf(token: string): number {
  const wn = wordNet();
  return lemmasOf(token).reduce((max, lemma) => Math.max(max, wn.frequency(lemma)), 0);
}

/** A short lowercase word WordNet has never heard of: a function word it leaves out, or a code word. */
function isUnknownShortWord(span: WordSpan): boolean {
  const token = span.tokens[0]!;
  if (token.length > unknownWordMaxLength || /\p{N}/u.test(token) || !/^\p{Ll}/u.test(span.raw)) return false;
  const wn = wordNet();
  return !lemmasOf(token).some((lemma) => wn.has(lemma));
}

/**
 * The words that may be blanked: one token each, not a stop word and not part of a contraction
 * or possessive ("don't" splits into "don" and "t", neither of which is a word of the point).
 */
function candidates(text: string): WordSpan[] {
  return wordSpans(text).filter((span) => {
    if (span.tokens.length !== 1) return false;
    if (apostrophes.has(text[span.end] ?? '') || apostrophes.has(text[span.start - 1] ?? '')) return false;
    return !isStopword(span.tokens[0]!);
  });
}

/** The rarest content word of `text` with every occurrence of it blanked; null when it has none. */
export function blankRarestWord(text: string): Blank | null {
  const spans = candidates(text);
  const words = spans.filter((span) => !isNumberOnly(span.tokens[0]!));
  const pool = words.length > 0 ? words : spans;
  let best: { span: WordSpan; unknown: boolean; frequency: number } | null = null;
  for (const span of pool) {
    const unknown = isUnknownShortWord(span);
    const frequency = frequencyOf(span.tokens[0]!);
    const better =
      best === null ||
      (unknown !== best.unknown ? !unknown : frequency < best.frequency || (frequency === best.frequency && span.tokens[0]!.length > best.span.tokens[0]!.length));
    if (better) best = { span, unknown, frequency };
  }
  if (!best) return null;
  const chosen = best.span.tokens[0]!;
  const chosenStem = stem(chosen);
  let prompt = '';
  let at = 0;
  for (const span of candidates(text)) {
    const token = span.tokens[0]!;
    if (token !== chosen && stem(token) !== chosenStem) continue;
    prompt += text.slice(at, span.start) + blankMark;
    at = span.end;
  }
  prompt += text.slice(at);
  return { prompt: prompt.trim(), answer: best.span.raw };
}

/** A question with its answer's place: "What is …? _____", "Capital of France → _____". */
function questionPrompt(question: string, answerPart: string): string {
  const asked = question.trim();
  return /[?？]$/.test(asked) ? `${asked} ${answerPart}` : `${asked} → ${answerPart}`;
}

function questionBlank(question: string, answer: string): Blank | null {
  const given = answer.trim();
  if (wordCount(given) <= wholeAnswerMaxWords) return { prompt: questionPrompt(question, blankMark), answer: given };
  const inner = blankRarestWord(given);
  return inner ? { prompt: questionPrompt(question, inner.prompt), answer: inner.answer } : null;
}

/** The blank of one point (see the header); null when the point has no word to blank. */
export function chooseBlank(point: { content: string; context: string | null }): Blank | null {
  const content = point.content.trim();
  if (!content) return null;
  if (isCard(point)) return questionBlank(point.context!, content);
  const parsed = parseQuestionAnswer(content);
  if (parsed) return questionBlank(parsed.question, parsed.answer);
  return blankRarestWord(content);
}
