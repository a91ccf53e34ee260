/**
 * How two words relate in WordNet (wordnet.ts), for the offline evaluator's alignment of a
 * learner's words with a point's (idea-match.ts) and its model of contradictions
 * (contradictions.ts): synonyms, antonyms (WordNet's, a direction of change, or a negative
 * prefix), derivational relatives, hypernyms and hyponyms, adjectives of one cluster, sisters
 * and cousins (substitutes of one kind), and words of a definition. Pure lookups over the shared
 * lexicon, cached per pair of lemmas.
 */
import { directionOf, LIGHT_WORDS, specificityOf } from './key-ideas';
import { isStopword, wordSpans } from './lexical';
import { lemmasOf, NEGATORS } from './text-analysis';
import { wordNet, type WordNet } from './wordnet';

/** Only a lemma's most frequent senses (per part of speech) take part in relations. */
export const SENSE_LIMIT = 3;
/** Deepest hypernym walk (levels) between a learner word and an idea. */
export const MAX_HYPERNYM_HOPS = 4;
/** Walks beyond one level must pass through a noun at least this deep (specific, not "entity"). */
export const SPECIFIC_DEPTH = 6;

/** How far up (levels, each side) two nouns may meet to count as substitutes for each other. */
export const COUSIN_HOPS = 2;
/** The category two substitutes share must be small (at most this many direct hyponyms): "drama", not "organism". */
export const COUSIN_CATEGORY_MAX = 40;
/** …and specific: at most this many kinds below it in all ("philosopher", "vitamin", not "concept" or "social unit"). */
export const COUSIN_CATEGORY_KINDS_MAX = 100;

const kindsCache = new Map<number, number>();
/** How many synsets lie below a synset (its hyponyms, theirs, …), counted up to a cap. */
function kindsBelow(wn: WordNet, synset: number): number {
  const cached = kindsCache.get(synset);
  if (cached !== undefined) return cached;
  const seen = new Set<number>();
  const stack = [synset];
  while (stack.length > 0 && seen.size <= COUSIN_CATEGORY_KINDS_MAX) {
    for (const child of wn.hyponyms(stack.pop()!)) if (!seen.has(child)) {
      seen.add(child);
      stack.push(child);
    }
  }
  kindsCache.set(synset, seen.size);
  return seen.size;
}

/** How a learner's word relates to an idea's (see idea-match.ts for the strengths). */
export type Relation = 'same' | 'synonym' | 'derived' | 'broader' | 'narrower' | 'antonym' | 'definition' | 'negative-definition';

/** Ancestors of every sense of a lemma, with the fewest levels to reach each. */
const ancestorCache = new Map<string, Map<number, number>>();
function ancestorsOf(wn: WordNet, lemma: string): Map<number, number> {
  let found = ancestorCache.get(lemma);
  if (found) return found;
  found = new Map();
  let frontier = [...wn.commonSynsets(lemma, SENSE_LIMIT)].filter((s) => wn.pos(s) === 'n' || wn.pos(s) === 'v');
  for (let hops = 1; hops <= MAX_HYPERNYM_HOPS && frontier.length > 0; hops++) {
    const next: number[] = [];
    for (const s of frontier) {
      for (const parent of wn.hypernyms(s)) {
        if (found.has(parent)) continue;
        // Beyond one level only through specific nouns; verbs stop after one level.
        if (hops > 1 && (wn.pos(parent) !== 'n' || wn.depth(parent) < SPECIFIC_DEPTH)) continue;
        found.set(parent, hops);
        next.push(parent);
      }
    }
    frontier = next;
  }
  if (ancestorCache.size > 20_000) ancestorCache.clear();
  ancestorCache.set(lemma, found);
  return found;
}

/** Senses of the other word a shared synset may be among, when it is one of the first word's main senses. */
export const WIDE_SENSE_LIMIT = 8;

/**
 * True when the two lemmas share a synset that is one of the main senses (SENSE_LIMIT) of one
 * of them and not a rare one (WIDE_SENSE_LIMIT) of the other: "rotting" (one sense) and
 * "decomposition" (its fifth), "soak up" and "absorb".
 */
