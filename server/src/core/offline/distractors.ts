/**
 * Term-level substitutes of a point's content: the offline tutor's generated distractors for
 * a multiple-choice question (issue 15). Each substitute is the content with ONE word
 * replaced, so it reads like the point but says something else:
 *
 * - a number shifted (100 → 90, 110, 200; a year by one or two);
 * - a comparative or superlative by its commonest WordNet antonym ("largest" → "smallest");
 * - a common noun by a sister term under the same small WordNet category, as the evaluator's
 *   own substitution rule knows them ("mitochondria" → "lysosomes"), plurals kept plural;
 *   only words used mostly as nouns, single-word siblings, and no Latin plurals;
 * - or, generated, the statement negated after its first auxiliary ("Paris is not …").
 *
 * A substitute must say something else: one the evaluator relates to the replaced word as a
 * synonym, derivation or broader/narrower term is a paraphrase and is dropped. Distractors from other points' contents are never generated here — an
 * unchecked point's content is exactly what must not be shown (offline-tutor.ts picks
 * recalled points first, then these). Deterministic for a given seed.
 */
import { COUSIN_CATEGORY_MAX, relate } from './idea-match';
import { isStopword, wordSpans } from './lexical';
import { stableHash } from './stable-hash';
import { lemmasOf } from './text-analysis';
import { wordNet } from './wordnet';

/** Most substitutes tried per word. */
const PER_WORD = 3;
/** Noun senses a word may have for its WordNet category to be trusted (see sisterSubstitutes). */
const maximumNounSenses = 1;

function matchCase(model: string, word: string): string {
  return /^\p{Lu}/u.test(model) ? word.charAt(0).toUpperCase() + word.slice(1) : word;
}

function pluralOf(noun: string): string {
  if (/(?:s|x|z|ch|sh)$/.test(noun)) return `${noun}es`;
  if (/[^aeiou]y$/.test(noun)) return `${noun.slice(0, -1)}ies`;
  return `${noun}s`;
}

const numberWords = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];

function numberSubstitutes(token: string): string[] {
  // A number written as a word ("eight planets") moves to its neighbours, as words.
  const spelled = numberWords.indexOf(token.toLowerCase());
  if (spelled >= 0) return [spelled + 1, spelled - 1, spelled + 2].filter((n) => n >= 0 && n < numberWords.length).map((n) => numberWords[n]!);
  if (!/^\d+$/.test(token)) return [];
  const n = Number(token);
  if (n >= 1000 && n <= 2100) return [n + 1, n - 1, n + 2].map(String);
  if (n < 10) return [n + 1, n + 2, n - 1].filter((m) => m >= 0).map(String);
  return [Math.round(n * 0.9), Math.round(n * 1.1), n * 2].filter((m) => m !== n).map(String);
}

function antonymSubstitutes(token: string): string[] {
  const wn = wordNet();
  // Only degrees ("largest", "faster"): a bare adjective's antonyms follow senses the point may not mean ("light" → "heavy").
  const suffix = token.endsWith('est') ? 'est' : token.endsWith('er') ? 'er' : null;
  if (!suffix) return [];
  for (const lemma of lemmasOf(token)) {
    if (lemma === token) continue;
    const opposites = [...wn.antonyms(lemma)].filter((word) => /^[a-z]+$/.test(word)).sort((a, b) => wn.synsets(b).length - wn.synsets(a).length);
    const word = opposites[0];
    if (word) return [word.endsWith('e') ? `${word}${suffix.slice(1)}` : `${word}${suffix}`];
  }
  return [];
}

function senseCount(lemma: string, pos: 'n' | 'v' | 'a'): number {
  const wn = wordNet();
  let n = 0;
  for (const synset of wn.synsets(lemma)) if (wn.pos(synset) === pos) n += 1;
  return n;
}

