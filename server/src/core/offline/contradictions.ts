/**
 * The offline evaluator's explicit model of contradiction (issue 28): why a learner's message,
 * however much of a point it covers, says something else. Checked in order, the first found is
 * named in the tutor's feedback and the point is not recalled:
 *
 * - an opposite: an antonym, the other direction of change, the other bound of a number, the
 *   other sign ("shortest" for "longest", "increases" for "reduces", "above 7" for "below 7");
 * - a negation: per clause of the point (a subordinate clause apart), the specificity of the
 *   matched ideas said with the other polarity against those said with the point's; a clause's
 *   subject, before its verb, is never under a negation unless the learner negates it ("…, not
 *   Augustus"); a clause about the contrary case ("otherwise …") is left out;
 * - another number where the point has one that is not said (a proportion in words counts: "30%"
 *   for "a tenth", quantities.ts), or another formula of the same head ("O(n)" for "O(log n)",
 *   notation.ts);
 * - a substitute: a sister or cousin term in place of an idea that is not said ("chloroplast" for
 *   "mitochondrion"), the point said of another subject, or one word said as another of the same
 *   kind between the same neighbours ("a git fetch followed by a rebase");
 * - a comparison, an order or a relation the other way round: "the mean is less affected than the
 *   median" (comparisons.ts; "no X is more … than A" is read turned round), "declines slowly at
 *   first and then quickly", "ATP produces the mitochondria", a movement from a place the point
 *   moves to ("removes CO2 from the atmosphere" for "returns it to", motion-direction.ts);
 * - what goes with what swapped between the point's statements or contrasted clauses ("baking
 *   powder needs an acid, baking soda has its own"; "above 7 is acidic").
 */
