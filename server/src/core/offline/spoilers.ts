/**
 * When does a text give a recall point away? (issue 15: no widget — offline or from a model —
 * contains the content of a point that is still unchecked, other than the cued one.)
 *
 * The rule is the lexical recall rule of `lexical.ts` turned around: a text gives a point away
 * when a learner who echoed it back would pass the recall threshold on that point's key terms
 * (coverage ≥ 0.6 and at least min(2, terms) of them). It is lexical on purpose: it needs no
 * lexicon, so the server applies it to a model's widgets too (session/widget-guard.ts), and
 * the offline tutor adds the paraphrase-aware evaluator's own verdict on its texts.
 *
 * A spoiler is repaired by masking the point's key terms in the text (first letter +
 * underscores, as a cloze does), keeping at most one term that the caller allows.
 */
import { guardCue } from './cue-builder';
import { extractKeyTerms, isRecalled, matchedTerms, prepareText, type KeyTerm, type PreparedText } from './lexical';

/** The key terms of `content` that `text` mentions. */
export function mentionedTerms(text: string | PreparedText, content: string): KeyTerm[] {
  return matchedTerms(typeof text === 'string' ? prepareText(text) : text, extractKeyTerms(content));
}

/** True when echoing `text` would pass the lexical recall threshold for `content`. */
export function givesAway(text: string | PreparedText, content: string): boolean {
  const terms = extractKeyTerms(content);
  return isRecalled(matchedTerms(typeof text === 'string' ? prepareText(text) : text, terms).length, terms.length);
}

/** True when `text` names every key term of `content` (a question must withhold its answer). */
export function namesEveryTerm(text: string | PreparedText, content: string): boolean {
  const terms = extractKeyTerms(content);
  return terms.length > 0 && matchedTerms(typeof text === 'string' ? prepareText(text) : text, terms).length === terms.length;
}

/**
 * `text` with the key terms of `content` masked, except `keep` (a term another rule allows,
 * such as the cued point's anchor). Masks every term when keeping one would still give the
 * point away.
 */
export function maskPoint(text: string, content: string, keep: KeyTerm | null = null): string {
  const masked = guardCue(text, content, keep);
  return keep && givesAway(masked, content) ? guardCue(text, content, null) : masked;
}
