/**
 * Meaning-level matching of a learner's message against a recall point — the offline
 * evaluator's rule (SPEC §7, issue 28). Deterministic, no I/O beyond the shared WordNet data.
 *
 * 1. Weights: how much each word identifies the point. Each key idea (key-ideas.ts) weighs
 *    specificity in general English (WordNet's sense-tagged counts) × part of speech × role (the
 *    core statement, or an aside: a parenthesis, an example, a trailing clause); with the set the
 *    point is evaluated in (`pointSetOf`) it is divided by 1 + ln(df), df = how many points of
 *    the set have it, so a word every point shares ("git" in a set about git) identifies none.
 *
 * 2. Alignment: each learner word or collocation (prepared-message.ts) expresses at most one
 *    idea, strongest pair first (lexical-relations.ts for the WordNet relations):
 *      same lemma or Porter stem, a typo, a compound written solid or apart     1.0 (typo 0.95)
 *      a clipped word ("repo" for "repository")                                 0.9
 *      a WordNet synonym; a derivational relative ("storage", "chemically")     0.9
 *      an adjective of the same cluster ("dense" ~ "heavy")                     0.85
 *      a hypernym or hyponym one level away ("sunlight" ~ "light")              0.85
 *      two to four levels away, through a specific (depth ≥ 6) noun             0.7 ("sugar" ~ "glucose")
 *      a word of a rare idea's definition, or a synonym of one ("oxygen" for
 *      "aerobic", "can't be changed" for "immutable", privatives flip polarity) 0.7, and only in a
 *                                                                               clause that says more of the point
 *      an antonym, the other direction, the other bound or sign                 0.9, polarity flipped
 *      the opposite of a pole where the point has both ("stronger" for
 *      "concentrated" in "from a dilute solution to a concentrated one")       0.85
 *      a proportion in words for a number ("a quarter" ~ "25%", quantities.ts) 0.9
 *      an acronym for the words it abbreviates, either way ("PPI", acronyms.ts) 0.9
 *    Light verbs and numbers only match by lemma or value; numbers are read from digits and
 *    words. A collocation not said whole can be said in its own words ("stored chemically" for
 *    "chemical energy"). The charitable reading first: a reading that contradicts the point
 *    ranks CONTRARY_PENALTY below one that agrees, so an antonym claims an idea only when the
 *    learner says nothing that fits it as well as a synonym. A negative quantifier over a
 *    comparison ("no river carries more water than …") denies nothing (negation-scope.ts).
 *
 * 3. Decision: coverage = Σ weight × strength of the matched ideas / Σ weight of all ideas. A
 *    point is recalled when coverage ≥ RECALL_COVERAGE, at least min(2, core ideas) ideas are
 *    matched, at least PREDICATE_COVERAGE of what its main clause says of its subject is said
 *    (naming the subject is not recalling the point), and nothing contradicts it
 *    (contradictions.ts). An aside weighs little, so the core said without a detail is
 *    recalled (partial_core), and a hedge ("I think …?") is judged on its content.
 *
 * A near miss: not recalled, with coverage ≥ NEAR_MISS_COVERAGE; the feedback names its
 * contradiction or its missing core ideas (`missingCore`), so the tutor's follow-up can ask
 * for exactly what is missing.
 */
import { matchAcronyms } from './acronyms';
import { conflictOf } from './contradictions';
import { directionOf, keyIdeasOf, type KeyIdea } from './key-ideas';
import { damerauLevenshtein, FUZZY_MIN_LENGTH, stem } from './lexical';
import { definitionRelation, relate, type Relation } from './lexical-relations';
import { candidateNegated } from './negation-scope';
import { proportionOf, sameQuantity } from './quantities';
import { indicesOf, type Candidate, type PreparedMessage } from './prepared-message';
import { lemmasOf } from './text-analysis';
import { wordNet } from './wordnet';

export { directionOf, keyIdeasOf, LIGHT_WORDS, type KeyIdea } from './key-ideas';
export { areSisters, COUSIN_CATEGORY_MAX, relate, type Relation } from './lexical-relations';
export { prepareMessage, type PreparedMessage } from './prepared-message';

