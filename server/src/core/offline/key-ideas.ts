/**
 * The key ideas of a recall point (SPEC §7), the units the offline evaluator's meaning-level
 * match (idea-match.ts) looks for in a learner's message. Deterministic, no I/O beyond the
 * shared WordNet data.
 *
 * Key ideas of a point
 * --------------------
 * Its content words (stopwords and light verbs such as "be", "have", "make", "use" left out),
 * deduplicated by lemma, with WordNet collocations kept whole ("carbon dioxide", "natural
 * selection"), each weighted by how much it carries: numbers 1.5 (and essential: a point with a
 * number needs one of its numbers), nouns, adjectives and unknown words (names) 1, words WordNet
 * knows only as verbs 0.8, only as adverbs 0.5, very polysemous words (≥ 20 senses) 0.6.
 *
 * Light words (LIGHT_WORDS) and numbers are "strict": they only match by lemma or value. Words
 * of increase or decrease carry a direction (directionOf) that idea-match.ts compares.
 */
import { isStopword } from './lexical';
import { analyzeText } from './text-analysis';
import { wordNet, type WordNet } from './wordnet';

/** Lemmas with at least this many senses weigh less (they say less on their own). */
export const POLYSEMY_LIMIT = 20;

/** Verbs and fillers so general that they carry no idea of their own. */
export const LIGHT_WORDS: ReadonlySet<string> = new Set(
  ('be is are was were been being am have has had having do does did make makes made making use uses used using get gets got ' +
    'take takes took taken give gives gave given go goes went gone come comes came become becomes became called call known ' +
    'happen happens happened show shows showed shown put say said way thing part lot able also something called').split(' '),
);

/**
 * Direction of change or size ("increase" / "reduce", "higher" / "lower"): words of the same
 * direction express one another, words of opposite directions contradict. WordNet links few
 * of them (its antonyms join "increase" to "decrease" but not to "reduce" or "lower").
 */
const UP = new Set('increase increases increased increasing rise rises rose risen raise raises raised raising grow grows grew growing higher greater larger bigger more accelerate accelerates faster improve improves improved boost expand expands strengthen longer heavier'.split(' '));
const DOWN = new Set('decrease decreases decreased decreasing reduce reduces reduced reducing lower lowers lowered lowering fall falls fell drop drops shrink shrinks smaller less fewer slow slows slowed slower decelerate worsen weaken diminish diminishes decline declines shorter lighter'.split(' '));

/** +1 for a word of increase, −1 for one of decrease, 0 otherwise. */
export function directionOf(lemmas: readonly string[]): number {
  if (lemmas.some((l) => UP.has(l))) return 1;
  if (lemmas.some((l) => DOWN.has(l))) return -1;
  return 0;
}

/** One key idea of a point. */
export interface KeyIdea {
  /** As written in the point ("carbon dioxide", "Glucose"). */
  surface: string;
  /** Lemmas it can be matched by (its own candidates). */
  lemmas: readonly string[];
  stem: string;
  value: number | null;
  weight: number;
  /** True when the point's clause holding it is negated. */
  negated: boolean;
  /** Light words and numbers: lemma (or value) matches only. */
  strict: boolean;
  /** A collocation's own words ("chemical", "energy"): saying them apart expresses it too. */
  parts?: KeyIdea[];
}

function senseCount(wn: WordNet, lemmas: readonly string[]): number {
  return lemmas.reduce((max, lemma) => Math.max(max, wn.synsets(lemma).length), 0);
}

function posWeight(wn: WordNet, lemmas: readonly string[]): number {
  const kinds = new Set<string>();
  for (const lemma of lemmas) for (const s of wn.synsets(lemma)) kinds.add(wn.pos(s));
  if (kinds.size === 0 || kinds.has('n') || kinds.has('a')) return 1;
  if (kinds.has('v')) return 0.8;
  return 0.5;
}

const ideaCache = new Map<string, KeyIdea[]>();

/** The key ideas of a point's content (cached by content). */
export function keyIdeasOf(content: string): KeyIdea[] {
  const cached = ideaCache.get(content);
  if (cached) return cached;
  const wn = wordNet();
  const text = analyzeText(content);
  const ideas: KeyIdea[] = [];
  const seen = new Set<string>();
  const covered = new Set<number>();
  const add = (idea: KeyIdea) => {
    const key = idea.value !== null ? `#${idea.value}` : idea.lemmas.at(-1)!;
    if (seen.has(key) || idea.lemmas.some((l) => seen.has(l))) return;
    seen.add(key);
    for (const l of idea.lemmas) seen.add(l);
    ideas.push(idea);
  };
  for (const c of text.collocations) {
    const words = text.words.slice(c.from, c.to + 1);
    if (words.filter((w) => !w.functionWord).length < 2) continue;
    for (let i = c.from; i <= c.to; i++) covered.add(i);
    const surface = content.slice(words[0]!.start, words.at(-1)!.end);
    const negated = text.negatedClauses[words[0]!.clause] ?? false;
    const parts = words
      .filter((w) => !w.functionWord)
      .map((w): KeyIdea => ({ surface: w.raw, lemmas: w.lemmas, stem: w.stem, value: null, weight: 1, negated, strict: LIGHT_WORDS.has(w.norm) }));
    add({ surface, lemmas: [c.lemma], stem: c.lemma, value: null, weight: 1.2, negated, strict: false, parts });
  }
  text.words.forEach((w, index) => {
    if (covered.has(index) || w.functionWord || LIGHT_WORDS.has(w.norm)) return;
    if (w.value === null && (w.norm.length < 2 || isStopword(w.norm))) return;
    const negated = text.negatedClauses[w.clause] ?? false;
    if (w.value !== null) {
      add({ surface: w.raw, lemmas: w.lemmas, stem: w.stem, value: w.value, weight: 1.5, negated, strict: true });
      return;
    }
    const polysemous = senseCount(wn, w.lemmas) >= POLYSEMY_LIMIT;
    add({ surface: w.raw, lemmas: w.lemmas, stem: w.stem, value: null, weight: polysemous ? 0.6 : posWeight(wn, w.lemmas), negated, strict: false });
  });
  // A point made only of light words falls back to them, so that it can still be recalled.
  if (ideas.length === 0) {
    for (const w of text.words) {
      if (w.lemmas.length === 0 || isStopword(w.norm)) continue;
      add({ surface: w.raw, lemmas: w.lemmas, stem: w.stem, value: w.value, weight: 1, negated: text.negatedClauses[w.clause] ?? false, strict: true });
    }
  }
  if (ideaCache.size > 5_000) ideaCache.clear();
  ideaCache.set(content, ideas);
  return ideas;
}