function sharesSynset(wn: WordNet, a: string, b: string): boolean {
  const mainA = wn.commonSynsets(a, SENSE_LIMIT);
  const mainB = wn.commonSynsets(b, SENSE_LIMIT);
  if (mainA.length === 0 || mainB.length === 0) return false;
  const wideB = wn.commonSynsets(b, WIDE_SENSE_LIMIT);
  for (const s of mainA) if (wideB.includes(s)) return true;
  const wideA = wn.commonSynsets(a, WIDE_SENSE_LIMIT);
  for (const s of mainB) if (wideA.includes(s)) return true;
  return false;
}

/** Prefixes that make a word's opposite ("unsorted", "inactive", "nonlinear", "dishonest"). */
const NEGATIVE_PREFIXES = ['un', 'in', 'im', 'il', 'ir', 'non', 'dis'];

/**
 * Antonyms, either way round: a WordNet antonym of one that is (or shares a main sense with) the
 * other ("release" ~ "emit", the antonym of "absorb"), or the same word with a negative prefix.
 */
function opposites(wn: WordNet, a: string, b: string): boolean {
  for (const [x, y] of [[a, b], [b, a]] as const) {
    // Through a synonym only by its first sense: "emit" is "release"; "appreciate" is not every "value".
    const first = wn.commonSynsets(y, 1);
    if ([...wn.antonyms(x)].some((opposite) => opposite === y || wn.commonSynsets(opposite, 1).some((synset) => first.includes(synset)))) return true;
    // Only onto a word of at least four letters WordNet knows: "unsorted" / "sorted", not "in" + "k".
    if (y.length >= 4 && wn.has(y) && NEGATIVE_PREFIXES.some((prefix) => x === prefix + y)) return true;
  }
  return false;
}

/** Adjectives of one cluster: a main sense of one is the head or a satellite of a sense of the other ("heavy" ~ "dense"). */
function similarAdjectives(wn: WordNet, a: string, b: string): boolean {
  const wideB = wn.commonSynsets(b, WIDE_SENSE_LIMIT);
  for (const s of wn.commonSynsets(a, SENSE_LIMIT)) {
    if (wn.pos(s) !== 'a') continue;
    for (const t of wn.similar(s)) if (wideB.includes(t)) return true;
  }
  const wideA = wn.commonSynsets(a, WIDE_SENSE_LIMIT);
  for (const s of wn.commonSynsets(b, SENSE_LIMIT)) {
    if (wn.pos(s) !== 'a') continue;
    for (const t of wn.similar(s)) if (wideA.includes(t)) return true;
  }
  return false;
}

function hypernymHops(wn: WordNet, specific: string, general: string): number | null {
  const ancestors = ancestorsOf(wn, specific);
  let best: number | null = null;
  for (const s of wn.commonSynsets(general, SENSE_LIMIT)) {
    const hops = ancestors.get(s);
    if (hops !== undefined && (best === null || hops < best)) best = hops;
  }
  return best;
}

/** Ancestors of a lemma's common noun senses within `hops` levels (the senses themselves at 0). */
const nearCache = new Map<string, Map<number, number>>();
/** Ancestors of a lemma's two main noun senses within `hops` levels (the senses themselves at 0), a name's class at level 1. */
export function nearAncestors(wn: WordNet, lemma: string, hops: number): Map<number, number> {
  const key = `${hops}:${lemma}`;
  const cached = nearCache.get(key);
  if (cached) return cached;
  const found = computeNearAncestors(wn, lemma, hops);
  if (nearCache.size > 20_000) nearCache.clear();
  nearCache.set(key, found);
  return found;
}

function computeNearAncestors(wn: WordNet, lemma: string, hops: number): Map<number, number> {
  const found = new Map<number, number>();
  // The two most frequent noun senses: rarer ones ("plant", the person planted in an audience) must not make cousins.
  let frontier = [...wn.commonSynsets(lemma, SENSE_LIMIT)].filter((s) => wn.pos(s) === 'n').slice(0, 2);
  for (const s of frontier) found.set(s, 0);
  for (let level = 1; level <= hops; level++) {
    const next: number[] = [];
    for (const s of frontier) {
      // A name's class counts as its parent here ("Venice" and "Verona" are both cities).
      for (const p of level === 1 ? [...wn.hypernyms(s), ...wn.instanceOf(s)] : wn.hypernyms(s)) if (!found.has(p)) {
        found.set(p, level);
        next.push(p);
      }
    }
    frontier = next;
  }
  return found;
}