/** Share of the point's weight the learner must express (fitted on the dev split of the corpus, issue 28). */
export const RECALL_COVERAGE = 0.5;
/** Share from which an unrecalled point is a near miss the feedback names. */
export const NEAR_MISS_COVERAGE = 0.25;
/** Share of the weight of the main clause's predicate (what it says about its subject) the learner must express. */
export const PREDICATE_COVERAGE = 0.4;
/** How strongly a word shared by several points of the set loses weight: 1 / (1 + IDF_STRENGTH × ln df). */
export const IDF_STRENGTH = 1;

/** One idea of the point a learner's words express. */
export interface IdeaHit {
  idea: KeyIdea;
  /** The learner's words, as written. */
  words: string;
  relation: Relation;
  strength: number;
  /** Whether a negation scopes over the learner's words, XOR an antonym or a privative definition. */
  negated: boolean;
  /** The learner's clause the words stand in. */
  clause: number;
  /** Indices of the learner's words used (in the analysed message). */
  wordIndices: readonly number[];
  /** For a collocation said in its own words: the words of it that were said. */
  partsSaid?: readonly KeyIdea[];
}

export interface PointMatch {
  ideas: KeyIdea[];
  hits: IdeaHit[];
  missing: KeyIdea[];
  /** The missing ideas of the point's core statement, heaviest first: what a follow-up should ask for. */
  missingCore: KeyIdea[];
  coverage: number;
  /** Why the message contradicts the point, if it does. */
  conflict: string | null;
  recalled: boolean;
  nearMiss: boolean;
}

function flatForm(lemma: string): string {
  return lemma.replace(/[_-]/g, '');
}

/**
 * Compounds written solid or apart: a learner word that is two adjacent ideas of the point run
 * together ("mergesort" for "merge sort"), or two adjacent learner words that are one idea
 * ("semi colon" for "semicolon"). Both count as the same words (strength 1).
 */
/** An idea's compound forms, once per idea: itself run together ("semicolon") and run into the next word ("mergesort"). */
const compoundCache = new WeakMap<KeyIdea, { whole: string; joined: string | null; joinedStem: string | null }>();
function compoundsOf(idea: KeyIdea): { whole: string; joined: string | null; joinedStem: string | null } {
  let forms = compoundCache.get(idea);
  if (!forms) {
    const whole = flatForm(idea.lemmas[0]!);
    const joined = idea.nextWord ? whole + idea.nextWord : null;
    forms = { whole, joined, joinedStem: joined ? stem(joined) : null };
    compoundCache.set(idea, forms);
  }
  return forms;
}

function matchCompounds(ideas: readonly KeyIdea[], message: PreparedMessage, byIdea: Map<number, IdeaHit>, isFree: (c: Candidate) => boolean, use: (c: Candidate) => void): void {
  const single = message.candidates.filter((c) => c.from === c.to);
  ideas.forEach((a, i) => {
    if (byIdea.has(i) || a.value !== null || !a.nextWord) return;
    const { joined, joinedStem } = compoundsOf(a);
    const found = single.find((c) => isFree(c) && (c.norm === joined || c.stem === joinedStem));
    if (!found) return;
    // The next word may be an idea of its own ("merge" + "sort"), said by the same word.
    const b = ideas.findIndex((idea) => idea.position === a.position + 1 && idea.lemmas[0] === a.nextWord);
    for (const index of b >= 0 && !byIdea.has(b) ? [i, b] : [i]) {
      byIdea.set(index, { idea: ideas[index]!, words: found.words, relation: 'same', strength: 1, negated: candidateNegated(message, found), clause: found.clause, wordIndices: [found.from] });
    }
    use(found);
  });
  ideas.forEach((idea, index) => {
    if (byIdea.has(index) || idea.value !== null) return;
    const { whole } = compoundsOf(idea);
    // Only a word that starts the idea can start it written apart.
    if (!single.some((c) => whole.startsWith(c.norm) && c.norm.length < whole.length)) return;
    for (let k = 0; k + 1 < single.length; k++) {
      const first = single[k]!;
      const second = single[k + 1]!;
      if (second.from !== first.to + 1 || !isFree(first) || !isFree(second) || first.norm + second.norm !== whole) continue;
      byIdea.set(index, { idea, words: `${first.words} ${second.words}`, relation: 'same', strength: 1, negated: candidateNegated(message, first), clause: first.clause, wordIndices: [first.from, second.from] });
      use(first);
      use(second);
      return;
    }
  });
}

/** Shortest clipped word ("dict", "repo"). */
export const CLIPPING_MIN_LENGTH = 4;

/**
 * A clipped word: the start of the idea's word, not a word of its own in general English
 * ("dict" for "dictionary", "repo" for "repository"; not "form" for "formula").
 */
