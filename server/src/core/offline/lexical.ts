/**
 * Lexical matching of a learner's words against a recall point's content — the heart of the
 * offline evaluator (SPEC §7: "real lexical matching of the learner's words against point
 * content"). Pure, deterministic, no I/O.
 *
 * Pipeline
 * --------
 * 1. Normalise: Unicode NFKD, strip combining marks (diacritics), lowercase, punctuation →
 *    spaces. Digits are kept; thousands separators are dropped ("1,000" → "1000") and a
 *    decimal point between digits survives ("3.14" stays one token).
 * 2. Tokenise on whitespace.
 * 3. Key terms of a point = its tokens that are not stopwords (small inline English list)
 *    and not single letters, stemmed with the Porter stemmer (`stemmer`), deduplicated by
 *    stem, in order of first appearance. A point made only of stopwords ("To be or not to
 *    be") falls back to all of its tokens.
 *
 * When a learner token matches a key term
 * ---------------------------------------
 * - Their stems are equal ("produces" ~ "produce", "oxidation" ~ "oxidative").
 * - "Exact" terms — anything containing a digit ("1969", "co2") or of at most 3 characters
 *   ("ATP", "DNA") — match ONLY by stem equality: no typo tolerance, so "1968" ≠ "1969".
 * - Otherwise, for terms of at least FUZZY_MIN_LENGTH (6) characters, typos are tolerated
 *   (the first letter must agree): an optimal-string-alignment Damerau–Levenshtein distance
 *   ≤ FUZZY_MAX_DISTANCE (1) between the surface tokens, or between the stems when these end
 *   in the same letter ("phosphorilation", "mitocondria"; but not "electrode" ~ "electron").
 * - Or the two are the singular and plural of a Greek/Latin word, which the Porter stemmer
 *   leaves apart: same base of at least CLASSICAL_BASE_MIN_LENGTH (4) letters with one of the
 *   CLASSICAL_NUMBER_PAIRS endings ("mitochondrion" ~ "mitochondria", "nucleus" ~ "nuclei",
 *   "bacterium" ~ "bacteria", "hypothesis" ~ "hypotheses", "matrix" ~ "matrices").
 *
 * Recall decision (the threshold)
 * -------------------------------
 * coverage = (key terms matched by some learner token) / (number of key terms).
 * A point is RECALLED when
 *     coverage ≥ RECALL_MIN_COVERAGE (0.6)  AND  hits ≥ min(RECALL_MIN_HITS (2), key terms).
 * So a 1-term point needs its term, 2-term points need both, 3 terms need 2, 4 need 3,
 * 5 need 3, 10 need 6. A point with no key terms at all is never recalled.
 * A NEAR MISS is a point not recalled with at least one hit and
 * coverage ≥ NEAR_MISS_MIN_COVERAGE (0.25); the evaluator reports these to the tutor.
 *
 * Known limits (acceptable for an offline stand-in): no negation handling ("I don't know
 * what ATP is" still mentions ATP) and no synonyms beyond shared stems.
 */
import { stemmer } from 'stemmer';

/** Minimum fraction of a point's key terms the learner must mention. */
export const RECALL_MIN_COVERAGE = 0.6;
/** Minimum number of matched key terms (capped by the number of key terms). */
export const RECALL_MIN_HITS = 2;
/** Partial coverage from which an unrecalled point is reported as a near miss. */
export const NEAR_MISS_MIN_COVERAGE = 0.25;
/** Shortest key term (in characters) that tolerates typos. */
export const FUZZY_MIN_LENGTH = 6;
/** Largest Damerau–Levenshtein distance accepted as a typo. */
export const FUZZY_MAX_DISTANCE = 1;
/** Singular/plural endings of Greek and Latin words (singular first). */
export const CLASSICAL_NUMBER_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ['on', 'a'],
  ['um', 'a'],
  ['us', 'i'],
  ['is', 'es'],
  ['ix', 'ices'],
  ['ex', 'ices'],
  ['a', 'ae'],
];
/** Shortest base (word without its classical ending) for the singular/plural rule. */
export const CLASSICAL_BASE_MIN_LENGTH = 4;
/** Terms this short (or containing a digit) must match exactly (by stem). */
export const EXACT_MAX_LENGTH = 3;

