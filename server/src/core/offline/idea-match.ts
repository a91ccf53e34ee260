/**
 * Meaning-level matching of a learner's message against a recall point's key ideas — the
 * offline evaluator's rule (SPEC §7). Deterministic, no I/O beyond the shared WordNet data.
 *
 * Key ideas of a point
 * --------------------
 * Its weighted content words and collocations — see key-ideas.ts (re-exported from here).
 *
 * When a learner word expresses an idea (strength)
 * ------------------------------------------------
 *   same lemma or Porter stem, or a typo of it (lexical.ts rules)  1.0
 *   a WordNet synonym (shared synset)                              0.9
 *   derivationally related / pertainym ("storage", "chemically")   0.9
 *   a hypernym or hyponym one level away ("sunlight" ~ "light")    0.85
 *   two to four levels away, through a specific (depth ≥ 6) noun   0.7  ("sugar" ~ "glucose")
 *   an antonym ("decrease" for "increase")                         0.9, but with its polarity flipped
 * Light verbs, very polysemous words and numbers only match by lemma or value.
 *
 * Conflicts (what makes a message a contradiction or a near miss)
 * ---------------------------------------------------------------
 * - polarity: each matched idea has the polarity of its clause (negations, see text-analysis.ts)
 *   XOR an antonym flip; when the weight of matched ideas whose polarity differs from the
 *   point's is at least the weight of those that agree, the message contradicts the point;
 * - a different number where the point has one and the learner gave none of its numbers;
 * - a sister term (co-hyponym under a specific parent: "chloroplast" for "mitochondrion") in
 *   place of an idea that is otherwise missing.
 *
 * Coverage rule
 * -------------
 * coverage = Σ weight × strength of matched ideas / Σ weight of all ideas. A point is recalled
 * when coverage ≥ RECALL_COVERAGE, at least min(2, ideas) ideas are matched, its number (if any)
 * is matched, and there is no conflict. A near miss: not recalled, with coverage ≥ 0.25 or a conflict.
 */
import { directionOf, keyIdeasOf, LIGHT_WORDS, type KeyIdea } from './key-ideas';
import { damerauLevenshtein, FUZZY_MIN_LENGTH } from './lexical';
import { analyzeText, type AnalyzedText, type AnalyzedWord } from './text-analysis';
import { wordNet, type WordNet } from './wordnet';

export { directionOf, keyIdeasOf, LIGHT_WORDS, POLYSEMY_LIMIT, type KeyIdea } from './key-ideas';

export const RECALL_COVERAGE = 0.6;
export const NEAR_MISS_COVERAGE = 0.25;
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

export type Relation = 'same' | 'synonym' | 'derived' | 'broader' | 'narrower' | 'antonym';

export interface IdeaHit {
  idea: KeyIdea;
  /** The learner's words, as written. */
  words: string;
  relation: Relation;
  strength: number;
  /** Polarity of the learner's clause XOR an antonym. */
  negated: boolean;
}

export interface PointMatch {
  ideas: KeyIdea[];
  hits: IdeaHit[];
  missing: KeyIdea[];
  coverage: number;
  /** Why the message contradicts the point, if it does. */
  conflict: string | null;
  recalled: boolean;
  nearMiss: boolean;
}

const emptyNumbers: readonly number[] = [];

// --- relations between lemmas ---------------------------------------------------------

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