function isClipping(short: string, word: string): boolean {
  if (short.length < CLIPPING_MIN_LENGTH || word.length < short.length + 3 || !word.startsWith(short) || !/^[a-z]+$/.test(short)) return false;
  return lemmasOf(short).every((lemma) => wordNet().frequency(lemma) === 0);
}

function isTypo(a: string, b: string): boolean {
  // Single words only: "vitamin_a" is not a typo of "vitamin_c".
  if (a.length < FUZZY_MIN_LENGTH || b.length < FUZZY_MIN_LENGTH || a[0] !== b[0] || /[\d_]/.test(a + b)) return false;
  return damerauLevenshtein(a, b, 1) <= 1;
}

const matchCache = new WeakMap<KeyIdea, Map<string, [Relation, number] | null>>();

/** How a learner candidate expresses an idea, cached per idea (ideas are cached per point, candidates recur). */
function matchIdea(idea: KeyIdea, candidate: Candidate): [Relation, number] | null {
  let known = matchCache.get(idea);
  if (!known) matchCache.set(idea, (known = new Map()));
  const cached = known.get(candidate.key);
  if (cached !== undefined) return cached;
  const result = computeMatch(idea, candidate);
  if (known.size > 2_000) known.clear();
  known.set(candidate.key, result);
  return result;
}

function computeMatch(idea: KeyIdea, candidate: Candidate): [Relation, number] | null {
  // One quantity said in words and the other in digits ("a quarter" for "25%"): quantities.ts.
  const ideaProportion = idea.value === null ? proportionOf(idea.lemmas) : null;
  const learnerProportion = candidate.strict ? null : proportionOf(candidate.lemmas);
  if ((ideaProportion !== null) !== (learnerProportion !== null)) {
    const meant = ideaProportion ?? idea.value;
    const said = learnerProportion ?? (candidate.strict && /^-?\d+(\.\d+)?$/.test(candidate.lemmas[0] ?? '') ? Number(candidate.lemmas[0]) : null);
    if (meant !== null && said !== null && sameQuantity(meant, said)) return ['same', 0.9];
  }
  if (idea.value !== null) {
    if (candidate.lemmas[0] !== String(idea.value)) return null;
    // "above 7" for "below 7": the same number, the other bound.
    return idea.comparator && candidate.comparator && idea.comparator !== candidate.comparator ? ['antonym', 1] : ['same', 1];
  }
  // "-cos x" for "cos x": the same word with the other sign.
  if (candidate.stem === idea.stem || candidate.lemmas.some((l) => idea.lemmas.includes(l))) return Boolean(candidate.minus) === Boolean(idea.minus) ? ['same', 1] : ['antonym', 1];
  if (isTypo(candidate.norm, idea.lemmas[0]!)) return ['same', 0.95];
  if (isClipping(candidate.norm, idea.lemmas[0]!)) return ['same', 0.9];
  if (idea.strict || candidate.strict) return null;
  let best: [Relation, number] | null = null;
  for (const learnerLemma of candidate.lemmas) {
    for (const ideaLemma of idea.lemmas) {
      const r = relate(learnerLemma, ideaLemma);
      if (r && (!best || r[1] > best[1])) best = r;
    }
  }
  if (best) return best;
  // Saying what a word means instead of the word: "can't be changed" for "immutable".
  if (idea.parts) return null;
  for (const learnerLemma of candidate.lemmas) {
    for (const ideaLemma of idea.lemmas) {
      const r = definitionRelation(learnerLemma, ideaLemma, idea.specificity);
      if (r) return r;
    }
  }
  return null;
}

/** Strength of a word read as the other pole of an opposition the point states. */
export const POLE_STRENGTH = 0.85;
/** How much weaker a reading that contradicts the point ranks than one that agrees with it. */
export const CONTRARY_PENALTY = 0.15;

/** Two ideas of a point that are opposites of each other ("dilute" / "concentrated", "rise" / "fall"). */
function arePoles(x: KeyIdea, y: KeyIdea): boolean {
  if (directionOf(x.lemmas) * directionOf(y.lemmas) < 0) return true;
  return x.lemmas.some((a) => y.lemmas.some((b) => relate(a, b)?.[0] === 'antonym'));
}

/** The points a point is matched among: how many of them share each idea. */
export interface PointSet {
  /** Points of the set whose ideas include this one (at least 1). */
  frequencyOf(idea: KeyIdea): number;
}