/**
 * Two different nouns close under the same small category — sisters or cousins, at most
 * COUSIN_HOPS levels up each, the shared category at depth ≥ 4 with at most COUSIN_CATEGORY_MAX
 * direct hyponyms: "chloroplast" /
 * "mitochondrion", "comedy" / "tragedy", "velocity" / "acceleration". Saying one in place of
 * the other is a substitution, not a paraphrase.
 */
const sisterCache = new Map<string, boolean>();
export function areSisters(wn: WordNet, a: string, b: string): boolean {
  const key = `${a}|${b}`;
  let known = sisterCache.get(key);
  if (known === undefined) {
    known = computeSisters(wn, a, b);
    if (sisterCache.size > 100_000) sisterCache.clear();
    sisterCache.set(key, known);
  }
  return known;
}

function computeSisters(wn: WordNet, a: string, b: string): boolean {
  if (a === b || sharesSynset(wn, a, b)) return false;
  const up = nearAncestors(wn, a, COUSIN_HOPS);
  const down = nearAncestors(wn, b, COUSIN_HOPS);
  // One is the other's hypernym or hyponym: a broader or narrower word, not a substitute.
  for (const s of wn.commonSynsets(b, SENSE_LIMIT)) if (up.has(s)) return false;
  for (const s of wn.commonSynsets(a, SENSE_LIMIT)) if (down.has(s)) return false;
  for (const [s, level] of up) {
    if (level === 0) continue;
    const other = down.get(s);
    if (other !== undefined && other > 0 && wn.depth(s) >= 4 && wn.hyponyms(s).length <= COUSIN_CATEGORY_MAX && kindsBelow(wn, s) <= COUSIN_CATEGORY_KINDS_MAX) return true;
  }
  return false;
}

const relationCache = new Map<string, [Relation, number] | null>();

/** How a learner lemma relates to an idea lemma, with the strength of the match. */
export function relate(learner: string, idea: string): [Relation, number] | null {
  if (learner === idea) return ['same', 1];
  const key = `${learner}|${idea}`;
  const cached = relationCache.get(key);
  if (cached !== undefined) return cached;
  const wn = wordNet();
  let result: [Relation, number] | null = null;
  const direction = directionOf([learner]) * directionOf([idea]);
  // Equal strengths, so that the assignment prefers the reading that agrees with the point.
  if (direction > 0) result = ['synonym', 0.85];
  else if (direction < 0) result = ['antonym', 0.85];
  else if (sharesSynset(wn, learner, idea)) result = ['synonym', 0.9];
  else if (similarAdjectives(wn, learner, idea)) result = ['synonym', 0.85];
  else if (opposites(wn, learner, idea)) result = ['antonym', 0.9];
  else if (wn.derived(learner).has(idea) || [...wn.derived(learner)].some((d) => sharesSynset(wn, d, idea))) result = ['derived', 0.9];
  else {
    const up = hypernymHops(wn, idea, learner);
    const down = hypernymHops(wn, learner, idea);
    if (up !== null && (down === null || up <= down)) result = ['broader', up === 1 ? 0.85 : 0.7];
    else if (down !== null) result = ['narrower', down === 1 ? 0.85 : 0.7];
  }
  if (relationCache.size > 100_000) relationCache.clear();
  relationCache.set(key, result);
  return result;
}

/** Strength of a word found in the other's definition ("oxygen" for "aerobic": "depending on free oxygen"). */
export const DEFINITION_STRENGTH = 0.7;
/** Only rare words are said by their definition ("mutable", "lithosphere"); a common one is said as itself. */
export const DEFINITION_MIN_SPECIFICITY = 0.7;
/** Senses (per part of speech) whose definitions are read: the most frequent one. */
export const DEFINITION_SENSES = 1;
/**
 * The genus words definitions are built on ("someone injured …", "a kind of …", "the act of …"):
 * they name a class, not the word defined.
 */
