/**
 * A movement said the other way (issue 28, the contradiction model): the point moves something
 * to a place and the learner moves it from there, or the other way round — "decomposition
 * removes carbon dioxide from the atmosphere" for "respiration and decomposition return carbon
 * dioxide to the atmosphere". Only the point's words said by the learner with a preposition of
 * direction on both sides are compared, so a paraphrase that names the place some other way
 * ("released into the air", "goes back up") is never read as the opposite.
 */
import type { IdeaHit } from './idea-match';
import type { AnalyzedWord } from './text-analysis';

const GOAL: ReadonlySet<string> = new Set(['to', 'into', 'onto', 'toward', 'towards']);
const SOURCE: ReadonlySet<string> = new Set(['from']);
/** Function words that may stand between a preposition and its noun ("into the", "from all of the"). */
const LOOK_BACK = 3;

/** +1 when the word at `at` is the goal of a movement ("to the lungs"), −1 its source ("from the lungs", "out of the cell"), else 0. */
export function directionAt(words: readonly AnalyzedWord[], at: number): number {
  for (let i = at - 1; i >= 0 && i >= at - 1 - LOOK_BACK; i--) {
    const w = words[i]!;
    if (w.clause !== words[at]!.clause) return 0;
    if (GOAL.has(w.norm)) return 1;
    if (SOURCE.has(w.norm) || (w.norm === 'of' && words[i - 1]?.norm === 'out')) return -1;
    if (!w.functionWord) return 0;
  }
  return 0;
}

/** The first of the learner's words moved the other way than the point moves it, or null. */
export function reversedMovement(point: readonly AnalyzedWord[], learner: readonly AnalyzedWord[], hits: readonly IdeaHit[]): string | null {
  for (const hit of hits) {
    if (hit.idea.value !== null || hit.wordIndices.length === 0) continue;
    const meant = directionAt(point, hit.idea.position);
    const said = directionAt(learner, hit.wordIndices[0]!);
    if (meant !== 0 && said === -meant) return `moves it ${said > 0 ? 'to' : 'from'} "${hit.words}" where the point has ${meant > 0 ? 'to' : 'from'}`;
  }
  return null;
}