function ideaKey(idea: KeyIdea): string {
  return idea.value !== null ? `#${idea.value}` : idea.lemmas.at(-1)!;
}

/** Document frequencies of the ideas of `contents` (the points evaluated together). */
export function pointSetOf(contents: readonly string[]): PointSet {
  const counts = new Map<string, number>();
  for (const content of new Set(contents)) {
    const keys = new Set<string>();
    for (const idea of keyIdeasOf(content)) for (const key of [ideaKey(idea), ...idea.lemmas]) keys.add(key);
    for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return { frequencyOf: (idea) => Math.max(1, counts.get(ideaKey(idea)) ?? 1) };
}

export interface MatchOptions {
  /** The set the point is matched among, for its IDF; without it every idea counts as its own. */
  set?: PointSet;
}

/** How well a prepared learner message covers a point, with the recall decision. */
export function matchPoint(message: PreparedMessage, content: string, options: MatchOptions = {}): PointMatch {
  const ideas = keyIdeasOf(content);
  const weights = new Map(ideas.map((idea) => [idea, idea.weight / (1 + IDF_STRENGTH * Math.log(options.set?.frequencyOf(idea) ?? 1))]));
  const weightOf = (idea: KeyIdea) => weights.get(idea) ?? idea.weight;
  // Every (idea, learner word) pair that matches, strongest first; each learner word then
  // expresses one idea only, so "energy" cannot stand for both "energy" and "chemical energy".
  const pairs: Array<Omit<IdeaHit, 'clause' | 'wordIndices'> & { ideaIndex: number; candidate: number }> = [];
  ideas.forEach((idea, ideaIndex) => {
    message.candidates.forEach((c, candidate) => {
      const r = matchIdea(idea, c);
      if (!r) return;
      const negated = candidateNegated(message, c) !== (r[0] === 'antonym' || r[0] === 'negative-definition');
      pairs.push({ idea, words: c.words, relation: r[0], strength: r[1], negated, ideaIndex, candidate });
    });
  });
  // Where the point has both poles of an opposition ("from a dilute solution to a concentrated
  // one"), the opposite of one pole says the other: "stronger" is "concentrated" there, not a
  // denial of "dilute" (the order they are said in is compared by the contradiction model).
  for (const pair of [...pairs]) {
    if (pair.relation !== 'antonym') continue;
    ideas.forEach((other, otherIndex) => {
      if (otherIndex === pair.ideaIndex || other.value !== null || !arePoles(pair.idea, other)) return;
      pairs.push({ ...pair, idea: other, ideaIndex: otherIndex, relation: 'synonym', strength: POLE_STRENGTH, negated: candidateNegated(message, message.candidates[pair.candidate]!) });
    });
  }
  // The charitable reading first: an agreeing reading as strong as a synonym wins over an
  // antonym reading, which a learner's words only get when nothing else they say fits.
  const rank = (pair: (typeof pairs)[number]) => pair.strength - (pair.negated !== pair.idea.negated ? CONTRARY_PENALTY : 0);
  pairs.sort((a, b) => rank(b) - rank(a) || b.strength - a.strength || a.ideaIndex - b.ideaIndex || a.candidate - b.candidate);
  const byIdea = new Map<number, IdeaHit>();
  // Words, not candidates, are used up: "opportunity cost" said as a collocation leaves no "cost" to stand for "value".
  const usedWords = new Set<number>();
  const isFree = (c: Candidate) => {
    for (let i = c.from; i <= c.to; i++) if (usedWords.has(i)) return false;
    return true;
  };
  const use = (c: Candidate) => {
    for (let i = c.from; i <= c.to; i++) usedWords.add(i);
  };
  for (const pair of pairs) {
    const candidate = message.candidates[pair.candidate]!;
    if (byIdea.has(pair.ideaIndex) || !isFree(candidate)) continue;
    byIdea.set(pair.ideaIndex, { idea: pair.idea, words: pair.words, relation: pair.relation, strength: pair.strength, negated: pair.negated, clause: candidate.clause, wordIndices: indicesOf(candidate) });
    use(candidate);
  }
  // A collocation not said whole can be said in its own words ("stored chemically" for
  // "chemical energy"): 0.9 × the share of its words expressed. A word may serve a whole idea and
  // such a part ("energy"), but one part only ("left" is not both "left atrium" and "left ventricle").
  const usedByParts = new Set<Candidate>();
  ideas.forEach((idea, index) => {
    if (byIdea.has(index) || !idea.parts || idea.parts.length === 0) return;
    const found = idea.parts.map((part) => {
      for (const c of message.candidates) {
        if (usedByParts.has(c)) continue;
        const r = matchIdea(part, c);
        if (r && r[0] !== 'antonym' && r[1] >= 0.85) return c;
      }
      return null;
    });
    for (const c of found) if (c) usedByParts.add(c);
    const partsSaid = idea.parts.filter((_, k) => found[k] !== null);
    const said = found.filter((c): c is Candidate => c !== null);
    if (said.length === 0) return;
    const negated = candidateNegated(message, said[0]!);
    byIdea.set(index, { idea, words: said.map((c) => c.words).join(' … '), relation: 'same', strength: (0.9 * said.length) / idea.parts.length, negated, clause: said[0]!.clause, wordIndices: said.flatMap(indicesOf), partsSaid });
  });
  // A definition is weak evidence: it counts only in a clause that says something else of the point.
  for (const [index, hit] of byIdea) {
    if (hit.relation !== 'definition' && hit.relation !== 'negative-definition') continue;
    const corroborated = [...byIdea.values()].some((other) => other !== hit && other.clause === hit.clause && other.relation !== 'definition' && other.relation !== 'negative-definition');
    if (!corroborated) byIdea.delete(index);
  }
  // A compound written as one word or as two: "mergesort" for "merge sort", "semi colon" for "semicolon".
  matchCompounds(ideas, message, byIdea, isFree, use);
  // An acronym for the point's words, or the words of its acronym: "PPI" for "proton pump inhibitor".
  matchAcronyms(ideas, message, byIdea, isFree, use);
  // A word that already expresses another idea of the point ("keeps moving" for "in motion")
  // is not also the opposite of one ("stays"): such an antonym reading is dropped.
  const agreeingWords = new Set([...byIdea.values()].filter((hit) => hit.relation !== 'antonym').map((hit) => hit.words.toLowerCase()));
  for (const [index, hit] of byIdea) if (hit.relation === 'antonym' && agreeingWords.has(hit.words.toLowerCase())) byIdea.delete(index);
  const hits: IdeaHit[] = [];
  const missing: KeyIdea[] = [];
  ideas.forEach((idea, index) => {
    const hit = byIdea.get(index);
    if (hit) hits.push(hit);
    else missing.push(idea);
  });
  const total = ideas.reduce((sum, idea) => sum + weightOf(idea), 0);
  const coverage = total === 0 ? 0 : hits.reduce((sum, hit) => sum + weightOf(hit.idea) * hit.strength, 0) / total;

  // A point the message hardly touches cannot be contradicted by it, nor recalled: no need to look.
  const conflict = hits.length === 0 || coverage < NEAR_MISS_COVERAGE ? null : conflictOf(content, message, ideas, hits, missing, weightOf);
  const coreCount = ideas.filter((idea) => idea.role === 'core').length || ideas.length;
  // Naming what the point is about is not saying what it says: its predicate must be there too.
  const predicate = ideas.filter((idea) => idea.role === 'core' && !idea.subject);
  const predicateWeight = predicate.reduce((sum, idea) => sum + weightOf(idea), 0);
  const predicateSaid = hits.filter((hit) => hit.idea.role === 'core' && !hit.idea.subject).reduce((sum, hit) => sum + weightOf(hit.idea) * hit.strength, 0);
  const statesPredicate = predicate.length === 0 || predicate.length === ideas.filter((idea) => idea.role === 'core').length || predicateSaid >= PREDICATE_COVERAGE * predicateWeight;
  // No verb is required: a terse answer ("water: 100 degrees at sea level?") is judged on what
  // it says like any other. (A rule that wanted one failed more right
  // answers than it stopped, on the corpus's dev and test splits alike, issue 28.)
  const recalled = conflict === null && statesPredicate && coverage >= RECALL_COVERAGE && hits.length >= Math.min(2, coreCount);
  const nearMiss = !recalled && hits.length > 0 && (coverage >= NEAR_MISS_COVERAGE || conflict !== null);
  const missingCore = missing.filter((idea) => idea.role === 'core').sort((a, b) => weightOf(b) - weightOf(a));
  return { ideas, hits, missing, missingCore, coverage, conflict, recalled, nearMiss };
}
