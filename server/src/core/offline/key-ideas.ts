/**
 * The key ideas of a recall point (SPEC §7, issue 28), the units the offline evaluator's match
 * (idea-match.ts) looks for in a learner's message, each weighted by how much it identifies the
 * point. Deterministic, no I/O beyond the shared WordNet data.
 *
 * Key ideas of a point
 * --------------------
 * Its content words (stopwords and light verbs such as "be", "have", "make", "use" left out),
 * deduplicated by lemma, with WordNet collocations kept whole ("carbon dioxide", "natural
 * selection"). Light words (LIGHT_WORDS) and numbers are "strict": they only match by lemma or
 * value. Words of increase or decrease carry a direction (directionOf) that idea-match.ts compares.
 *
 * Weight = specificity × part of speech × role (× the set's IDF, applied by idea-match.ts)
 * ------------------------------------------------------------------------------------------
 * - specificity: the word's information content in general English, from WordNet's sense-tagged
 *   counts (wordnet.ts `frequency`): ic = ln((T+1)/(f+1)) / ln(T+1), specificity = ic^SPECIFICITY_POWER,
 *   at least SPECIFICITY_FLOOR. "say" ≈ 0.15, "world" ≈ 0.35, "river" ≈ 0.45, "mitochondria",
 *   names and numbers 1 — a rare word tells more about which point the learner means.
 * - part of speech: words WordNet knows only as adverbs weigh ADVERB_FACTOR ("generally").
 * - role, from the point's own structure (pointStructure): the main statement is `core` (1); an
 *   aside is `detail` (DETAIL_FACTOR): a parenthesis (not notation: "O(log n)"), an example
 *   ("such as …", "e.g. …", "as in …"), a non-restrictive relative clause (", which …", ", who
 *   …"), a sentence or clause after ";", a trailing phrase set off by a comma with no verb in it
 *   (", at about 6,650 km"), a setting before the main clause ("In tennis, …") or an aside
 *   inside it (", going back to Aristotle,"), and a subordinate clause ("when …", "which …",
 *   "that …" after a noun) hanging off a main clause that states something on its own (at
 *   least MAIN_CLAUSE_MIN_IDEAS content words: "fell in 476 AD when Odoacer deposed …", not
 *   "Revenue is recognised when it is earned"). A learner who states the core and leaves out a
 *   detail has recalled the point (issue 28, partial_core); the feedback names the missing
 *   core words.
 *
 * Structure also says which ideas are the main clause's subject (before its verb: naming it is
 * not saying what the point says of it), its content verb, and each idea's clause, statement
 * and negation scope, which the contradiction model (contradictions.ts) compares.
 */
import { isStopword } from './lexical';
import { analyzeText, expandContractions, type AnalyzedText } from './text-analysis';
import { wordNet, type WordNet } from './wordnet';

/** Exponent of the information content: higher spreads common and rare words further apart. */
export const SPECIFICITY_POWER = 2;
/** Lightest specificity: even "say" carries something when the point has it. */
export const SPECIFICITY_FLOOR = 0.15;
/** Weight factor of an idea in an aside (parenthesis, example, relative clause, trailing phrase). */
export const DETAIL_FACTOR = 0.35;
/** Weight factor of words WordNet knows only as adverbs. */
export const ADVERB_FACTOR = 0.7;

/** Verbs and fillers so general that they carry no idea of their own. */
export const LIGHT_WORDS: ReadonlySet<string> = new Set(
  ('be is are was were been being am have has had having do does did make makes made making use uses used using get gets got ' +
    'take takes took taken give gives gave given go goes went gone come comes came become becomes became called call known ' +
    'happen happens happened show shows showed shown put say said way thing part lot able also something called ' +
    // Hedges and attribution qualify a statement rather than make one ("generally considered the longest").
    'generally usually typically normally commonly often mostly mainly largely roughly approximately about around nearly almost ' +
    'considered regarded believed thought think know knew remember recall sure pretty certain').split(' '),
);

/**
 * Direction of change or size ("increase" / "reduce", "higher" / "lower"): words of the same
 * direction express one another, words of opposite directions contradict. WordNet links few
 * of them (its antonyms join "increase" to "decrease" but not to "reduce" or "lower").
 */
