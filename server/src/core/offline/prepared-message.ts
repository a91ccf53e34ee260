/**
 * A learner's message prepared once for matching against every point of a turn (idea-match.ts):
 * its analysed words (text-analysis.ts) and the candidates that may express an idea — each
 * content word, each WordNet collocation ("carbon dioxide"), a direction said with a function
 * word ("more", "goes down"), a power said in words ("a squared" for "a²") — with the word
 * indices each covers, so that a word expresses one idea only.
 */
import { directionOf, LIGHT_WORDS } from './key-ideas';
import { formulasOf, type Formula } from './notation';
import { analyzeText, expandBareContractions, expandContractions, type AnalyzedText } from './text-analysis';

const emptyNumbers: readonly number[] = [];

/** Learner words that may express one idea. */
export interface Candidate {
  lemmas: readonly string[];
  stem: string;
  norm: string;
  words: string;
  clause: number;
  strict: boolean;
  /** Indices of its first and last word in the analysed text: a word expresses one idea, alone or in a collocation. */
  from: number;
  to: number;
  /** Written with a minus sign. */
  minus?: boolean;
  /** A number's bound (text-analysis.ts). */
  comparator?: number;
  /** What decides how it matches an idea (for the per-idea cache). */
  key: string;
}

/** Verbs that, with "up" or "down", say a direction ("go up", "went down", "come down"). */
const MOTION_VERBS: ReadonlySet<string> = new Set(['go', 'come', 'move', 'head', 'shoot', 'climb', 'creep', 'speed', 'slow', 'turn', 'push', 'drive', 'bring']);

/** The learner's words (and collocations) that can express ideas. */
export interface PreparedMessage {
  text: AnalyzedText;
  candidates: Candidate[];
  numbers: readonly number[];
  /** Its formulas as written ("O(n)", "a = b + c"; notation.ts), which the words alone lose, with the stretch (text-analysis.ts `unit`) each stands in. */
  formulas: ReadonlyArray<Formula & { unit: number }>;
}

export function prepareMessage(text: string | AnalyzedText): PreparedMessage {
  const analyzed = typeof text === 'string' ? analyzeText(text) : text;
  const candidates: Candidate[] = [];
  for (const c of analyzed.collocations) {
    const words = analyzed.words.slice(c.from, c.to + 1);
    // "more than", "at least": function words, which the comparison rules read.
    if (words.every((w) => w.functionWord)) continue;
    candidates.push(withKey({ lemmas: [c.lemma], stem: c.lemma, norm: c.lemma, words: words.map((w) => w.raw).join(' '), clause: words[0]!.clause, strict: false, from: c.from, to: c.to }));
  }
  const numbers: number[] = [];
  for (const [index, w] of analyzed.words.entries()) {
    if (w.value !== null) numbers.push(w.value);
    // A direction said with a function word: "more" / "less" / "fewer", or a verb of motion with
    // "up" / "down" ("goes down" for "falls"). Directions express one another (key-ideas.ts).
    const previous = analyzed.words[index - 1];
    const particle = (w.norm === 'up' || w.norm === 'down') && previous !== undefined && previous.clause === w.clause && previous.lemmas.some((l) => MOTION_VERBS.has(l));
    if (particle) {
      candidates.push(withKey({ lemmas: [w.norm === 'up' ? 'rise' : 'fall'], stem: w.norm, norm: w.norm, words: `${previous.raw} ${w.raw}`, clause: w.clause, strict: false, from: index - 1, to: index }));
      continue;
    }
    // Not in a comparison ("more … than"): which side is more is swapsComparison's to judge.
    const compares = analyzed.words.some((other) => other.norm === 'than' && other.clause === w.clause);
    if (w.functionWord && directionOf([w.norm]) !== 0 && !compares) {
      candidates.push(withKey({ lemmas: [w.norm], stem: w.stem, norm: w.norm, words: w.raw, clause: w.clause, strict: false, from: index, to: index }));
      continue;
    }
    // "a squared", "n cubed": the notation "a²", "n³" (normalised to "a2", "n3").
    const power = w.norm === 'squared' ? '2' : w.norm === 'cubed' ? '3' : null;
    if (power && previous !== undefined && previous.clause === w.clause && /^[a-z]$/.test(previous.norm)) {
      candidates.push(withKey({ lemmas: [`${previous.norm}${power}`], stem: `${previous.norm}${power}`, norm: `${previous.norm}${power}`, words: `${previous.raw} ${w.raw}`, clause: w.clause, strict: true, from: index - 1, to: index }));
      continue;
    }
    if (w.functionWord || w.lemmas.length === 0) continue;
    const strict = w.value !== null || LIGHT_WORDS.has(w.norm);
    candidates.push(withKey({ lemmas: w.lemmas, stem: w.stem, norm: w.norm, words: w.raw, clause: w.clause, strict, from: index, to: index, ...(w.minus ? { minus: true } : {}), ...(w.comparator !== 0 ? { comparator: w.comparator } : {}) }));
  }
  return { text: analyzed, candidates, numbers: numbers.length ? numbers : emptyNumbers, formulas: typeof text === 'string' ? formulasIn(text, analyzed) : [] };
}

function formulasIn(text: string, analyzed: AnalyzedText): Array<Formula & { unit: number }> {
  // The offsets of the analysed words are in the text with its contractions expanded.
  const formulas = formulasOf(expandBareContractions(expandContractions(text)));
  return formulas.map((formula) => ({ ...formula, unit: analyzed.words.find((w) => w.end > formula.start)?.unit ?? -1 }));
}

/** A candidate is negated when a negation scopes over any of its words. */
export function candidateNegated(message: PreparedMessage, candidate: Candidate): boolean {
  for (let i = candidate.from; i <= candidate.to; i++) if (message.text.words[i]?.negated) return true;
  return false;
}

function withKey(candidate: Omit<Candidate, 'key'>): Candidate {
  const key = `${candidate.lemmas.join('/')}|${candidate.stem}|${candidate.norm}|${candidate.strict ? 1 : 0}|${candidate.minus ? 1 : 0}|${candidate.comparator ?? 0}`;
  return { ...candidate, key };
}

export function indicesOf(candidate: Candidate): number[] {
  const out: number[] = [];
  for (let i = candidate.from; i <= candidate.to; i++) out.push(i);
  return out;
}
