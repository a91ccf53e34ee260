/**
 * A recall point written as a question and its answer (issue 28 item 3): an Anki card's
 * front and back (imported as context and content), or one line that holds both —
 * "Capital of France → Paris", "Q: What is the powerhouse of the cell? A: the mitochondria",
 * "What is the chemical formula of water? H2O". Such a point is cued by its question and
 * recalled by its answer, however short; the offline tutor and evaluator see it as
 * `{ content: answer, context: question }`, the same shape an imported Anki card has.
 */

export interface QuestionAnswer {
  question: string;
  answer: string;
}

const arrows = [' → ', ' -> ', ' => ', ' ⇒ ', ' ⟶ ', '→', '->', '=>'];
/** An answer longer than this (in words) after a "?" is prose that happens to contain a question. */
const maxTrailingAnswerWords = 8;

function words(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/** "Q: … A: …" / "Question: … Answer: …", case-insensitive, read without backtracking. */
function labelled(content: string): QuestionAnswer | null {
  const lower = content.toLowerCase();
  let questionStart: number;
  if (lower.startsWith('q:')) questionStart = 2;
  else if (lower.startsWith('question:')) questionStart = 9;
  else return null;
  for (const label of [' a:', '\na:', ' answer:', '\nanswer:']) {
    const at = lower.indexOf(label, questionStart);
    if (at < 0) continue;
    const question = content.slice(questionStart, at).trim();
    const answer = content.slice(at + label.length).trim();
    return question && answer ? { question, answer } : null;
  }
  return null;
}

/** The question and answer a point's content holds, or null for an ordinary statement. */
export function parseQuestionAnswer(content: string): QuestionAnswer | null {
  const text = content.trim();
  const fromLabels = labelled(text);
  if (fromLabels) return fromLabels;
  for (const arrow of arrows) {
    const at = text.indexOf(arrow);
    if (at <= 0) continue;
    const question = text.slice(0, at).trim();
    const answer = text.slice(at + arrow.length).trim();
    // Only one arrow: "A → B → C" is a chain, not a card.
    if (question && answer && !answer.includes(arrow.trim())) return { question, answer };
  }
  const mark = text.indexOf('?');
  if (mark > 0 && mark < text.length - 1 && text.indexOf('?', mark + 1) < 0) {
    const question = text.slice(0, mark + 1).trim();
    const answer = text.slice(mark + 1).trim();
    if (answer && words(answer) <= maxTrailingAnswerWords && words(question) >= 2) return { question, answer };
  }
  return null;
}

/**
 * The point as the offline tutor and evaluator should read it: a question/answer point becomes
 * `{content: answer, context: question}`; a point with its own context (an Anki card) or an
 * ordinary statement is returned as it is.
 */
export function asRecallCard<T extends { content: string; context: string | null }>(point: T): T {
  if (point.context) return point;
  const parsed = parseQuestionAnswer(point.content);
  return parsed ? { ...point, content: parsed.answer, context: parsed.question } : point;
}

/** Answers up to this many words, given with a cue of their own, are recalled as a card's answer. */
const cardAnswerMaxWords = 4;

/**
 * A card: a short answer with its own question (an Anki front, or the question part of
 * "question → answer"). It is cued by its question, never by a cloze of its answer, and the
 * learner must say the answer — repeating the question's words is not recalling it.
 */
export function isCard(point: { content: string; context: string | null }): boolean {
  return Boolean(point.context && point.context.trim()) && words(point.content) <= cardAnswerMaxWords;
}

function wordKey(word: string): string {
  return word.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

/**
 * The learner's text without the words of the card's question (words the answer itself uses
 * stay): "it's the capital of France" says nothing about "Paris" once "capital" and "France"
 * are taken out.
 */
export function withoutQuestionWords(text: string, question: string, answer: string): string {
  const answerWords = new Set(answer.split(/\s+/).map(wordKey).filter(Boolean));
  const questionWords = new Set(question.split(/\s+/).map(wordKey).filter((word) => word && !answerWords.has(word)));
  return text
    .split(/\s+/)
    .filter((word) => !questionWords.has(wordKey(word)))
    .join(' ');
}

export type AnswerShape = 'number' | 'code' | 'name' | 'phrase';

/** What kind of answer a card has, so a choice offers answers of the same kind (names for names). */
export function answerShape(answer: string): AnswerShape {
  const text = answer.trim();
  if (/^[-+]?\d[\d,.]*\s*%?$/.test(text)) return 'number';
  const tokens = text.split(/\s+/);
  if (tokens.some((token) => /\p{L}/u.test(token) && /\d/.test(token))) return 'code';
  const content = tokens.filter((token) => !/^(?:the|a|an|of|de|la|le|von|van|and)$/i.test(token));
  if (content.length > 0 && content.every((token) => /^\p{Lu}/u.test(token))) return 'name';
  return 'phrase';
}

/** Numbers near a numeric answer, as plausible wrong choices ("1789" → 1788, 1790, 1791). */
export function nearbyNumbers(answer: string): string[] {
  const value = Number(answer.replace(/[,%\s]/g, ''));
  if (!Number.isFinite(value)) return [];
  const suffix = answer.trim().endsWith('%') ? '%' : '';
  const decimals = (answer.split('.')[1] ?? '').replace(/\D/g, '').length;
  const step = decimals > 0 ? 10 ** -decimals : 1;
  return [value - step, value + step, value + 2 * step].map((n) => `${n.toFixed(decimals)}${suffix}`);
}