function sisterSubstitutes(token: string, avoid: ReadonlySet<string>): string[] {
  const wn = wordNet();
  const lemma = lemmasOf(token).find((candidate) => {
    const nouns = senseCount(candidate, 'n');
    return nouns > 0 && nouns >= senseCount(candidate, 'v') && nouns >= senseCount(candidate, 'a');
  });
  if (!lemma) return [];
  // Only a word with one sense as a noun has a category we can trust: "capital" (a city or
  // wealth?) or "water" would give siblings of the wrong sense ("security", "extravasation"),
  // nonsense to a learner (issue 28).
  if (senseCount(lemma, 'n') > maximumNounSenses) return [];
  const plural = token !== lemma;
  const sense = wn.commonSynsets(lemma, 1).find((synset) => wn.pos(synset) === 'n');
  if (sense === undefined) return [];
  const out: Array<{ word: string; familiarity: number }> = [];
  for (const parent of wn.hypernyms(sense)) {
    // A small, specific category, as the evaluator's substitution rule has it (idea-match.ts).
    if (wn.depth(parent) < 4 || wn.hyponyms(parent).length > COUSIN_CATEGORY_MAX) continue;
    for (const sibling of wn.hyponyms(parent)) {
      if (sibling === sense) continue;
      const word = wn.lemmas(sibling)[0];
      if (!word || !/^[a-z]+$/.test(word) || avoid.has(word)) continue;
      if (plural && /(?:um|us|on|is|a)$/.test(word)) continue;
      // Among siblings, the more familiar first (WordNet's polysemy count is its measure of
      // familiarity): "stars" before "planetesimals".
      out.push({ word: plural ? pluralOf(word) : word, familiarity: wn.synsets(word).length });
    }
  }
  return out.sort((a, b) => b.familiarity - a.familiarity).map((entry) => entry.word);
}

// Not has/have/do: as main verbs they would need "does not have" ("has not eight planets").
const AUXILIARY = /^(?:is|are|was|were|can|will|would|should|must)$/i;

/** The statement negated after its first auxiliary ("Paris is not the capital"), or null. */
export function negated(content: string): string | null {
  const flat = content.replace(/\s+/g, ' ').trim();
  const spans = wordSpans(flat);
  if (spans.some((span) => /^(?:not|never|no)$/i.test(span.raw))) return null;
  const auxiliary = spans.find((span, index) => index > 0 && AUXILIARY.test(span.raw));
  if (!auxiliary) return null;
  return `${flat.slice(0, auxiliary.end)} not${flat.slice(auxiliary.end)}`;
}

/** True when `replacement` says the same as `original` to the evaluator (a paraphrase, not a distractor). */
function paraphrases(replacement: string, original: string): boolean {
  for (const a of lemmasOf(replacement.toLowerCase())) {
    for (const b of lemmasOf(original.toLowerCase())) {
      const relation = relate(a, b);
      if (relation && relation[0] !== 'antonym') return true;
    }
  }
  return false;
}

/** Up to `limit` one-word substitutes of `content`, none of which the evaluator would accept as it. */
export function substituteDistractors(content: string, seed: string, limit: number): string[] {
  const spans = wordSpans(content).filter((span) => span.tokens.length === 1 && !isStopword(span.tokens[0]!));
  if (spans.length === 0 || limit <= 0) return [];
  const avoid = new Set(spans.flatMap((span) => lemmasOf(span.tokens[0]!)));
  const start = stableHash(seed) % spans.length;
  // Per word, its candidates in a seeded order; then one word at a time, round-robin, so
  // the distractors differ from the point in different places.
  const perWord = spans.map((_, offset) => {
    const span = spans[(start + offset) % spans.length]!;
    const token = span.tokens[0]!;
    const numeric = /\d/.test(token) || numberWords.includes(token.toLowerCase());
    // A capitalised word inside the sentence is a name: no sister or antonym for it.
    const name = span.start > 0 && /^\p{Lu}/u.test(span.raw);
    const words = numeric ? numberSubstitutes(token) : name ? [] : [...antonymSubstitutes(token), ...sisterSubstitutes(token, avoid)];
    // Sister terms come most familiar first; the seed only varies which of the top ones lead.
    return words
      .map((word, index) => ({ word, rank: Math.floor(index / PER_WORD) * 2 ** 32 + stableHash(`${seed}|${word}`) }))
      .sort((a, b) => a.rank - b.rank)
      .filter(({ word }) => numeric || !paraphrases(word, token))
      .slice(0, PER_WORD)
      .map(({ word }) => `${content.slice(0, span.start)}${matchCase(span.raw, word)}${content.slice(span.end)}`.replace(/\s+/g, ' ').trim());
  });
  const generated = negated(content);
  if (generated) perWord.push([generated]);
  const out: string[] = [];
  const seen = new Set([content.replace(/\s+/g, ' ').trim().toLowerCase()]);
  for (let round = 0; out.length < limit && perWord.some((list) => list.length > round); round++) {
    for (const list of perWord) {
      const candidate = list[round];
      if (!candidate || seen.has(candidate.toLowerCase())) continue;
      seen.add(candidate.toLowerCase());
      out.push(candidate);
      if (out.length >= limit) break;
    }
  }
  return out;
}
