/**
 * Cues that point the learner at a recall point WITHOUT revealing it.
 *
 * The invariant every cue keeps: it mentions at most ONE key term of the point (the
 * "anchor"), so it never contains the full content, and it never gives the learner enough
 * to pass the recall threshold by echoing the cue. `guardCue` enforces this on the final
 * text, whatever the template or the author's context says: any further key-term word is
 * masked to its first letter plus underscores (numbers are masked entirely).
 *
 * - The anchor is the first key term that is not a number or a short acronym (falling back
 *   to the first key term). A point with fewer than two key terms gets no anchor at all,
 *   since naming its only term would be naming the whole point.
 * - The cloze shows the content with every key term except the anchor masked:
 *   "The mitochondria p______ A__ through o________ p______________".
 */
import { extractKeyTerms, tokenMatchesTerm, wordSpans, type KeyTerm } from './lexical';

/** Longest stretch of the author's context quoted in a cue. */
export const CONTEXT_MAX_LENGTH = 140;

/** Masks a word: first letter + underscores; numbers entirely ("1969" → "____"). */
export function maskWord(raw: string): string {
  const chars = [...raw];
  if (chars.length <= 1 || /\p{N}/u.test(raw)) return '_'.repeat(Math.max(chars.length, 1));
  return (chars[0] ?? '') + '_'.repeat(chars.length - 1);
}

/** The anchor term a cue may name, or null when the point has fewer than two key terms. */
export function anchorFor(content: string): KeyTerm | null {
  const terms = extractKeyTerms(content);
  if (terms.length < 2) return null;
  return terms.find((t) => !t.exact) ?? terms[0] ?? null;
}

/**
 * Masks every word of `text` that mentions a key term of `content` other than the allowed
 * one. `allowed`: a term that may stay, 'first' (whichever key term appears first may stay)
 * or null (mask them all).
 */
export function guardCue(text: string, content: string, allowed: KeyTerm | 'first' | null): string {
  const terms = extractKeyTerms(content);
  let allowedStem: string | null = allowed === 'first' ? null : (allowed?.stem ?? null);
  let firstMode = allowed === 'first';
  let out = '';
  let last = 0;
  for (const span of wordSpans(text)) {
    const hit = terms.filter((t) => span.tokens.some((tok) => tokenMatchesTerm(tok, t)));
    if (hit.length === 0) continue;
    if (firstMode && hit.length === 1) {
      allowedStem = hit[0]?.stem ?? null;
      firstMode = false;
    }
    if (hit.length === 1 && hit[0]?.stem === allowedStem) continue;
    out += text.slice(last, span.start) + maskWord(span.raw);
    last = span.end;
  }
  return out + text.slice(last);
}

/**
 * The content with every key term but the anchor masked (by default the point's first
 * anchor; the tutor passes another one to cue a different key idea). Never equals the content.
 */
export function clozeOf(content: string, anchor: KeyTerm | null = anchorFor(content)): string {
  const flat = content.replace(/\s+/g, ' ').trim();
  return guardCue(flat, flat, anchor);
}

/** The author's context, tidied and shortened for quoting in a cue; null when empty. */
export function contextPhrase(context: string | null): string | null {
  const flat = (context ?? '').replace(/\s+/g, ' ').trim();
  if (!flat) return null;
  if (flat.length <= CONTEXT_MAX_LENGTH) return flat;
  const cut = flat.slice(0, CONTEXT_MAX_LENGTH);
  const space = cut.lastIndexOf(' ');
  // The lookbehind starts the match only where a run of trailing punctuation starts, so a run is read once.
  return `${(space > CONTEXT_MAX_LENGTH / 2 ? cut.slice(0, space) : cut).replace(/(?<![\s,;:.!?—–-])[\s,;:.!?—–-]+$/u, '')}…`;
}

/** True when a template's own words (placeholders removed) would name a key term. */
export function templateCollides(template: string, content: string): boolean {
  const bare = template.replace(/\{\w+\}/g, ' ');
  return guardCue(bare, content, null) !== bare;
}