/** A small English stopword list: function words and fillers that carry no recall content. */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all also am an and any are around as at be because been ' +
    'before being below between both but by can could did do does doing done down during each ' +
    'either else etc even ever every few for from further get gets got had has have having he ' +
    'her here hers herself him himself his how however i if in into is it its itself just let ' +
    'lets like may me might more most much must my myself neither no nor not now of off often ' +
    'on once one only or other others our ours ourselves out over own per quite rather really ' +
    'same shall she should so some such than that the their theirs them themselves then there ' +
    'these they this those through thus to too under until up upon us usually very via was we ' +
    'were what when where whether which while who whom whose why will with within without ' +
    'would yes yet you your yours yourself yourselves um uh oh ok okay yeah well think thing ' +
    'things something stuff kind sort basically actually maybe guess mean means s t d ll re ve m'
  ).split(' '),
);

/** A word of the original text with its normalised tokens (usually one). */
export interface WordSpan {
  /** Index of the word in the original text. */
  start: number;
  end: number;
  /** The word as written. */
  raw: string;
  /** Its normalised tokens (empty for a word that normalises to nothing). */
  tokens: string[];
}

/** A key term of a point's content. */
export interface KeyTerm {
  /** Normalised token of its first occurrence ("mitochondria"). */
  token: string;
  /** Porter stem ("mitochondria", "produc"). */
  stem: string;
  /** The word as written in the content ("ATP", "Mitochondria"). */
  surface: string;
  /** True when the term must match exactly (digits or ≤ EXACT_MAX_LENGTH characters). */
  exact: boolean;
}

/** How well a learner text covers one point. */
export interface Coverage {
  keyTerms: KeyTerm[];
  hits: KeyTerm[];
  missing: KeyTerm[];
  /** hits / keyTerms, 0 when there are no key terms. */
  coverage: number;
  recalled: boolean;
  nearMiss: boolean;
}

// A word: a grouped number ("1,000,000", "3.14") or a run of letters / marks / digits. A match never
// starts right after a digit, which the lookbehind states so that no start inside a long run of digits
// is tried again (the regexp lint's no-super-linear-move).
const WORD_RE = /\p{N}{1,3}(?:,\p{N}{3})+(?:\.\p{N}+)?(?!\p{N})|(?<!\p{N})\p{N}+(?:\.\p{N}+)+|[\p{L}\p{M}\p{N}]+/gu;

function normalizeWord(raw: string): string[] {
  const folded = raw
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/(\p{N}),(?=\p{N})/gu, '$1');
  // NFKD can introduce punctuation (e.g. "½" → "1⁄2"): split on it; keep "." between digits.
  return folded
    .split(/[^\p{L}\p{N}.]+/u)
    .flatMap((part) => part.split(/\.(?!\p{N})|(?<!\p{N})\./u))
    .filter((t) => t.length > 0);
}

/** The words of a text with their positions and normalised tokens. */
export function wordSpans(text: string): WordSpan[] {
  const spans: WordSpan[] = [];
  for (const m of text.matchAll(WORD_RE)) {
    const raw = m[0];
    const start = m.index ?? 0;
    spans.push({ start, end: start + raw.length, raw, tokens: normalizeWord(raw) });
  }
  return spans;
}

/** Normalised tokens of a text (stopwords included). */
export function tokenize(text: string): string[] {
  return wordSpans(text).flatMap((s) => s.tokens);
}

/** The normalised text: tokens joined by single spaces. */
export function normalizeText(text: string): string {
  return tokenize(text).join(' ');
}

const stemCache = new Map<string, string>();
/** Porter stem of a normalised token (numbers are returned unchanged). */
export function stem(token: string): string {
  if (/\p{N}/u.test(token)) return token;
  let s = stemCache.get(token);
  if (s === undefined) {
    s = stemmer(token);
    if (stemCache.size > 50_000) stemCache.clear();
    stemCache.set(token, s);
  }
  return s;
}

/** True for a token that carries no recall content. */
export function isStopword(token: string): boolean {
  return STOPWORDS.has(token) || (token.length === 1 && !/\p{N}/u.test(token));
}

function isExact(token: string): boolean {
  return /\p{N}/u.test(token) || token.length <= EXACT_MAX_LENGTH;
}

/**
 * Optimal-string-alignment Damerau–Levenshtein distance (insert, delete, substitute,
 * swap adjacent). Returns `max + 1` as soon as the distance is known to exceed `max`.
 */
export function damerauLevenshtein(a: string, b: string, max = Number.POSITIVE_INFINITY): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const n = b.length;
  let prev2: number[] = new Array<number>(n + 1).fill(0);
  let prev: number[] = Array.from({ length: n + 1 }, (_, j) => j);
  let cur: number[] = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        v = Math.min(v, (prev2[j - 2] ?? 0) + 1);
      }
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[n] ?? 0;
}

