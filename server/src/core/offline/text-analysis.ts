/// <reference path="./lexical-data.d.ts" />
/**
 * A text prepared for meaning-level matching (the offline evaluator, SPEC §7): its words with
 * their lemmas (wink-lemmatizer, checked against WordNet), numbers read from digits or words
 * ("twenty-three" = "23", "1,000" = "one thousand"), WordNet collocations ("carbon dioxide",
 * "French Revolution"), and for every word whether it stands in a negated clause.
 *
 * Negation: contractions are expanded first ("doesn't" → "does not", "can't" → "can not");
 * a clause ends at , ; : . ! ? or a contrast word (but, however, although, though, whereas,
 * yet), and before "otherwise" or an "or" that opens a clause of its own ("… a base case, or
 * it never ends": "or" followed by a subject pronoun, not "cats or dogs"; a clause there is about
 * the contrary case: `counterfactual`), and at an "and" / "while" followed by a subject and a
 * verb of its own ("tuples are mutable and lists are immutable"). A negator (not, no, never, none,
 * nothing, nobody, neither, nor, nowhere; "rather than", "instead of"; typed without its
 * apostrophe: "dont", "cant") scopes over the words after it up to the end of its clause or a
 * subordinate clause ("because", "which", "when", …; `unit`): "X does not Y" negates Y, not X;
 * a negated gerund ends at its verb ("not getting enough vitamin A makes …"); "it is not true
 * that …" denies the rest of the sentence; two negators cancel. Negation of knowing ("I'm not
 * sure", "I don't remember") is a hedge about the speaker, not about the content, and does not count.
 *
 * Numbers: a list of number words is read number by number ("fifteen, thirty, forty"); "one"
 * counts when a noun follows ("one sharp"); factors read as numbers ("tenfold", "10x"); a bound
 * before a number is kept (`comparator`: "below 7", "more than 100"), and a minus sign before a
 * word or a number (`minus`: "-cos x").
 */
import { createRequire } from 'node:module';
import { isStopword, stem, wordSpans } from './lexical';
import { wordNet } from './wordnet';

type Lemmatizer = typeof import('wink-lemmatizer').default;
let lemmatizer: Lemmatizer | undefined;
/**
 * wink-lemmatizer's word lists (~7 MB of heap, ~50 MB of RSS while they are parsed, seconds on a
 * busy machine) load with the first word analysed, as WordNet does, not when the server starts:
 * a server with a model provider may never need them.
 */
function lemmatizerTables(): Lemmatizer {
  lemmatizer ??= createRequire(import.meta.url)('wink-lemmatizer') as Lemmatizer;
  return lemmatizer;
}

/** One word of an analysed text. */
export interface AnalyzedWord {
  /** As written. */
  raw: string;
  /** Normalised (lowercase, no diacritics). */
  norm: string;
  /** Candidate lemmas (the word itself first); numbers: the value as a string. */
  lemmas: readonly string[];
  /** Porter stem of the normalised word. */
  stem: string;
  /** The numeric value, when the word is a number (digits or number words). */
  value: number | null;
  /** Index of the clause it stands in. */
  clause: number;
  /** Position in the text. */
  start: number;
  end: number;
  /** True for stopwords, fillers and negators. */
  functionWord: boolean;
  /** True when a negation scopes over the word (see the header). */
  negated: boolean;
  /** True when a minus sign stands right before it ("-cos x", "-5"): its value is the opposite. */
  minus: boolean;
  /** For a number: −1 after "below", "under", "less than", "<"; +1 after "above", "over", "more than", ">"; else 0. */
  comparator: number;
  /** In a clause that says what happens otherwise ("…, or it never ends", "otherwise …"): its polarity states the contrary case. */
  counterfactual: boolean;
  /** The stretch a negation can scope over: a clause, split again where a subordinate clause starts ("because", "unless", …). */
  unit: number;
  /** Index of the sentence it stands in. */
  sentence: number;
  /** The symbols between the previous word and this one ("=", "->", ", "), at most 8 characters. */
  gap: string;
}