const UP = new Set('increase increases increased increasing rise rises rose risen raise raises raised raising grow grows grew growing higher greater larger bigger more accelerate accelerates faster improve improves improved boost expand expands strengthen longer heavier enhance enhances enhanced'.split(' '));
const DOWN = new Set('decrease decreases decreased decreasing reduce reduces reduced reducing lower lowers lowered lowering fall falls fell drop drops shrink shrinks smaller less fewer slow slows slowed slower decelerate worsen weaken diminish diminishes decline declines shorter lighter impair impairs hurt hurts harm harms damage damages hinder hinders'.split(' '));

/** +1 for a word of increase, −1 for one of decrease, 0 otherwise. */
export function directionOf(lemmas: readonly string[]): number {
  if (lemmas.some((l) => UP.has(l))) return 1;
  if (lemmas.some((l) => DOWN.has(l))) return -1;
  return 0;
}

export type IdeaRole = 'core' | 'detail';

/** One key idea of a point. */
export interface KeyIdea {
  /** As written in the point ("carbon dioxide", "Glucose"). */
  surface: string;
  /** Lemmas it can be matched by (its own candidates). */
  lemmas: readonly string[];
  stem: string;
  value: number | null;
  /** specificity × part of speech × role. */
  weight: number;
  /** How much the word identifies a point in general English (0–1). */
  specificity: number;
  /** Main statement or aside (see the header). */
  role: IdeaRole;
  /** True when the point's clause holding it is negated. */
  negated: boolean;
  /** True when the point says it both in a negated clause and in an affirmed one: its polarity is not compared. */
  mixedPolarity: boolean;
  /** Light words and numbers: lemma (or value) matches only. */
  strict: boolean;
  /** Clause of the point it stands in (text-analysis.ts clauses). */
  clause: number;
  /**
   * Which of the point's statements it belongs to: they are separated by ";", a full stop or a
   * contrast ("but", "while", "whereas"), not by commas (a list or an aside is one statement).
   */
  statement: number;
  /** Part of the main clause's subject: naming it alone says nothing about it. */
  subject: boolean;
  /** Stretch a negation can scope over (text-analysis.ts `unit`). */
  unit: number;
  /** Before its unit's verb (a subject of the main clause or of a subordinate one): a negation never scopes over it. */
  beforeVerb: boolean;
  /** The main clause's verb, when it carries content ("produce" in "Mitochondria produce ATP"; not "is"). */
  verb?: boolean;
  /** Index of its (first) word in the point. */
  position: number;
  /** Index of its last word (a collocation spans several). */
  end?: number;
  /** The point's next word, when it follows in the same clause: "sort" after "merge", for "mergesort". */
  nextWord?: string;
  /** A collocation's own words ("chemical", "energy"): saying them apart expresses it too. */
  parts?: KeyIdea[];
  /** Written with a minus sign ("-cos x"): the same word with the other sign says the opposite. */
  minus?: boolean;
  /** A number's bound: "below 7" (−1), "above 7" (+1); the other bound says the opposite. */
  comparator?: number;
}

const specificityCache = new Map<string, number>();

/** How much a word identifies a point in general English, 0–1 (see the header). */
export function specificityOf(lemmas: readonly string[]): number {
  const key = lemmas.join('|');
  const cached = specificityCache.get(key);
  if (cached !== undefined) return cached;
  const wn = wordNet();
  // The most frequent reading decides: "stored" is as common as "store".
  const frequency = lemmas.reduce((max, lemma) => Math.max(max, wn.frequency(lemma)), 0);
  const total = wn.totalFrequency;
  const ic = Math.log((total + 1) / (frequency + 1)) / Math.log(total + 1);
  const specificity = Math.max(SPECIFICITY_FLOOR, ic ** SPECIFICITY_POWER);
  if (specificityCache.size > 50_000) specificityCache.clear();
  specificityCache.set(key, specificity);
  return specificity;
}