import type { IdeaHit } from './idea-match';
import { directionOf, isFiniteVerb, LIGHT_WORDS, specificityOf, type KeyIdea } from './key-ideas';
import { areSisters, COUSIN_HOPS, DEFINITION_MIN_SPECIFICITY, nearAncestors, relate } from './lexical-relations';
import { reversedMovement } from './motion-direction';
import { formulasOf, otherFormula, type Formula } from './notation';
import { comparisonConflict } from './comparisons';
import { proportionOf } from './quantities';
import { indicesOf, type Candidate, type PreparedMessage } from './prepared-message';
import { analyzeText, FINITE_FORMS, type AnalyzedText, type AnalyzedWord } from './text-analysis';
import { wordNet } from './wordnet';
import { boundedMemo } from './bounded-memo';

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
 * The point said of something else: its subject is not said, and where the learner's clause
 * names its own subject (before its verb) stands a term of the same kind — a sister ("the Danube
 * is the longest river in Africa" for the Nile) or, for a specific subject, a term WordNet does
 * not know ("quicksort's worst case is n log n" for merge sort).
 */
function otherSubject(message: PreparedMessage, ideas: readonly KeyIdea[], hits: readonly IdeaHit[], free: readonly Candidate[]): string | null {
  const subject = ideas.filter((idea) => idea.subject && idea.value === null);
  if (subject.length === 0 || hits.some((hit) => hit.idea.subject)) return null;
  const wn = wordNet();
  const words = message.text.words;
  for (const clause of new Set(hits.map((hit) => hit.clause))) {
    // Where the clause turns from its subject to what it says of it.
    const verb = words.findIndex((w, index) => w.clause === clause && (FINITE_FORMS.has(w.norm) || (index > 0 && isFiniteVerb(wn, w))));
    if (verb < 0) continue;
    for (const c of free) {
      if (c.clause !== clause || c.to >= verb || c.strict) continue;
      const unknown = c.lemmas.every((l) => !wn.has(l)) && /^[a-z]{4,}$/.test(c.norm);
      for (const idea of subject) {
        if (unknown && idea.specificity >= DEFINITION_MIN_SPECIFICITY - 0.1) return `says it of "${c.words}", not "${idea.surface}"`;
        if (c.lemmas.some((l) => idea.lemmas.some((i) => areSisters(wn, l, i)))) return `says it of "${c.words}", not "${idea.surface}"`;
      }
    }
  }
  return null;
}

function isContentWord(word: AnalyzedWord): boolean {
  return word.value !== null || (!word.functionWord && !LIGHT_WORDS.has(word.norm) && word.lemmas.length > 0);
}

/**
 * One word of the point said as another, between the same neighbours: "Acids release air ions"
 * for "hydrogen ions", "a git fetch followed by a rebase" for "… by a merge", "one strands" for
 * "two strands". Word by word: a content word of the point that no learner word expresses, whose
 * nearest content words in its clause are expressed by learner words with exactly one unmatched
 * content word between them (or after the last, before the first) — the word said in its place.
 */
function replacedWord(content: string, message: PreparedMessage, hits: readonly IdeaHit[]): string | null {
  const point = analyzeTextCached(content).words;
  const learner = message.text.words;
  // Which point word each learner word expresses.
  const alignedTo = new Map<number, number>();
  const pointAligned = new Set<number>();
  for (const hit of hits) {
    // Of a collocation, only the words said: "ions" for "hydrogen ions" leaves "hydrogen" unsaid.
    const saidParts = hit.partsSaid ?? (hit.idea.parts && hit.relation !== 'same' ? hit.idea.parts.filter((part) => hit.wordIndices.some((i) => message.text.words[i]?.lemmas.some((l) => part.lemmas.includes(l)))) : undefined);
    const spoken = saidParts && saidParts.length > 0 ? saidParts.map((part) => part.position) : range(hit.idea.position, hit.idea.end ?? hit.idea.position);
    for (const p of spoken) pointAligned.add(p);
    for (const l of hit.wordIndices) alignedTo.set(l, spoken[0] ?? hit.idea.position);
  }
  const pointContent = point.map((w, i) => i).filter((i) => isContentWord(point[i]!));
  const learnerContent = learner.map((w, i) => i).filter((i) => isContentWord(learner[i]!));
  // A word said twice, or echoed as written, is the same word wherever it stands.
  const sameWord = (a: AnalyzedWord, b: AnalyzedWord) => a.stem === b.stem || a.lemmas.some((l) => b.lemmas.includes(l));
  for (const p of pointContent) {
    if (pointAligned.has(p)) continue;
    const echo = learnerContent.find((l) => sameWord(learner[l]!, point[p]!));
    if (echo !== undefined) {
      pointAligned.add(p);
      if (!alignedTo.has(echo)) alignedTo.set(echo, p);
    }
  }
  for (const l of learnerContent) {
    if (alignedTo.has(l)) continue;
    const echoed = pointContent.find((p) => sameWord(learner[l]!, point[p]!));
    if (echoed !== undefined) alignedTo.set(l, echoed);
  }
  const learnerAt = (p: number) => [...alignedTo].find(([, q]) => q === p)?.[0];
  // Runs of unsaid content words of the point, within a clause, and what the learner says between their neighbours.
  for (let k = 0; k < pointContent.length; k++) {
    const p = pointContent[k]!;
    if (pointAligned.has(p)) continue;
    let last = k;
    while (last + 1 < pointContent.length && !pointAligned.has(pointContent[last + 1]!) && point[pointContent[last + 1]!]!.clause === point[p]!.clause) last += 1;
    const run = pointContent.slice(k, last + 1);
    k = last;
    const before = k - run.length >= 0 && point[pointContent[k - run.length]!]!.clause === point[p]!.clause ? pointContent[k - run.length]! : null;
    const after = last + 1 < pointContent.length && point[pointContent[last + 1]!]!.clause === point[p]!.clause ? pointContent[last + 1]! : null;
    const left = before !== null ? learnerAt(before) : undefined;
    const right = after !== null ? learnerAt(after) : undefined;
    if (left === undefined && right === undefined) continue;
    let between: number[];
    if (left !== undefined && right !== undefined) {
      if (right <= left || learner[left]!.clause !== learner[right]!.clause) continue;
      between = learnerContent.filter((i) => i > left && i < right);
    } else if (left !== undefined && after === null) {
      between = learnerContent.filter((i) => i > left && learner[i]!.clause === learner[left]!.clause);
    } else if (right !== undefined && before === null) {
      between = learnerContent.filter((i) => i < right && learner[i]!.clause === learner[right]!.clause);
    } else continue;
    if (between.length === 0 || between.length > run.length + 1 || between.some((i) => alignedTo.has(i))) continue;
    for (const i of between) {
      // A word after an article is used as a noun ("a merge"), whatever else WordNet knows it as.
      const meant = run.find((q) => sameKind(learner[i]!, point[q]!, ['a', 'an', 'the'].includes(point[q - 1]?.norm ?? '')));
      if (meant !== undefined) return `says "${learner[i]!.raw}" where the point has "${point[meant]!.raw}"`;
    }
  }
  return null;
}

/**
 * Whether a learner word in a point word's place names another thing of the same kind: another
 * number; another noun under the same category (two levels up at most, a category at depth ≥ 4:
 * "air" / "hydrogen" are gases, "tall" / "high" only properties); a term WordNet does not know in
 * place of a specific noun ("rebase" for "merge"). Another adjective or verb is more likely a
 * paraphrase WordNet does not link ("tall" for "high", "holds back" for "slows").
 */
function sameKind(said: AnalyzedWord, meant: AnalyzedWord, meantAsNoun: boolean): boolean {
  if (said.value !== null || meant.value !== null) return said.value !== null && meant.value !== null && said.value !== meant.value;
  const wn = wordNet();
  const nounSenses = (word: AnalyzedWord) => word.lemmas.flatMap((l) => wn.commonSynsets(l, 2).filter((synset) => wn.pos(synset) === 'n'));
  const meantSenses = nounSenses(meant);
  if (said.lemmas.every((l) => !wn.has(l))) return (meantAsNoun || meantSenses.length > 0) && /^[a-z]{4,}$/.test(said.norm) && specificityOf(meant.lemmas) >= 0.6;
  if (meantSenses.length === 0) return false;
  const up = new Map<number, number>();
  for (const lemma of said.lemmas) for (const [synset, level] of nearAncestors(wn, lemma, COUSIN_HOPS)) up.set(synset, level);
  const down = new Map<number, number>();
  for (const lemma of meant.lemmas) for (const [synset, level] of nearAncestors(wn, lemma, COUSIN_HOPS)) down.set(synset, level);
  // One the other's kind ("Nile" and "river"): a narrower or broader word, not a substitute.
  for (const [synset, level] of up) if (level === 0 && down.has(synset)) return false;
  for (const [synset, level] of down) if (level === 0 && up.has(synset)) return false;
  for (const [synset, level] of down) if (level > 0 && (up.get(synset) ?? 0) > 0 && wn.depth(synset) >= 4) return true;
  return false;
}

function range(from: number, to: number): number[] {
  const out: number[] = [];
  for (let i = from; i <= to; i++) out.push(i);
  return out;
}

/** Two ideas that oppose each other: antonyms, opposite directions, or one number's two bounds ("below 7" / "above 7"). */
function opposes(x: KeyIdea, y: KeyIdea): boolean {
  if (x.value !== null || y.value !== null) return x.value === y.value && (x.comparator ?? 0) * (y.comparator ?? 0) < 0;
  return directionOf(x.lemmas) * directionOf(y.lemmas) < 0 || x.lemmas.some((a) => y.lemmas.some((b) => relate(a, b)?.[0] === 'antonym' || relate(b, a)?.[0] === 'antonym'));
}

const contrastCache = new WeakMap<readonly KeyIdea[], Array<readonly [KeyIdea, KeyIdea]>>();

/** The point's oppositions across clauses (per point, once). */
function contrastPairs(ideas: readonly KeyIdea[]): Array<readonly [KeyIdea, KeyIdea]> {
  const cached = contrastCache.get(ideas);
  if (cached) return cached;
  const pairs: Array<readonly [KeyIdea, KeyIdea]> = [];
  for (let i = 0; i < ideas.length; i++) {
    for (let j = i + 1; j < ideas.length; j++) {
      const x = ideas[i]!;
      const y = ideas[j]!;
      if (x.clause !== y.clause && opposes(x, y)) pairs.push(x.clause < y.clause ? [x, y] : [y, x]);
    }
  }
  contrastCache.set(ideas, pairs);
  return pairs;
}

/**
 * A point that contrasts two clauses ("below 7 is acidic, and above 7 is alkaline") said with
 * one side's term bound to the other side's: "above 7 … is acidic". A learner clause that holds
 * the first clause's half of one opposition and the second clause's half of another, and
 * neither of their partners, has crossed them.
 */
function crossesContrasts(ideas: readonly KeyIdea[], hits: readonly IdeaHit[]): boolean {
  const pairs = contrastPairs(ideas);
  if (pairs.length < 2) return false;
  const clauses = new Map<number, Set<KeyIdea>>();
  for (const hit of hits) {
    if (hit.relation === 'antonym') continue;
    const said = clauses.get(hit.clause) ?? new Set<KeyIdea>();
    said.add(hit.idea);
    clauses.set(hit.clause, said);
  }
  for (const said of clauses.values()) {
    for (const p of pairs) {
      for (const q of pairs) {
        if (p === q || p[0].clause !== q[0].clause || p[1].clause !== q[1].clause) continue;
        if (said.has(p[0]) && said.has(q[1]) && !said.has(p[1]) && !said.has(q[0])) return true;
      }
    }
  }
  return false;
}

/** Prepositions that mark a verb's argument ("pumps blood to the lungs"). */
const PREPOSITIONS: ReadonlySet<string> = new Set('to from into onto by with through for of in on at about than across over under toward towards'.split(' '));
const BE_FORMS: ReadonlySet<string> = new Set('is are was were be been being am'.split(' '));

/** The preposition just before word `at` since word `from` (exclusive), or '' for none. */
function prepositionBefore(words: readonly AnalyzedWord[], from: number, at: number): string {
  for (let i = at - 1; i > from; i--) {
    const w = words[i]!;
    if (PREPOSITIONS.has(w.norm)) return w.norm;
    if (!w.functionWord) return '';
  }
  return '';
}

/** The first word of the run of content words that ends at `at` ("binary search" for "search"). */
function phraseStart(words: readonly AnalyzedWord[], at: number): number {
  let start = at;
  while (start > 0 && !words[start - 1]!.functionWord && words[start - 1]!.clause === words[at]!.clause) start -= 1;
  return start;
}

/** "…is produced by…": a form of "be" before the verb and "by" after it. */
function isPassive(words: readonly AnalyzedWord[], verb: number): boolean {
  const before = words.slice(Math.max(0, verb - 3), verb).some((w) => BE_FORMS.has(w.norm) && w.clause === words[verb]!.clause);
  const by = words.slice(verb + 1).some((w) => w.norm === 'by' && w.clause === words[verb]!.clause);
  return before && by;
}

/**
 * Who does what to whom, the other way round, with the point's own verb: "ATP produces the
 * mitochondria", "the lungs pump blood to the right ventricle". The point says A … V … B; the
 * learner says B … V … A in one clause, both active or both passive, with A in B's place (no
 * preposition, or the one B had). A passive on one side only keeps the roles.
 */
function swappedRoles(content: string, message: PreparedMessage, hits: readonly IdeaHit[]): string | null {
  const point = analyzeTextCached(content).words;
  const learner = message.text.words;
  const wn = wordNet();
  const knownAsPos = (idea: KeyIdea, pos: string) => idea.lemmas.some((l) => [...wn.synsets(l)].some((synset) => wn.pos(synset) === pos));
  // A verb used as one: a finite form on at least one side, never right after an article ("the purchasing power").
  const usedAsVerb = (words: readonly AnalyzedWord[], at: number) => !['the', 'a', 'an', 'its', 'their', 'his', 'her'].includes(words[at - 1]?.norm ?? '');
  for (const v of hits) {
    if (v.idea.parts || !knownAsPos(v.idea, 'v') || v.wordIndices.length !== 1) continue;
    const lv = v.wordIndices[0]!;
    if (!usedAsVerb(point, v.idea.position) || !usedAsVerb(learner, lv)) continue;
    if (!isFiniteVerb(wn, point[v.idea.position]!) && !isFiniteVerb(wn, learner[lv]!)) continue;
    // One stretch of the learner's text: "if the list is sorted, you can find it with binary search" has "sorted" in another.
    const unit = learner[lv]!.unit;
    const inUnit = (hit: IdeaHit) => hit.wordIndices.every((i) => learner[i]!.unit === unit);
    for (const a of hits) {
      if (a === v || a.idea.clause !== v.idea.clause || !inUnit(a) || a.idea.position >= v.idea.position) continue;
      for (const b of hits) {
        if (b === v || b === a || b.idea.clause !== v.idea.clause || !inUnit(b) || b.idea.position <= v.idea.position) continue;
        const la = phraseStart(learner, a.wordIndices[0]!);
        const lb = b.wordIndices[0]!;
        if (!(lb < lv && lv < la)) continue;
        if (isPassive(point, v.idea.position) !== isPassive(learner, lv)) continue;
        const pointPreposition = prepositionBefore(point, v.idea.position, phraseStart(point, b.idea.position));
        const learnerPreposition = prepositionBefore(learner, lv, la);
        if (learnerPreposition !== '' && learnerPreposition !== pointPreposition) continue;
        return `swaps who does what ("${b.words}" ${v.words} "${a.words}")`;
      }
    }
  }
  return null;
}

/** Words that put what comes before them first in time or direction ("at first … then", "from … to"). */
const SEQUENCE_MARKERS: ReadonlySet<string> = new Set(['then', 'to', 'into', 'later', 'followed', 'before', 'after', 'towards', 'toward']);

/**
 * Two opposites of the point said in the other order: "declines slowly at first and then
 * quickly" for "quickly at first and then more slowly", "from the concentrated side to the
 * dilute side" for "from a dilute solution to a more concentrated one". Only within a clause,
 * and only when the learner marks an order between them.
 */
function swappedOpposites(message: PreparedMessage, hits: readonly IdeaHit[]): string | null {
  for (let i = 0; i < hits.length; i++) {
    for (let j = i + 1; j < hits.length; j++) {
      const a = hits[i]!;
      const b = hits[j]!;
      if (a.idea.clause !== b.idea.clause || a.clause !== b.clause || a.relation === 'antonym' || b.relation === 'antonym') continue;
      if (!opposes(a.idea, b.idea)) continue;
      const [first, second] = a.wordIndices[0]! < b.wordIndices[0]! ? [a, b] : [b, a];
      const marked = message.text.words.slice(first.wordIndices.at(-1)! + 1, second.wordIndices[0]).some((w) => SEQUENCE_MARKERS.has(w.norm));
      // The learner says `first` first; the point says it second.
      if (marked && first.idea.position > second.idea.position) return `puts "${first.idea.surface}" before "${second.idea.surface}"`;
    }
  }
  return null;
}

/** In a clause of the point, denying POLARITY_RATIO × the specificity of what is said with its polarity contradicts it. */
export const POLARITY_RATIO = 0.75;

/**
 * Ideas of different clauses of the point said together in one clause of the learner's, and
 * apart from their own: "baking powder needs an acid …, while baking soda already has its own"
 * for "baking soda needs an acid …, while baking powder already contains its own acid".
 */
function crossesClauses(hits: readonly IdeaHit[], weightOf: (idea: KeyIdea) => number): boolean {
  const learnerClauses = new Set(hits.map((hit) => hit.clause));
  const pointStatements = new Set(hits.map((hit) => hit.idea.statement));
  if (learnerClauses.size < 2 || pointStatements.size < 2) return false;
  let kept = 0;
  let crossed = 0;
  for (let i = 0; i < hits.length; i++) {
    for (let j = i + 1; j < hits.length; j++) {
      const a = hits[i]!;
      const b = hits[j]!;
      if (a.clause !== b.clause) continue;
      const pair = Math.min(weightOf(a.idea), weightOf(b.idea));
      if (a.idea.statement === b.idea.statement) kept += pair;
      else crossed += pair;
    }
  }
  return crossed > kept;
}

const formulasCached = boundedMemo(5_000, formulasOf);
const analyzeTextCached = boundedMemo(5_000, analyzeText);

/** Why the message contradicts the point, if it does: the checks of the header, in its order. */
export function conflictOf(content: string, message: PreparedMessage, ideas: readonly KeyIdea[], hits: readonly IdeaHit[], missing: readonly KeyIdea[], weightOf: (idea: KeyIdea) => number): string | null {
  // An antonym ("shortest" for "longest", "raising" for "lowering") contradicts the idea it
  // stands for unless its own clause is negated too; plain negation is weighed over the ideas.
  const opposed = hits.filter((h) => h.relation === 'antonym' && h.negated !== h.idea.negated);
  if (opposed.length > 0) return `says the opposite (${opposed.map((h) => `"${h.words}" for "${h.idea.surface}"`).join(', ')})`;
  // Weighed per clause of the point (a subordinate clause apart), by specificity alone: denying
  // one clause, or an aside, contradicts the point however much of the rest is said ("… cells
  // that are not identical"). Negation scopes forward ("X does not Y"), so a clause's subject,
  // before its verb, is never under it: its polarity counts only when the learner negates it
  // ("…, not Augustus"). A clause about the contrary case ("…, otherwise there's no binding
  // contract") has the contrary polarity and is left out; so is a word alone in its clause
  // (it may belong to another point of the message), except in a short answer, said as a whole.
  const counterfactual = (hit: IdeaHit) => hit.wordIndices.some((i) => message.text.words[i]?.counterfactual);
  const corroborated = (hit: IdeaHit) => ideas.length < 3 || hit.idea.subject || hits.some((other) => other !== hit && other.clause === hit.clause);
  const polar = hits.filter((h) => !h.idea.mixedPolarity && (!(h.idea.subject || h.idea.beforeVerb) || h.negated !== h.idea.negated) && !counterfactual(h) && corroborated(h));
  for (const unit of new Set(polar.map((h) => h.idea.unit))) {
    const inClause = polar.filter((h) => h.idea.unit === unit);
    const agree = inClause.filter((h) => h.negated === h.idea.negated).reduce((sum, h) => sum + h.idea.specificity, 0);
    const disagree = inClause.filter((h) => h.negated !== h.idea.negated).reduce((sum, h) => sum + h.idea.specificity, 0);
    if (disagree > 0 && disagree >= POLARITY_RATIO * agree) return 'negates what the point states';
  }

  // Only the clauses that speak about this point can say something else in its place.
  const clauses = new Set(hits.map((hit) => hit.clause));
  const used = new Set(hits.flatMap((hit) => hit.wordIndices));
  // A number of the learner's that is none of the point's, where one of the point's is not said.
  const isNumber = (idea: KeyIdea) => idea.value !== null || proportionOf(idea.lemmas) !== null; // "a tenth" is a number too (quantities.ts)
  const numberMissing = missing.find(isNumber);
  if (numberMissing) {
    // A clause that is only a number ("…, nine in all") says it of the clause before.
    const wordy = new Set(message.text.words.filter((w) => w.value === null && !w.functionWord).map((w) => w.clause));
    const speaks = (clause: number) => clauses.has(clause) || (!wordy.has(clause) && clauses.has(clause - 1));
    const other = message.text.words.find((w, index) => w.value !== null && speaks(w.clause) && !used.has(index));
    if (other) return `gives a different number (${other.value} instead of ${ideas.filter(isNumber).map((idea) => idea.surface).join(', ')})`;
  }
  // A formula with the point's head and another body ("O(n)" for "O(log n)"): notation.ts.
  const units = new Set(hits.flatMap((hit) => hit.wordIndices.map((i) => message.text.words[i]!.unit)));
  const formula = otherFormula(formulasCached(content), message.formulas, (said) => units.has(said.unit));
  if (formula) return formula;
  // A word that only loosely stands for an idea ("ventricle" for "right ventricle") may be part
  // of the substitute ("left ventricle").
  const strong = new Set(hits.filter((h) => h.strength >= 0.9).flatMap((hit) => hit.wordIndices));
  const free = message.candidates.filter((c) => clauses.has(c.clause) && !c.strict && !indicesOf(c).some((i) => strong.has(i)));
  const weak = [...missing, ...hits.filter((h) => h.strength < 0.9).map((h) => h.idea)];
  for (const idea of weak) {
    const substitute = substituteFor(idea, free);
    if (substitute) return `says "${substitute}" where the point has "${idea.surface}"`;
  }
  const replaced = otherSubject(message, ideas, hits, free) ?? replacedWord(content, message, hits);
  if (replaced) return replaced;
  const comparison = comparisonConflict(analyzeTextCached(content).words, message, hits);
  if (comparison) return comparison;
  const order = swappedOpposites(message, hits);
  if (order) return order;
  // Two comparisons are compared side by side above (comparisonConflict), not as who does what.
  const comparing = / than /i.test(` ${content} `) && message.text.words.some((w) => w.norm === 'than');
  const roles = (comparing ? null : swappedRoles(content, message, hits)) ?? reversedMovement(analyzeTextCached(content).words, message.text.words, hits);
  if (roles) return roles;
  if (crossesClauses(hits, weightOf) || crossesContrasts(ideas, hits)) return 'swaps what goes with what';
  return null;
}
