/**
 * Grading a cloze answer (SPEC §4.6), pure: the server decides, never a model. An answer is
 * right when it names the blanked term — for a card's answer of several words, at least half of
 * its key terms ("rickets" for "rickets in children"), the last one included when the answer is
 * a name ("Picasso" for "Pablo Picasso", never "Pablo Neruda"), and nothing in brackets is
 * required ("Unauthorized" for "Unauthorized (not authenticated)") —
 * where a word names a term when it is:
 * - the term itself, whatever its case, accents or surrounding punctuation and articles;
 * - an inflection of it: the same stem ("pumped", "pumping"), the same dictionary form ("mice"
 *   for "mouse"), a Greek or Latin plural ("nuclei" for "nucleus");
 * - a synonym the offline evaluator knows (a shared WordNet sense, offline/lexical-relations.ts);
 * - one typo away (one letter added, dropped, changed or two swapped) for a term of 6+ letters.
 * Numbers and terms of 3 letters or fewer match exactly. Words the learner copied from the
 * prompt count only when they are the term itself, so pasting the sentence back is not an
 * answer unless it holds the term; a list of guesses (more than `maxExtraWords` words of the
 * learner's own beyond the answer's) is not an answer either.
 */
import { damerauLevenshtein, extractKeyTerms, isStopword, stem, tokenize, tokenMatchesTerm, type KeyTerm } from '../offline/lexical';
import { relate } from '../offline/lexical-relations';
import { answerShape } from '../offline/question-answer';
import { lemmasOf } from '../offline/text-analysis';
import { blankMark } from './cloze-blank';

/** The shortest term (in letters) a one-letter typo is forgiven in. */
export const typoMinLength = 6;

const hasDigit = (token: string) => /\p{N}/u.test(token);

/** Same dictionary form, or a synonym WordNet shares a sense for. */
function sameWord(token: string, term: KeyTerm, synonyms: boolean): boolean {
  if (hasDigit(token) || hasDigit(term.token)) return false;
  const learnerLemmas = lemmasOf(token);
  const termLemmas = lemmasOf(term.token);
  if (learnerLemmas.some((lemma) => termLemmas.includes(lemma))) return true;
  if (!synonyms) return false;
  return learnerLemmas.some((learner) =>
    termLemmas.some((idea) => {
      const relation = relate(learner, idea);
      return relation !== null && (relation[0] === 'same' || relation[0] === 'synonym');
    }),
  );
}

function namesTerm(token: string, term: KeyTerm, fromPrompt: boolean): boolean {
  if (tokenMatchesTerm(token, term)) return true;
  if (term.exact && hasDigit(term.token)) return false;
  if (sameWord(token, term, !fromPrompt)) return true;
  if (fromPrompt || term.token.length < typoMinLength || hasDigit(token)) return false;
  return damerauLevenshtein(token, term.token, 1) <= 1;
}

/**
 * How many more words than the answer has a learner may write beside it ("I think it's the
 * mitochondria"). Beyond that an answer is a list of guesses, and naming the term among them
 * is not knowing it.
 */
export const maxExtraWords = 3;

/** Of an answer of several key terms, the share the learner must name. */
export const answerMinCoverage = 0.5;

/** What an answer must name: the answer without what it says in brackets (unless that is all of it). */
export function gradedPart(answer: string): string {
  const outside = answer.replace(/\([^()]*\)|\[[^[\]]*\]/g, ' ').replace(/\s+/g, ' ').trim();
  return outside || answer.trim();
}

/** Whether `given` names the blanked `answer` of the point shown as `prompt` (see the header). */
export function isRightAnswer(given: string, item: { prompt: string; answer: string }): boolean {
  const expected = gradedPart(item.answer);
  const terms = extractKeyTerms(expected);
  const tokens = [...new Set(tokenize(given))].filter((token) => !isStopword(token) || terms.some((term) => term.token === token));
  if (tokens.length === 0 || terms.length === 0) return false;
  const promptStems = new Set(tokenize(item.prompt.split(blankMark).join(' ')).map(stem));
  const ownWords = tokens.filter((token) => !isStopword(token) && !promptStems.has(stem(token)));
  if (ownWords.length > terms.length + maxExtraWords) return false;
  const hits = terms.filter((term) => tokens.some((token) => namesTerm(token, term, promptStems.has(stem(token)))));
  // A name is told apart by its last part: "Pablo Neruda" does not name Pablo Picasso.
  if (terms.length > 1 && answerShape(expected) === 'name' && !hits.includes(terms.at(-1)!)) return false;
  return hits.length > 0 && hits.length / terms.length >= answerMinCoverage;
}

/** The answer without a leading article ("the mitochondria" → "mitochondria"), as a hint reads it. */
function bareAnswer(answer: string): string {
  return gradedPart(answer).replace(/^(?:the|a|an)\s+/i, '');
}

/** The hint after a wrong first try: the term's first letter and its length, never the term. */
export function hintFor(answer: string): string {
  const bare = bareAnswer(answer);
  const first = [...bare][0] ?? '';
  const words = bare.split(/\s+/).filter(Boolean);
  if (words.length > 1) return `It is ${words.length} words and starts with "${first}".`;
  const letters = [...bare].filter((char) => /[\p{L}\p{N}]/u.test(char)).length;
  return `It starts with "${first}" and has ${letters} ${letters === 1 ? 'character' : /^\p{N}+$/u.test(bare) ? 'digits' : 'letters'}.`;
}