function posFactor(wn: WordNet, lemmas: readonly string[]): number {
  const kinds = new Set<string>();
  for (const lemma of lemmas) for (const s of wn.synsets(lemma)) kinds.add(wn.pos(s));
  return kinds.size === 1 && kinds.has('r') ? ADVERB_FACTOR : 1;
}

/** Words that open an example or a restatement: what follows is an aside. */
const EXAMPLE_OPENERS: ReadonlyArray<readonly string[]> = [['such', 'as'], ['for', 'example'], ['for', 'instance'], ['e', 'g'], ['i', 'e'], ['including'], ['as', 'in'], ['like']];
/**
 * Words that open a subordinate clause hanging off the main one: relative pronouns and
 * conjunctions of time, place and cause. Not contrast ("while", "whereas", "but": both sides
 * are the claim) nor condition ("if", "unless": the claim holds only under it).
 */
const SUBORDINATORS: ReadonlySet<string> = new Set(['which', 'who', 'whom', 'whose', 'when', 'where', 'because', 'since', 'after', 'before', 'until', 'once']);
/** A main clause with at least this many content words states something on its own. */
export const MAIN_CLAUSE_MIN_IDEAS = 3;
const AUXILIARIES: ReadonlySet<string> = new Set('is are was were be been being am has have had do does did can could will would shall should must may might'.split(' '));

function knownAs(wn: WordNet, lemma: string, pos: string): boolean {
  for (const s of wn.synsets(lemma)) if (wn.pos(s) === pos) return true;
  return false;
}

/**
 * True when a word reads as a finite verb: an auxiliary, or an inflected form of a word WordNet
 * knows as a verb ("stores", "held", "chosen"), not a participle in "-ing" ("going back to …").
 */
export function isFiniteVerb(wn: WordNet, word: AnalyzedText['words'][number]): boolean {
  if (AUXILIARIES.has(word.norm)) return true;
  if (word.norm.endsWith('ing')) return false;
  return word.lemmas.slice(1).some((lemma) => lemma !== word.norm && knownAs(wn, lemma, 'v'));
}

/** True when a word is used in general English mostly as a verb ("produce", "pump"), by WordNet's sense-tagged counts. */
export function mostlyVerb(wn: WordNet, word: AnalyzedText['words'][number]): boolean {
  const verb = Math.max(...word.lemmas.map((l) => wn.frequency(l, 'v')));
  const other = Math.max(...word.lemmas.map((l) => Math.max(wn.frequency(l, 'n'), wn.frequency(l, 'a'), wn.frequency(l, 'r'))));
  return verb > 0 && verb > other;
}

/**
 * Index of a stretch's verb: its first auxiliary or modal ("The expected value … is 3.5"), else
 * its first other finite verb ("stores", "held"), else its first word after the first that is
 * mostly a verb ("The mitochondria produce ATP"); −1 when it has none.
 */
function verbOf(wn: WordNet, words: ReadonlyArray<AnalyzedText['words'][number]>): number {
  const auxiliary = words.findIndex((w) => AUXILIARIES.has(w.norm));
  if (auxiliary >= 0) return auxiliary;
  const finite = words.findIndex((w) => isFiniteVerb(wn, w));
  if (finite >= 0) return finite;
  return words.findIndex((w, index) => index > 0 && !w.functionWord && mostlyVerb(wn, w));
}

/** Prepositions that open a setting ("In tennis, …", "For a minor burn, …"). */
const SETTING_OPENERS: ReadonlySet<string> = new Set(['in', 'on', 'at', 'for', 'during', 'under', 'with', 'within', 'among', 'according', 'by', 'from', 'after', 'before', 'to']);

/** True when a word reads as a noun and not as a finite verb: "acceptance that …" is a relative clause, "says that …" is not. */
function isNounLike(wn: WordNet, word: AnalyzedText['words'][number]): boolean {
  return !isFiniteVerb(wn, word) && word.lemmas.some((lemma) => knownAs(wn, lemma, 'n'));
}