/** A WordNet collocation found in the text ("carbon dioxide" → "carbon_dioxide"). */
export interface Collocation {
  lemma: string;
  /** Indices of its words. */
  from: number;
  to: number;
}

export interface AnalyzedText {
  words: AnalyzedWord[];
  collocations: Collocation[];
}

export const NEGATORS: ReadonlySet<string> = new Set(['not', 'no', 'never', 'none', 'nothing', 'nobody', 'neither', 'nor', 'nowhere', 'cannot']);
const CONTRAST = new Set(['but', 'however', 'although', 'though', 'whereas', 'yet']);
/** Subjects after which "or" starts a clause of its own (an alternative, often a consequence). */
const SUBJECTS = new Set(['it', 'they', 'he', 'she', 'we', 'you', 'i', 'this', 'that', 'there', 'else']);
/** Bounds said before a number. */
const BELOW: ReadonlySet<string> = new Set(['below', 'under', 'beneath']);
const ABOVE: ReadonlySet<string> = new Set(['above', 'over', 'exceeding']);
const LESS_THAN: ReadonlySet<string> = new Set(['less', 'fewer', 'lower', 'smaller']);
const MORE_THAN: ReadonlySet<string> = new Set(['more', 'greater', 'higher', 'larger', 'bigger']);
/** Words after which "one" is a pronoun ("the one", "this one", "every one"). */
const DETERMINERS: ReadonlySet<string> = new Set(['the', 'this', 'that', 'which', 'every', 'each', 'no', 'any', 'some', 'another']);
/** Words of truth whose negation denies the sentence after them. */
const TRUTH: ReadonlySet<string> = new Set(['true', 'correct', 'right', 'so']);
/** Finite forms of "be", "have", "do" and modals. */
export const FINITE_FORMS: ReadonlySet<string> = new Set('is are was were has have had does do did can could will would shall should must may might'.split(' '));
/** Words that open a subordinate clause, where a negation before them stops. */
const SCOPE_ENDS: ReadonlySet<string> = new Set(['because', 'since', 'when', 'where', 'which', 'who', 'whom', 'whose', 'although', 'though', 'while', 'whereas', 'if', 'unless', 'until', 'so']);
/** Verbs and adjectives of knowing: their negation is a hedge ("not sure", "don't remember"). */
const HEDGED = new Set(['sure', 'certain', 'know', 'remember', 'recall', 'understand', 'positive', 'clear']);

const UNITS: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
  twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90, dozen: 12,
};
const SCALES: Record<string, number> = { hundred: 100, thousand: 1_000, million: 1_000_000, billion: 1_000_000_000, trillion: 1_000_000_000_000 };