function sharesSynset(wn: WordNet, a: string, b: string): boolean {
  const sb = wn.commonSynsets(b, SENSE_LIMIT);
  if (sb.length === 0) return false;
  for (const s of wn.commonSynsets(a, SENSE_LIMIT)) for (const t of sb) if (s === t) return true;
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
function nearAncestors(wn: WordNet, lemma: string, hops: number): Map<number, number> {
  const found = new Map<number, number>();
  // The two most frequent noun senses: rarer ones ("plant", the person planted in an audience) must not make cousins.
  let frontier = [...wn.commonSynsets(lemma, SENSE_LIMIT)].filter((s) => wn.pos(s) === 'n').slice(0, 2);
  for (const s of frontier) found.set(s, 0);
  for (let level = 1; level <= hops; level++) {
    const next: number[] = [];
    for (const s of frontier) for (const p of wn.hypernyms(s)) if (!found.has(p)) {
      found.set(p, level);
      next.push(p);
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
export function areSisters(wn: WordNet, a: string, b: string): boolean {
  if (a === b || sharesSynset(wn, a, b)) return false;
  const up = nearAncestors(wn, a, COUSIN_HOPS);
  const down = nearAncestors(wn, b, COUSIN_HOPS);
  // One is the other's hypernym or hyponym: a broader or narrower word, not a substitute.
  for (const s of wn.commonSynsets(b, SENSE_LIMIT)) if (up.has(s)) return false;
  for (const s of wn.commonSynsets(a, SENSE_LIMIT)) if (down.has(s)) return false;
  for (const [s, level] of up) {
    if (level === 0) continue;
    const other = down.get(s);
    if (other !== undefined && other > 0 && wn.depth(s) >= 4 && wn.hyponyms(s).length <= COUSIN_CATEGORY_MAX) return true;
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
  else if ([...wn.antonyms(learner)].some((opposite) => opposite === idea || sharesSynset(wn, opposite, idea))) result = ['antonym', 0.9];
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

// --- matching ------------------------------------------------------------------------

interface Candidate {
  lemmas: readonly string[];
  stem: string;
  norm: string;
  words: string;
  clause: number;
  strict: boolean;
}

/** Verbs that, with "up" or "down", say a direction ("go up", "went down", "come down"). */
const MOTION_VERBS: ReadonlySet<string> = new Set(['go', 'come', 'move', 'head', 'shoot', 'climb', 'creep']);

/** The learner's words (and collocations) that can express ideas. */
export interface PreparedMessage {
  text: AnalyzedText;
  candidates: Candidate[];
  numbers: readonly number[];
}

export function prepareMessage(text: string | AnalyzedText): PreparedMessage {
  const analyzed = typeof text === 'string' ? analyzeText(text) : text;
  const candidates: Candidate[] = [];
  for (const c of analyzed.collocations) {
    const words = analyzed.words.slice(c.from, c.to + 1);
    candidates.push({ lemmas: [c.lemma], stem: c.lemma, norm: c.lemma, words: words.map((w) => w.raw).join(' '), clause: words[0]!.clause, strict: false });
  }
  const numbers: number[] = [];
  for (const [index, w] of analyzed.words.entries()) {
    if (w.value !== null) numbers.push(w.value);
    // A direction said with a function word: "more" / "less" / "fewer", or a verb of motion with
    // "up" / "down" ("goes down" for "falls"). Directions express one another (key-ideas.ts).
    const previous = analyzed.words[index - 1];
    const particle = (w.norm === 'up' || w.norm === 'down') && previous !== undefined && previous.clause === w.clause && previous.lemmas.some((l) => MOTION_VERBS.has(l));
    if (particle) {
      candidates.push({ lemmas: [w.norm === 'up' ? 'rise' : 'fall'], stem: w.norm, norm: w.norm, words: `${previous.raw} ${w.raw}`, clause: w.clause, strict: false });
      continue;
    }
    // Not in a comparison ("more … than"): which side is more is swapsComparison's to judge.
    const compares = analyzed.words.some((other) => other.norm === 'than' && other.clause === w.clause);
    if (w.functionWord && directionOf([w.norm]) !== 0 && !compares) {
      candidates.push({ lemmas: [w.norm], stem: w.stem, norm: w.norm, words: w.raw, clause: w.clause, strict: false });
      continue;
    }
    if (w.functionWord || w.lemmas.length === 0) continue;
    const strict = w.value !== null || LIGHT_WORDS.has(w.norm);
    candidates.push({ lemmas: w.lemmas, stem: w.stem, norm: w.norm, words: w.raw, clause: w.clause, strict });
  }
  return { text: analyzed, candidates, numbers: numbers.length ? numbers : emptyNumbers };
}

function isTypo(a: string, b: string): boolean {
  if (a.length < FUZZY_MIN_LENGTH || b.length < FUZZY_MIN_LENGTH || a[0] !== b[0] || /\d/.test(a + b)) return false;
  return damerauLevenshtein(a, b, 1) <= 1;
}

function matchIdea(idea: KeyIdea, candidate: Candidate): [Relation, number] | null {
  if (idea.value !== null) return candidate.lemmas[0] === String(idea.value) ? ['same', 1] : null;
  if (candidate.stem === idea.stem || candidate.lemmas.some((l) => idea.lemmas.includes(l))) return ['same', 1];
  if (isTypo(candidate.norm, idea.lemmas[0]!)) return ['same', 0.95];
  if (idea.strict || candidate.strict) return null;
  let best: [Relation, number] | null = null;
  for (const learnerLemma of candidate.lemmas) {
    for (const ideaLemma of idea.lemmas) {
      const r = relate(learnerLemma, ideaLemma);
      if (r && (!best || r[1] > best[1])) best = r;
    }
  }
  return best;
}

/** A learner word that stands where `idea` should be: its sister/cousin, or of the opposite direction. */
function substituteFor(idea: KeyIdea, free: readonly Candidate[]): string | null {
  if (idea.value !== null || idea.strict) return null;
  const wn = wordNet();
  const direction = directionOf(idea.lemmas);
  for (const c of free) {
    if (direction !== 0 && directionOf(c.lemmas) === -direction) return c.words;
    for (const l of c.lemmas) for (const i of idea.lemmas) if (areSisters(wn, l, i)) return c.words;
  }
  return null;
}

/**
 * "A is less … than B" said as "B is less … than A": the two sides of a comparison swapped,
 * unless the comparative itself is reversed too ("more" for "less").
 */
function swapsComparison(content: string, message: PreparedMessage, hits: readonly IdeaHit[]): boolean {
  if (hits.length === 0) return false;
  const point = analyzeTextCached(content);
  const pointThan = point.words.findIndex((w) => w.norm === 'than');
  const learnerThan = message.text.words.findIndex((w) => w.norm === 'than');
  if (pointThan < 0 || learnerThan < 0) return false;
  // The thing compared against: the first word after "than" that is not an article.
  const after = (words: readonly AnalyzedWord[], than: number) => words.slice(than + 1).find((w) => !['the', 'a', 'an', 'that', 'of'].includes(w.norm));
  const same = (a: AnalyzedWord, b: AnalyzedWord) => a.stem === b.stem || a.lemmas.some((l) => b.lemmas.includes(l));
  const pointOther = after(point.words, pointThan);
  const learnerOther = after(message.text.words, learnerThan);
  if (!pointOther || !learnerOther || same(pointOther, learnerOther)) return false;
  const learnerBefore = message.text.words.slice(0, learnerThan);
  const pointBefore = point.words.slice(0, pointThan);
  if (!learnerBefore.some((w) => same(w, pointOther)) || !pointBefore.some((w) => same(w, learnerOther))) return false;
  // Swapped sides with the comparative reversed too ("more" for "less") say the same thing.
  const comparative = (words: readonly AnalyzedWord[], than: number) => directionOf(words.slice(Math.max(0, than - 4), than).flatMap((w) => [w.norm, ...w.lemmas]));
  return comparative(point.words, pointThan) === comparative(message.text.words, learnerThan);
}

const analysisCache = new Map<string, AnalyzedText>();
function analyzeTextCached(content: string): AnalyzedText {
  let analyzed = analysisCache.get(content);
  if (!analyzed) {
    analyzed = analyzeText(content);
    if (analysisCache.size > 5_000) analysisCache.clear();
    analysisCache.set(content, analyzed);
  }
  return analyzed;
}

/** How well a prepared learner message covers a point, with the recall decision. */
export function matchPoint(message: PreparedMessage, content: string): PointMatch {
  const ideas = keyIdeasOf(content);
  // Every (idea, learner word) pair that matches, strongest first; each learner word then
  // expresses one idea only, so "energy" cannot stand for both "energy" and "chemical energy".
  const pairs: Array<IdeaHit & { ideaIndex: number; candidate: number }> = [];
  ideas.forEach((idea, ideaIndex) => {
    message.candidates.forEach((c, candidate) => {
      const r = matchIdea(idea, c);
      if (!r) return;
      const negated = (message.text.negatedClauses[c.clause] ?? false) !== (r[0] === 'antonym');
      pairs.push({ idea, words: c.words, relation: r[0], strength: r[1], negated, ideaIndex, candidate });
    });
  });
  pairs.sort((a, b) => b.strength - a.strength || Number(a.negated !== a.idea.negated) - Number(b.negated !== b.idea.negated) || a.ideaIndex - b.ideaIndex || a.candidate - b.candidate);
  const byIdea = new Map<number, IdeaHit>();
  const usedWords = new Set<number>();
  for (const pair of pairs) {
    if (byIdea.has(pair.ideaIndex) || usedWords.has(pair.candidate)) continue;
    byIdea.set(pair.ideaIndex, { idea: pair.idea, words: pair.words, relation: pair.relation, strength: pair.strength, negated: pair.negated });
    usedWords.add(pair.candidate);
  }
  // A collocation not said whole can be said in its own words ("stored chemically" for
  // "chemical energy"): 0.9 × the share of its words expressed, without using the words up.
  ideas.forEach((idea, index) => {
    if (byIdea.has(index) || !idea.parts || idea.parts.length === 0) return;
    const found = idea.parts.map((part) => {
      for (const c of message.candidates) {
        const r = matchIdea(part, c);
        if (r && r[0] !== 'antonym' && r[1] >= 0.85) return c;
      }
      return null;
    });
    const said = found.filter((c): c is Candidate => c !== null);
    if (said.length === 0) return;
    const negated = message.text.negatedClauses[said[0]!.clause] ?? false;
    byIdea.set(index, { idea, words: said.map((c) => c.words).join(' … '), relation: 'same', strength: (0.9 * said.length) / idea.parts.length, negated });
  });
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
  const total = ideas.reduce((sum, idea) => sum + idea.weight, 0);
  const coverage = total === 0 ? 0 : hits.reduce((sum, hit) => sum + hit.idea.weight * hit.strength, 0) / total;

  let conflict: string | null = null;
  // An antonym ("shortest" for "longest", "raising" for "lowering") contradicts the idea it
  // stands for unless its own clause is negated too; plain negation is weighed over the ideas.
  const opposed = hits.filter((h) => h.relation === 'antonym' && h.negated !== h.idea.negated);
  const agree = hits.filter((h) => h.negated === h.idea.negated).reduce((s, h) => s + h.idea.weight, 0);
  const disagree = hits.filter((h) => h.negated !== h.idea.negated).reduce((s, h) => s + h.idea.weight, 0);
  if (opposed.length > 0) conflict = `says the opposite (${opposed.map((h) => `"${h.words}" for "${h.idea.surface}"`).join(', ')})`;
  else if (hits.length > 0 && disagree > 0 && disagree >= agree) conflict = 'negates what the point states';
  const numberIdeas = ideas.filter((idea) => idea.value !== null);
  const numberHit = numberIdeas.length === 0 || hits.some((h) => h.idea.value !== null);
  if (!conflict && !numberHit && message.numbers.length > 0 && hits.length > 0) {
    conflict = `gives a different number (${message.numbers.join(', ')} instead of ${numberIdeas.map((i) => i.surface).join(', ')})`;
  }
  if (!conflict && hits.length > 0) {
    // Only words of the clauses that speak about this point can stand in for one of its ideas.
    const clauses = new Set<number>();
    const used = new Set<string>();
    for (const hit of hits) for (const c of message.candidates) if (hit.words.split(' … ').includes(c.words)) {
      clauses.add(c.clause);
      used.add(c.words);
    }
    const free = message.candidates.filter((c) => clauses.has(c.clause) && !used.has(c.words) && !c.strict);
    const weak = [...missing, ...hits.filter((h) => h.strength < 0.85).map((h) => h.idea)];
    for (const idea of weak) {
      const substitute = substituteFor(idea, free);
      if (substitute) {
        conflict = `says "${substitute}" where the point has "${idea.surface}"`;
        break;
      }
    }
  }
  if (!conflict && swapsComparison(content, message, hits)) conflict = 'reverses the comparison';
  const recalled = conflict === null && numberHit && coverage >= RECALL_COVERAGE && hits.length >= Math.min(2, ideas.length);
  const nearMiss = !recalled && hits.length > 0 && (coverage >= NEAR_MISS_COVERAGE || conflict !== null);
  return { ideas, hits, missing, coverage, conflict, recalled, nearMiss };
}