/** Where each word of a point stands: its role, and whether it belongs to the main clause's subject. */
export interface PointStructure {
  roles: IdeaRole[];
  /** True for the words of the main clause before its first finite verb ("The mitochondria" of "The mitochondria produce ATP"). */
  subject: boolean[];
  /** The statement each word belongs to (see KeyIdea.statement). */
  statement: number[];
  /** True for the words before the verb of their unit (see KeyIdea.beforeVerb). */
  beforeVerb: boolean[];
  /** Index of the main clause's content verb (not a form of "be", "have" or a modal), −1 when it has none. */
  mainVerb: number;
}

/** Words that open a statement of their own, in contrast with the one before. */
const CONTRASTS: ReadonlySet<string> = new Set(['but', 'however', 'although', 'though', 'whereas', 'while', 'yet']);

/**
 * The role of each word of a point: `detail` for asides (see the header), `core` otherwise.
 * Reads the punctuation between words in the expanded text, in one pass.
 */
export function pointStructure(expanded: string, text: AnalyzedText): PointStructure {
  const wn = wordNet();
  const words = text.words;
  const roles: IdeaRole[] = words.map(() => 'core');
  // Segments between commas, semicolons, brackets and sentence stops, with what opened each.
  interface Segment { from: number; to: number; opener: string; equation: boolean }
  const segments: Segment[] = [];
  let depth = 0;
  let opener = '';
  let from = 0;
  let equation = false;
  const statement: number[] = [];
  let statementIndex = 0;
  for (let i = 0; i < words.length; i++) {
    const between = expanded.slice(i === 0 ? 0 : words[i - 1]!.end, words[i]!.start);
    let boundary = '';
    // "O(log n)", "f(x)": a bracket right after a word is notation, not an aside.
    const notation = between.startsWith('(') && i > 0;
    for (const ch of between) {
      if ((ch === '(' || ch === '[') && !notation) depth += 1;
      else if ((ch === ')' || ch === ']') && depth > 0) depth -= 1;
      if (ch === ',' || ch === ';' || ch === ':' || ch === '—' || ch === '–' || ((ch === '(' || ch === ')') && !notation)) boundary = boundary === ';' ? boundary : ch;
    }
    // A full stop ends a sentence, not an abbreviation ("e.g.", "U.S.").
    if (/\.\s/.test(between) && (words[i - 1]?.norm.length ?? 0) > 1) boundary = ';';
    if ((boundary === ';' || CONTRASTS.has(words[i]!.norm)) && i > 0) statementIndex += 1;
    statement.push(statementIndex);
    if (boundary && i > from) {
      segments.push({ from, to: i - 1, opener, equation });
      from = i;
      opener = boundary;
      equation = false;
    }
    // An equation states something as a verb does ("a² + b² = c²").
    if (i > from && /[=→<>≈]/.test(between)) equation = true;
    if (depth > 0) roles[i] = 'detail';
  }
  if (from < words.length) segments.push({ from, to: words.length - 1, opener, equation });
  const contentCount = (a: number, b: number) => words.slice(a, b + 1).filter((w) => !w.functionWord && !LIGHT_WORDS.has(w.norm)).length;
  const hasVerb = (segment: Segment) => segment.equation || verbOf(wn, words.slice(segment.from, segment.to + 1)) >= 0;
  const firstCore = segments.findIndex((segment) => contentCount(segment.from, segment.to) > 0 && hasVerb(segment));
  const mainIsComplete = firstCore >= 0 && contentCount(segments[firstCore]!.from, segments[firstCore]!.to) >= MAIN_CLAUSE_MIN_IDEAS;
  const markDetail = (a: number, b: number) => {
    for (let i = a; i <= b; i++) roles[i] = 'detail';
  };
  let afterSentence = false;
  segments.forEach((segment, index) => {
    if (segment.opener === ';' && index > firstCore) afterSentence = true;
    const first = words[segment.from]!.norm;
    const second = words[segment.from + 1]?.norm;
    const example = EXAMPLE_OPENERS.some((open) => open[0] === first && (open.length === 1 || open[1] === second));
    const subordinate = segment.opener === ',' && SUBORDINATORS.has(first) && index > firstCore;
    // A phrase set off by commas with no verb after the clause that has one, or a setting before it: an aside.
    // …or one set off by commas on both sides before it ("Virtue ethics, going back to Aristotle, focuses on …").
    const enclosed = index > 0 && segment.opener === ',' && segments[index + 1]?.opener === ',';
    const verbless =
      firstCore >= 0 &&
      !hasVerb(segment) &&
      ((index > firstCore && segment.opener === ',') || (index < firstCore && (SETTING_OPENERS.has(first) || enclosed)) || (index > firstCore && segment.opener === '('));
    if (afterSentence || example || subordinate || verbless) {
      markDetail(segment.from, segment.to);
      return;
    }
    // Inside the main clause: a subordinate clause after a main clause that states something on its own.
    if (index !== firstCore) return;
    for (let i = segment.from + 1; i <= segment.to; i++) {
      const w = words[i]!;
      const relativeThat = w.norm === 'that' && isNounLike(wn, words[i - 1]!);
      if (!SUBORDINATORS.has(w.norm) && !relativeThat) continue;
      if (contentCount(segment.from, i - 1) >= MAIN_CLAUSE_MIN_IDEAS && mainIsComplete) markDetail(i, segment.to);
      break;
    }
  });
  const subject = words.map(() => false);
  let mainVerb = -1;
  if (firstCore >= 0) {
    const segment = segments[firstCore]!;
    // The subject may start in an earlier segment ("Virtue ethics, going back to Aristotle, focuses on …").
    let start = segment.from;
    for (let k = firstCore - 1; k >= 0 && !hasVerb(segments[k]!); k--) if (roles[segments[k]!.from] === 'core') start = segments[k]!.from;
    const verb = verbOf(wn, words.slice(segment.from, segment.to + 1));
    const end = verb < 0 ? segment.from - 1 : segment.from + verb - 1;
    for (let i = start; i <= end; i++) if (roles[i] === 'core') subject[i] = true;
    // The verb that says what relates the subject to the rest: the first content verb from the verb on ("is usually played").
    if (verb >= 0) {
      for (let i = segment.from + verb; i <= segment.to; i++) {
        const w = words[i]!;
        if (AUXILIARIES.has(w.norm) || w.functionWord) continue;
        if (!LIGHT_WORDS.has(w.norm) && (isFiniteVerb(wn, w) || mostlyVerb(wn, w))) mainVerb = i;
        break;
      }
    }
  }
  const beforeVerb = words.map(() => false);
  for (let from = 0; from < words.length; ) {
    let to = from;
    while (to + 1 < words.length && words[to + 1]!.unit === words[from]!.unit) to += 1;
    const verb = verbOf(wn, words.slice(from, to + 1));
    for (let i = from; i < from + Math.max(0, verb); i++) beforeVerb[i] = true;
    from = to + 1;
  }
  return { roles, subject, statement, beforeVerb, mainVerb };
}