function isClassicalNumberPair(a: string, b: string): boolean {
  for (const [one, many] of CLASSICAL_NUMBER_PAIRS) {
    for (const [x, y] of [[a, b], [b, a]] as const) {
      if (!x.endsWith(one) || !y.endsWith(many)) continue;
      const base = x.slice(0, -one.length);
      if (base.length >= CLASSICAL_BASE_MIN_LENGTH && base === y.slice(0, -many.length)) return true;
    }
  }
  return false;
}

/** True when the normalised learner `token` counts as a mention of `term`. */
export function tokenMatchesTerm(token: string, term: KeyTerm): boolean {
  const s = stem(token);
  if (s === term.stem) return true;
  if (term.exact || isExact(token)) return false;
  if (isClassicalNumberPair(token, term.token)) return true;
  if (term.token.length < FUZZY_MIN_LENGTH || token[0] !== term.token[0]) return false;
  if (token.length >= FUZZY_MIN_LENGTH - 1) {
    if (damerauLevenshtein(token, term.token, FUZZY_MAX_DISTANCE) <= FUZZY_MAX_DISTANCE) return true;
  }
  // Stems drop the suffix, so a typo in an inflected word still matches; but stems that
  // differ in their last letter are usually different words ("electrod" / "electron").
  if (s.length >= FUZZY_MIN_LENGTH - 1 && term.stem.length >= FUZZY_MIN_LENGTH - 1 && s.at(-1) === term.stem.at(-1)) {
    if (damerauLevenshtein(s, term.stem, FUZZY_MAX_DISTANCE) <= FUZZY_MAX_DISTANCE) return true;
  }
  return false;
}

/** The key terms of a point's content, deduplicated by stem, in order of appearance. */
export function extractKeyTerms(content: string): KeyTerm[] {
  const all: Array<{ token: string; surface: string }> = [];
  for (const span of wordSpans(content)) {
    for (const token of span.tokens) all.push({ token, surface: span.tokens.length === 1 ? span.raw : token });
  }
  const content_ = all.filter((t) => !isStopword(t.token));
  const chosen = content_.length > 0 ? content_ : all;
  const seen = new Set<string>();
  const terms: KeyTerm[] = [];
  for (const { token, surface } of chosen) {
    const s = stem(token);
    if (seen.has(s)) continue;
    seen.add(s);
    terms.push({ token, stem: s, surface, exact: isExact(token) });
  }
  return terms;
}

/** The documented recall rule, on counts. */
export function isRecalled(hits: number, keyTermCount: number): boolean {
  if (keyTermCount === 0) return false;
  return hits / keyTermCount >= RECALL_MIN_COVERAGE && hits >= Math.min(RECALL_MIN_HITS, keyTermCount);
}

/**
 * A learner text prepared once for matching against many points: its distinct tokens, their
 * stems, and the tokens grouped by first letter (every fuzzy rule needs the same first letter).
 */
export interface PreparedText {
  readonly stems: ReadonlySet<string>;
  readonly byInitial: ReadonlyMap<string, readonly string[]>;
}

export function prepareText(text: string): PreparedText {
  const stems = new Set<string>();
  const byInitial = new Map<string, string[]>();
  for (const token of new Set(tokenize(text))) {
    stems.add(stem(token));
    const initial = token[0] ?? '';
    const bucket = byInitial.get(initial);
    if (bucket) bucket.push(token);
    else byInitial.set(initial, [token]);
  }
  return { stems, byInitial };
}

function mentions(text: PreparedText, term: KeyTerm): boolean {
  if (text.stems.has(term.stem)) return true;
  if (term.exact) return false;
  return (text.byInitial.get(term.token[0] ?? '') ?? []).some((t) => tokenMatchesTerm(t, term));
}

/** The key terms among `terms` that some word of `text` mentions. */
export function matchedTerms(text: string | PreparedText, terms: readonly KeyTerm[]): KeyTerm[] {
  const prepared = typeof text === 'string' ? prepareText(text) : text;
  return terms.filter((term) => mentions(prepared, term));
}

/** How well a learner text covers `content`, with the recall decision. */
export function scoreCoverage(learnerText: string | PreparedText, content: string): Coverage {
  const keyTerms = extractKeyTerms(content);
  const hits = matchedTerms(learnerText, keyTerms);
  const hitSet = new Set(hits);
  const missing = keyTerms.filter((t) => !hitSet.has(t));
  const coverage = keyTerms.length === 0 ? 0 : hits.length / keyTerms.length;
  const recalled = isRecalled(hits.length, keyTerms.length);
  const nearMiss = !recalled && hits.length > 0 && coverage >= NEAR_MISS_MIN_COVERAGE;
  return { keyTerms, hits, missing, coverage, recalled, nearMiss };
}