/** Expands English contractions so that negation shows as a word. */
export function expandContractions(text: string): string {
  return text
    .replace(/\b(can)['’]t\b/gi, '$1 not')
    .replace(/\bwon['’]t\b/gi, 'will not')
    .replace(/\bshan['’]t\b/gi, 'shall not')
    .replace(/\bain['’]t\b/gi, 'is not')
    .replace(/n['’]t\b/gi, ' not')
    .replace(/\bcannot\b/gi, 'can not');
}

const lemmaCache = new Map<string, readonly string[]>();

/** Candidate lemmas of a normalised word: itself, then its noun, verb and adjective base forms that WordNet knows. */
export function lemmasOf(norm: string): readonly string[] {
  let cached = lemmaCache.get(norm);
  if (cached) return cached;
  const wn = wordNet();
  const out = [norm];
  const tables = lemmatizerTables();
  for (const form of [tables.noun(norm), tables.verb(norm), tables.adjective(norm)]) {
    if (form && !out.includes(form) && wn.has(form)) out.push(form);
  }
  // "-ly" adverbs WordNet lacks fall back to their adjective ("chemically" → "chemical").
  if (norm.endsWith('ly') && norm.length > 5) {
    const base = norm.endsWith('ically') ? norm.slice(0, -4) : norm.slice(0, -2);
    if (wn.has(base) && !out.includes(base)) out.push(base);
  }
  cached = out;
  if (lemmaCache.size > 50_000) lemmaCache.clear();
  lemmaCache.set(norm, cached);
  return cached;
}

/**
 * Reads number words starting at `i` ("twenty three thousand"); null when none. Two plain
 * chunks below a hundred read as a year ("seventeen eighty nine" = 1789).
 */
function readNumberWords(tokens: readonly string[], i: number, end: number = tokens.length): { value: number; next: number } | null {
  let total = 0;
  let current = 0;
  let j = i;
  let any = false;
  let scaled = false;
  const chunks: number[] = [];
  while (j < end) {
    const t = tokens[j]!;
    if (Object.hasOwn(UNITS, t)) {
      const unit = UNITS[t]!;
      // A new chunk starts when this word cannot extend the current one ("seventeen" then "eighty").
      const extends_ = current % 100 >= 20 && current % 10 === 0 && unit < 10;
      if (any && !extends_ && !scaled && current > 0 && (current % 100 !== 0)) {
        chunks.push(current);
        current = 0;
      }
      current += unit;
      any = true;
    } else if (Object.hasOwn(SCALES, t) && any) {
      const scale = SCALES[t]!;
      scaled = true;
      if (scale === 100) current = (current || 1) * 100;
      else {
        total += (current || 1) * scale;
        current = 0;
      }
    } else if (t === 'and' && any && j + 1 < end && Object.hasOwn(UNITS, tokens[j + 1]!)) {
      // "one hundred and five"
    } else break;
    j += 1;
  }
  if (!any) return null;
  if (chunks.length === 1 && !scaled && chunks[0]! >= 10 && chunks[0]! < 100 && current < 100) {
    return { value: chunks[0]! * 100 + current, next: j };
  }
  return { value: chunks.reduce((a, b) => a + b, 0) + total + current, next: j };
}

/** Splits "23,000" / "3.5" / "1789" into a value. */
function digitValue(norm: string): number | null {
  if (!/^\d+(?:\.\d+)?$/.test(norm)) return null;
  return Number(norm);
}

/** A factor written as one word: "tenfold", "hundredfold", "10x". */
function factorValue(norm: string): number | null {
  if (norm.endsWith('fold')) {
    const base = norm.slice(0, -4);
    return Object.hasOwn(UNITS, base) ? UNITS[base]! : Object.hasOwn(SCALES, base) ? SCALES[base]! : null;
  }
  return /^\d+x$/.test(norm) ? Number(norm.slice(0, -1)) : null;
}

const collocationCache = new Map<string, boolean>();
function isCollocation(lemma: string): boolean {
  let known = collocationCache.get(lemma);
  if (known === undefined) {
    known = wordNet().has(lemma);
    if (collocationCache.size > 50_000) collocationCache.clear();
    collocationCache.set(lemma, known);
  }
  return known;
}

/** Analyses a text: words, lemmas, numbers, collocations and clause polarity. */
/**
 * True when "and" / "while" at `i` joins a clause with its own subject and verb ("tuples are
 * mutable and lists are immutable"), not two words or two verbs of one subject ("salt slows
 * yeast and strengthens gluten").
 */
function opensClause(words: readonly AnalyzedWord[], i: number): boolean {
  let subject = false;
  for (let j = i + 1; j < words.length && j <= i + 5 && words[j]!.clause === words[i]!.clause; j++) {
    const w = words[j]!;
    if (FINITE_FORMS.has(w.norm)) return subject;
    if (!w.functionWord) subject = true;
  }
  return false;
}

/** Contractions typed without their apostrophe ("dont", "cant", "isnt"); not "wont" (a word of its own). */
export function expandBareContractions(text: string): string {
  return text.replace(/\b(do|does|did|is|are|was|were|has|have|had|could|should|would|must|need)nt\b/gi, '$1 not').replace(/\bcant\b/gi, 'can not');
}

export function analyzeText(text: string): AnalyzedText {
  const expanded = expandBareContractions(expandContractions(text));
  const words: AnalyzedWord[] = [];
  let clause = 0;
  let sentence = 0;
  let lastEnd = 0;
  for (const span of wordSpans(expanded)) {
    const between = expanded.slice(lastEnd, span.start);
    lastEnd = span.end;
    if (/[,;:.!?()\n—–]/.test(between) && words.length > 0) clause += 1;
    if (/[.!?\n]/.test(between) && words.length > 0) sentence += 1;
    // A sign, not a hyphen: a minus after a space, a bracket or "=" (or at the start).
    const minus = /(?:^|[\s(=])[-−]$/.test(expanded.slice(Math.max(0, span.start - 2), span.start));
    for (const norm of span.tokens) {
      if (CONTRAST.has(norm) && words.length > 0) clause += 1;
      const unsigned = digitValue(norm) ?? factorValue(norm);
      const value = unsigned !== null && minus ? -unsigned : unsigned;
      words.push({
        raw: span.raw,
        norm,
        lemmas: value !== null ? [String(value)] : lemmasOf(norm),
        stem: stem(norm),
        value,
        clause,
        start: span.start,
        end: span.end,
        functionWord: value === null && (isStopword(norm) || NEGATORS.has(norm) || CONTRAST.has(norm)),
        negated: false,
        minus: minus && unsigned === null,
        comparator: 0,
        counterfactual: false,
        unit: 0,
        sentence,
        gap: between.trim().slice(0, 8),
      });
    }
  }
  // "otherwise …" and "or it …" open a clause: every later word moves one clause on.
  let shift = 0;
  let previousClause = -1;
  const counterfactual = new Set<number>();
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const contrary = w.norm === 'otherwise' || (w.norm === 'or' && SUBJECTS.has(words[i + 1]?.norm ?? ''));
    const opens = contrary || ((w.norm === 'and' || w.norm === 'while') && opensClause(words, i));
    // Not when a comma or the like has started a clause here already.
    if (opens && previousClause === w.clause) shift += 1;
    previousClause = w.clause;
    if (shift > 0) words[i] = { ...w, clause: w.clause + shift };
    if (contrary) counterfactual.add(words[i]!.clause);
  }
  clause += shift;
  if (counterfactual.size > 0) for (let i = 0; i < words.length; i++) if (counterfactual.has(words[i]!.clause)) words[i] = { ...words[i]!, counterfactual: true };
  // Number words → values ("twenty three" → 23), the first word carrying it.
  const norms = words.map((w) => w.norm);
  // Where each word's clause ends (exclusive), in one pass from the end.
  const clauseEnd = new Array<number>(words.length);
  for (let i = words.length - 1; i >= 0; i--) clauseEnd[i] = i + 1 < words.length && words[i + 1]!.clause === words[i]!.clause ? clauseEnd[i + 1]! : i + 1;
  for (let i = 0; i < words.length; i++) {
    if (words[i]!.value !== null || !Object.hasOwn(UNITS, norms[i]!)) continue;
    // "one" alone is usually a pronoun ("one of them"); only a compound or a following scale makes it a number.
    // Within its clause: "love, fifteen, thirty, forty" is a list of numbers, not 85.
    const read = readNumberWords(norms, i, clauseEnd[i]!);
    if (!read) continue;
    // …or a noun it counts right after it ("one sharp", "one daughter cell"), not after "the" / "this" ("the one that").
    const counts = words[i + 1] !== undefined && words[i + 1]!.clause === words[i]!.clause && !words[i + 1]!.functionWord && !DETERMINERS.has(norms[i - 1] ?? '');
    if (norms[i] === 'one' && read.next === i + 1 && !counts) continue;
    const first = words[i]!;
    words[i] = { ...first, value: read.value, lemmas: [String(read.value)], functionWord: false };
    for (let j = i + 1; j < read.next; j++) words[j] = { ...words[j]!, functionWord: true, lemmas: [] };
    i = read.next - 1;
  }
  // Digits followed by a scale word ("3 million").
  for (let i = 0; i + 1 < words.length; i++) {
    const w = words[i]!;
    // Own keys only: a word such as "constructor" is no number.
    const scale = Object.hasOwn(SCALES, norms[i + 1]!) ? SCALES[norms[i + 1]!] : undefined;
    // Only digits: "eight thousand" has been read already.
    if (w.value !== null && digitValue(w.norm) !== null && scale && scale > 100) {
      words[i] = { ...w, value: w.value * scale, lemmas: [String(w.value * scale)] };
      words[i + 1] = { ...words[i + 1]!, functionWord: true, lemmas: [] };
    }
  }

  // A bound before a number: "below 7", "more than 100", "> 7".
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w.value === null) continue;
    const previous = words[i - 1];
    const symbol = expanded.slice(previous ? previous.end : 0, w.start);
    let comparator = /<\s*$/.test(symbol) ? -1 : />\s*$/.test(symbol) ? 1 : 0;
    if (comparator === 0 && previous && previous.clause === w.clause) {
      const before = previous.norm === 'than' ? words[i - 2]?.norm ?? '' : previous.norm;
      if (previous.norm === 'than' ? LESS_THAN.has(before) : BELOW.has(before)) comparator = -1;
      else if (previous.norm === 'than' ? MORE_THAN.has(before) : ABOVE.has(before)) comparator = 1;
    }
    if (comparator !== 0) words[i] = { ...w, comparator };
  }

  // Negation scopes forward, from the negator to the end of its clause or to a subordinate
  // clause: "the noble gases do not react because their shell is full" negates "react" only.
  // "rather than X", "instead of X": X is denied, as after "not".
  for (let i = 0; i + 1 < words.length; i++) {
    const pair = `${words[i]!.norm} ${words[i + 1]!.norm}`;
    if (pair === 'rather than' || pair === 'instead of') words[i + 1] = { ...words[i + 1]!, norm: 'not', functionWord: true };
  }
  let negated = false;
  let gerundScope = false;
  let sentenceNegation = false;
  let unit = 0;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const previous = words[i - 1];
    // "is not when …", "not because …": the negation is of the subordinate clause itself.
    if (previous && (previous.clause !== w.clause || (SCOPE_ENDS.has(w.norm) && !NEGATORS.has(previous.norm)))) {
      negated = sentenceNegation && previous.sentence === w.sentence;
      gerundScope = false;
      unit += 1;
    }
    words[i] = { ...w, unit };
    if (NEGATORS.has(w.norm)) {
      // "not sure", "don't remember", "no idea": about the speaker's knowledge, not the content.
      const next = words.slice(i + 1, i + 3).map((x) => x.norm);
      const hedge = next.some((n) => HEDGED.has(n)) || next[0] === 'idea' || (w.norm === 'no' && words[i + 1]?.clause !== w.clause);
      if (!hedge) negated = !negated;
      // "it is not true that …", "it's not the case that …": the whole sentence after it is denied.
      if (!hedge && (TRUTH.has(next[0] ?? '') || (next[0] === 'the' && next[1] === 'case'))) sentenceNegation = true;
      // "not getting enough vitamin A makes you …": a negated gerund ends at the verb it is the subject of.
      gerundScope = !hedge && (next[0]?.endsWith('ing') ?? false);
      continue;
    }
    if (gerundScope && (FINITE_FORMS.has(w.norm) || (/[^s]s$/.test(w.norm) && w.lemmas.length > 1))) {
      negated = false;
      gerundScope = false;
    }
    if (negated) words[i] = { ...words[i]!, negated: true };
  }

  const collocations: Collocation[] = [];
  for (let i = 0; i < words.length; i++) {
    for (let length = 3; length >= 2; length--) {
      const group = words.slice(i, i + length);
      if (group.length < length || group.some((w) => w.clause !== words[i]!.clause || w.value !== null)) continue;
      // Try the surface words, then the last word's lemmas ("carbon dioxides").
      const heads = group.slice(0, -1).map((w) => w.norm).join('_');
      const last = group.at(-1)!;
      const lemma = last.lemmas.map((l) => `${heads}_${l}`).find(isCollocation);
      if (lemma) {
        collocations.push({ lemma, from: i, to: i + length - 1 });
        break;
      }
    }
  }
  return { words, collocations };
}