const ideaCache = new Map<string, KeyIdea[]>();

/** The key ideas of a point's content (cached by content). */
export function keyIdeasOf(content: string): KeyIdea[] {
  const cached = ideaCache.get(content);
  if (cached) return cached;
  const wn = wordNet();
  const expanded = expandContractions(content);
  const text = analyzeText(content);
  const { roles, subject, statement, beforeVerb, mainVerb } = pointStructure(expanded, text);
  const ideas: KeyIdea[] = [];
  const byKey = new Map<string, KeyIdea>();
  const covered = new Set<number>();
  const add = (idea: Omit<KeyIdea, 'weight' | 'mixedPolarity'>, factor: number) => {
    // Each number said is a value of its own ("a shot from behind the three-point line scores three points").
    const key = idea.value !== null ? `#${idea.position}` : idea.lemmas.at(-1)!;
    const known = byKey.get(key) ?? (idea.value === null ? idea.lemmas.map((l) => byKey.get(l)).find((found) => found !== undefined) : undefined);
    if (known) {
      // Said again: in the core it is core; said both negated and not, its polarity is unknown.
      if (known.negated !== idea.negated) known.mixedPolarity = true;
      if (idea.role === 'core' && known.role !== 'core') {
        known.role = 'core';
        known.weight = known.weight / DETAIL_FACTOR;
      }
      return;
    }
    const weight = idea.specificity * factor * (idea.role === 'core' ? 1 : DETAIL_FACTOR);
    const full: KeyIdea = { ...idea, weight, mixedPolarity: false };
    byKey.set(key, full);
    if (idea.value === null) for (const l of idea.lemmas) byKey.set(l, full);
    ideas.push(full);
  };
  for (const c of text.collocations) {
    const words = text.words.slice(c.from, c.to + 1);
    // Inside a longer one ("Roman Empire" in "Western Roman Empire"): already said by it.
    // Two content words, or one and a letter ("vitamin C", "F sharp"), not function words ("of course").
    const contentWords = words.filter((w) => !w.functionWord || /^[a-z]$/.test(w.norm)).length;
    if (contentWords < 2 || covered.has(c.from) || covered.has(c.to)) continue;
    for (let i = c.from; i <= c.to; i++) covered.add(i);
    const surface = expanded.slice(words[0]!.start, words.at(-1)!.end);
    const negated = words.some((w) => w.negated);
    const role = roles[c.from]!;
    const parts = words
      .filter((w) => !w.functionWord)
      .map((w): KeyIdea => {
        const specificity = specificityOf(w.lemmas);
        const index = c.from + words.indexOf(w);
        return { surface: w.raw, lemmas: w.lemmas, stem: w.stem, value: null, weight: specificity, specificity, role, negated, mixedPolarity: false, strict: LIGHT_WORDS.has(w.norm), clause: w.clause, statement: statement[c.from]!, subject: subject[c.from]!, unit: w.unit, beforeVerb: beforeVerb[c.from]!, position: index };
      });
    // A collocation is as specific as its most specific word, and at least as a word of its own.
    const specificity = Math.max(specificityOf([c.lemma]) * 0.8, ...parts.map((part) => part.specificity));
    add({ surface, lemmas: [c.lemma], stem: c.lemma, value: null, specificity, role, negated, strict: false, clause: words[0]!.clause, statement: statement[c.from]!, subject: subject[c.from]!, unit: words[0]!.unit, beforeVerb: beforeVerb[c.from]!, position: c.from, end: c.to, parts }, 1);
  }
  text.words.forEach((w, index) => {
    if (covered.has(index) || w.functionWord || LIGHT_WORDS.has(w.norm)) return;
    if (w.value === null && (w.norm.length < 2 || isStopword(w.norm))) return;
    const negated = w.negated;
    const base = { surface: w.raw, lemmas: w.lemmas, stem: w.stem, role: roles[index]!, negated, clause: w.clause, statement: statement[index]!, subject: subject[index]!, unit: w.unit, beforeVerb: beforeVerb[index]!, position: index, ...(w.minus ? { minus: true } : {}), ...(index === mainVerb ? { verb: true } : {}) };
    if (w.value !== null) {
      add({ ...base, value: w.value, specificity: 1, strict: true, ...(w.comparator !== 0 ? { comparator: w.comparator } : {}) }, 1);
      return;
    }
    add({ ...base, value: null, specificity: specificityOf(w.lemmas), strict: false }, posFactor(wn, w.lemmas));
  });
  // A point made only of light words falls back to them, so that it can still be recalled.
  if (ideas.length === 0) {
    text.words.forEach((w, index) => {
      if (w.lemmas.length === 0 || isStopword(w.norm)) return;
      add({ surface: w.raw, lemmas: w.lemmas, stem: w.stem, value: w.value, specificity: 1, role: 'core', negated: w.negated, strict: true, clause: w.clause, statement: statement[index]!, subject: false, unit: w.unit, beforeVerb: false, position: index }, 1);
    });
  }
  for (const idea of ideas) {
    const last = idea.parts ? idea.position + idea.parts.length - 1 : idea.position;
    const next = text.words[last + 1];
    if (next && next.clause === text.words[last]!.clause && /^[a-z]+$/.test(next.norm)) idea.nextWord = next.norm;
  }
  if (ideaCache.size > 5_000) ideaCache.clear();
  ideaCache.set(content, ideas);
  return ideas;
}
