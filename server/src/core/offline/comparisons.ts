/**
 * A comparison said the other way (issue 28, the contradiction model; contradictions.ts runs it
 * among its checks). "No X is more … than A" is read turned round, as "A is more … than X"
 * (negation-scope.ts), so "no river carries more water than the Amazon" agrees with "the Amazon
 * carries more water than any other river".
 */
import type { IdeaHit } from './idea-match';
import { directionOf, LIGHT_WORDS } from './key-ideas';
import { quantifiedComparison } from './negation-scope';
import type { PreparedMessage } from './prepared-message';
import type { AnalyzedWord } from './text-analysis';

/**
 * A comparison said the other way. The words point and message share are read on their side of
 * "than": if one changed sides ("the mean is less affected … than the median" for "the median is
 * less affected … than the mean") the comparison is swapped, which says the same only with the
 * comparative reversed too ("outliers change the mean more than the median"); if none did, the
 * comparative must agree ("the Amazon carries less water than …" for "more water").
 */
export function comparisonConflict(point: readonly AnalyzedWord[], message: PreparedMessage, hits: readonly IdeaHit[]): string | null {
  if (hits.length === 0) return null;
  const learner = message.text.words;
  const pointThan = point.findIndex((w) => w.norm === 'than');
  const learnerThan = learner.findIndex((w) => w.norm === 'than');
  if (pointThan < 0 || learnerThan < 0) return null;
  const comparative = (words: readonly AnalyzedWord[], than: number) => directionOf(words.slice(Math.max(0, than - 4), than).flatMap((w) => [w.norm, ...w.lemmas]));
  const pointDirection = comparative(point, pointThan);
  const learnerDirection = comparative(learner, learnerThan) * (quantifiedComparison(learner, learnerThan) ? -1 : 1); // "no X … more than A": turned round
  if (pointDirection === 0 || learnerDirection === 0) return null;
  // The words both say, each on its side of "than" in each: one that changed sides swaps the comparison.
  const same = (a: AnalyzedWord, b: AnalyzedWord) => a.stem === b.stem || a.lemmas.some((l) => b.lemmas.includes(l));
  const clauseOf = (words: readonly AnalyzedWord[], than: number) => words.filter((w) => w.clause === words[than]!.clause && !w.functionWord && !LIGHT_WORDS.has(w.norm));
  // A word said on both sides of "than" ("reviews spread out … than the same reviews crammed")
  // tells nothing about which side is which, in either text: only words on one side count.
  const sidesOf = (words: readonly AnalyzedWord[], than: number, word: AnalyzedWord) => new Set(clauseOf(words, than).filter((w) => same(w, word)).map((w) => words.indexOf(w) < than));
  let shared = 0;
  let swapped = false;
  for (const p of clauseOf(point, pointThan)) {
    const learnerSides = sidesOf(learner, learnerThan, p);
    if (learnerSides.size === 0) continue;
    shared += 1;
    const pointSides = sidesOf(point, pointThan, p);
    if (pointSides.size !== 1 || learnerSides.size !== 1) continue;
    if (pointSides.has(true) !== learnerSides.has(true)) swapped = true;
  }
  if (shared === 0) return null;
  // Swapped sides with the comparative reversed too ("more" for "less") say the same thing.
  return swapped === (pointDirection === learnerDirection) ? 'reverses the comparison' : null;
}
