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
 * it never ends": "or" followed by a subject pronoun, not "cats or dogs"); a clause's polarity is the parity of its negators (not, no, never, none, nothing,
 * nobody, neither, nor, nowhere). Negation of knowing ("I'm not sure", "I don't remember")
 * is a hedge about the speaker, not about the content, and does not count.
 */
import lemmatizer from 'wink-lemmatizer';
import { isStopword, stem, wordSpans } from './lexical';
import { wordNet } from './wordnet';

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
  /** Polarity per clause: true when the clause is negated. */
  negatedClauses: boolean[];
}

export const NEGATORS: ReadonlySet<string> = new Set(['not', 'no', 'never', 'none', 'nothing', 'nobody', 'neither', 'nor', 'nowhere', 'cannot']);
const CONTRAST = new Set(['but', 'however', 'although', 'though', 'whereas', 'yet']);
/** Subjects after which "or" starts a clause of its own (an alternative, often a consequence). */
const SUBJECTS = new Set(['it', 'they', 'he', 'she', 'we', 'you', 'i', 'this', 'that', 'there', 'else']);
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
  for (const form of [lemmatizer.noun(norm), lemmatizer.verb(norm), lemmatizer.adjective(norm)]) {
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
function readNumberWords(tokens: readonly string[], i: number): { value: number; next: number } | null {
  let total = 0;
  let current = 0;
  let j = i;
  let any = false;
  let scaled = false;
  const chunks: number[] = [];
  while (j < tokens.length) {
    const t = tokens[j]!;
    if (t in UNITS) {
      const unit = UNITS[t]!;
      // A new chunk starts when this word cannot extend the current one ("seventeen" then "eighty").
      const extends_ = current % 100 >= 20 && current % 10 === 0 && unit < 10;
      if (any && !extends_ && !scaled && current > 0 && (current % 100 !== 0)) {
        chunks.push(current);
        current = 0;
      }
      current += unit;
      any = true;
    } else if (t in SCALES && any) {
      const scale = SCALES[t]!;
      scaled = true;
      if (scale === 100) current = (current || 1) * 100;
      else {
        total += (current || 1) * scale;
        current = 0;
      }
    } else if (t === 'and' && any && j + 1 < tokens.length && tokens[j + 1]! in UNITS) {
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
export function analyzeText(text: string): AnalyzedText {
  const expanded = expandContractions(text);
  const words: AnalyzedWord[] = [];
  let clause = 0;
  let lastEnd = 0;
  for (const span of wordSpans(expanded)) {
    const between = expanded.slice(lastEnd, span.start);
    lastEnd = span.end;
    if (/[,;:.!?()\n—–]/.test(between) && words.length > 0) clause += 1;
    for (const norm of span.tokens) {
      if (CONTRAST.has(norm) && words.length > 0) clause += 1;
      const value = digitValue(norm);
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
      });
    }
  }
  // "otherwise …" and "or it …" open a clause: every later word moves one clause on.
  let shift = 0;
  let previousClause = -1;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const opens = w.norm === 'otherwise' || (w.norm === 'or' && SUBJECTS.has(words[i + 1]?.norm ?? ''));
    // Not when a comma or the like has started a clause here already.
    if (opens && previousClause === w.clause) shift += 1;
    previousClause = w.clause;
    if (shift > 0) words[i] = { ...w, clause: w.clause + shift };
  }
  clause += shift;
  // Number words → values ("twenty three" → 23), the first word carrying it.
  const norms = words.map((w) => w.norm);
  for (let i = 0; i < words.length; i++) {
    if (words[i]!.value !== null || !(norms[i]! in UNITS)) continue;
    // "one" alone is usually a pronoun ("one of them"); only a compound or a following scale makes it a number.
    const read = readNumberWords(norms, i);
    if (!read) continue;
    if (norms[i] === 'one' && read.next === i + 1) continue;
    const first = words[i]!;
    words[i] = { ...first, value: read.value, lemmas: [String(read.value)], functionWord: false };
    for (let j = i + 1; j < read.next; j++) words[j] = { ...words[j]!, functionWord: true, lemmas: [] };
    i = read.next - 1;
  }
  // Digits followed by a scale word ("3 million").
  for (let i = 0; i + 1 < words.length; i++) {
    const w = words[i]!;
    const scale = SCALES[norms[i + 1]!];
    if (w.value !== null && scale && scale > 100) {
      words[i] = { ...w, value: w.value * scale, lemmas: [String(w.value * scale)] };
      words[i + 1] = { ...words[i + 1]!, functionWord: true, lemmas: [] };
    }
  }

  const negatedClauses: boolean[] = new Array<boolean>(clause + 1).fill(false);
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (!NEGATORS.has(w.norm)) continue;
    // "not sure", "don't remember", "no idea": about the speaker's knowledge, not the content.
    const next = words.slice(i + 1, i + 3).map((x) => x.norm);
    if (next.some((n) => HEDGED.has(n)) || next[0] === 'idea' || (w.norm === 'no' && words[i + 1]?.clause !== w.clause)) continue;
    negatedClauses[w.clause] = !negatedClauses[w.clause];
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
  return { words, collocations, negatedClauses };
}
