/**
 * Where a learner's negation really denies something, on top of the scope text-analysis.ts
 * reads (issue 28, the contradiction model): a negative quantifier over a comparison — "no
 * river carries more water than the Amazon", "nothing is faster than light" — states a
 * superlative (the Amazon carries the most) and denies nothing. Its words are read unnegated,
 * and its comparison is read turned round: "no X is more … than A" says "A is more … than X".
 * A real "not" in the same stretch keeps the negation.
 */
import { candidateNegated as negatedByAnalysis, type Candidate, type PreparedMessage } from './prepared-message';
import { NEGATORS, type AnalyzedWord } from './text-analysis';

/** Negators that quantify a noun ("no river", "nothing") rather than deny a verb ("not", "never"). */
const NEGATIVE_QUANTIFIERS: ReadonlySet<string> = new Set(['no', 'none', 'nothing', 'nobody', 'nowhere']);

/** True when the "than" at `than` is governed by a negative quantifier before it, the only negator of its stretch. */
export function quantifiedComparison(words: readonly AnalyzedWord[], than: number): boolean {
  const unit = words[than]?.unit;
  if (unit === undefined) return false;
  const negators = words.filter((w, index) => w.unit === unit && NEGATORS.has(w.norm) && index !== than);
  return negators.length === 1 && NEGATIVE_QUANTIFIERS.has(negators[0]!.norm) && words.indexOf(negators[0]!) < than - 1;
}

const superlativeCache = new WeakMap<PreparedMessage, ReadonlySet<number>>();

/** The stretches (units) of the message that state a superlative by a negative quantifier. */
function superlativeUnits(message: PreparedMessage): ReadonlySet<number> {
  let units = superlativeCache.get(message);
  if (units) return units;
  const words = message.text.words;
  units = new Set(words.flatMap((w, index) => (w.norm === 'than' && quantifiedComparison(words, index) ? [w.unit] : [])));
  superlativeCache.set(message, units);
  return units;
}

/** Whether a negation scopes over a learner candidate's words (see the header). */
export function candidateNegated(message: PreparedMessage, candidate: Candidate): boolean {
  if (!negatedByAnalysis(message, candidate)) return false;
  const units = superlativeUnits(message);
  return units.size === 0 || !units.has(message.text.words[candidate.from]!.unit);
}