const DEFINITION_GENUS: ReadonlySet<string> = new Set('someone something person people thing one part kind type sort way act action state quality form process manner group member object substance item matter condition property'.split(' '));
/** Words of a definition that say it is a lack of something ("not subject to change", "without …"). */
const PRIVATIVES: ReadonlySet<string> = new Set([...NEGATORS, 'without', 'lacking', 'lack', 'absence']);

const definitionCache = new Map<string, ReadonlyMap<string, boolean>>();

/**
 * The content lemmas of the definitions of a lemma's main senses (WordNet glosses, without their
 * examples), each with whether a privative word ("not", "without") comes before it: "immutable"
 * → change (privative), variation (privative), form, quality, nature.
 */
function definitionWords(lemma: string): ReadonlyMap<string, boolean> {
  const cached = definitionCache.get(lemma);
  if (cached) return cached;
  const wn = wordNet();
  const words = new Map<string, boolean>();
  for (const synset of wn.commonSynsets(lemma, DEFINITION_SENSES)) {
    const gloss = wn.gloss(synset);
    const definition = gloss.slice(0, gloss.search(/;|"|$/));
    let privative = false;
    for (const span of wordSpans(definition)) for (const token of span.tokens) {
      if (PRIVATIVES.has(token)) privative = true;
      if (isStopword(token) || LIGHT_WORDS.has(token) || DEFINITION_GENUS.has(token) || token === lemma || /\d/.test(token)) continue;
      for (const l of lemmasOf(token)) if (!words.has(l) || privative) words.set(l, privative);
    }
  }
  if (definitionCache.size > 20_000) definitionCache.clear();
  definitionCache.set(lemma, words);
  return words;
}

const relatedDefinitionCache = new Map<string, ReadonlyMap<string, boolean>>();

/** The definition's words with their synonyms (main senses) and derived forms, computed once per lemma. */
function relatedDefinitionWords(lemma: string): ReadonlyMap<string, boolean> {
  const cached = relatedDefinitionCache.get(lemma);
  if (cached) return cached;
  const wn = wordNet();
  const words = new Map<string, boolean>();
  for (const [word, privative] of definitionWords(lemma)) {
    const related = [...wn.derived(word)];
    for (const synset of wn.commonSynsets(word, SENSE_LIMIT)) related.push(...wn.lemmas(synset));
    for (const other of related) if (!words.has(other) || privative) words.set(other, privative);
  }
  if (relatedDefinitionCache.size > 20_000) relatedDefinitionCache.clear();
  relatedDefinitionCache.set(lemma, words);
  return words;
}

const nameCache = new Map<string, boolean>();
/** True when the lemma names an individual ("Van Gogh", "Julius Caesar"): its definition describes it, which does not name it. */
function isName(wn: WordNet, lemma: string): boolean {
  let known = nameCache.get(lemma);
  if (known === undefined) {
    known = false;
    for (const synset of wn.synsets(lemma)) if (wn.instanceOf(synset).length > 0) known = true;
    if (nameCache.size > 50_000) nameCache.clear();
    nameCache.set(lemma, known);
  }
  return known;
}

/**
 * A learner lemma found in the definition of a rare idea lemma ("oxygen" for "aerobic"), or a
 * rare learner lemma whose definition holds the idea ("abroad": "in a foreign country").
 */
export function definitionRelation(learner: string, idea: string, ideaSpecificity: number): [Relation, number] | null {
  if (learner === idea || LIGHT_WORDS.has(learner) || isStopword(learner)) return null;
  const wn = wordNet();
  const rareIdea = ideaSpecificity >= DEFINITION_MIN_SPECIFICITY && !isName(wn, idea);
  let privative = rareIdea ? definitionWords(idea).get(learner) : undefined;
  if (privative === undefined && specificityOf([learner]) >= DEFINITION_MIN_SPECIFICITY && !isName(wn, learner)) privative = definitionWords(learner).get(idea);
  // A synonym or a derived form of a word of the definition: "multiply" for "product" ("obtained by multiplication").
  if (privative === undefined && rareIdea) privative = relatedDefinitionWords(idea).get(learner);
  if (privative === undefined) return null;
  return [privative ? 'negative-definition' : 'definition', DEFINITION_STRENGTH];
}
