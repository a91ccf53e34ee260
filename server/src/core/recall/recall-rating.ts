/**
 * The grade of a conversational review (SPEC §4.1) reflects the evidence of recall, not only the
 * evaluator's confidence (ARCHITECTURE.md, "Decisions"):
 *
 *   evidence                                       confidence ≥ 0.9   otherwise
 *   free recall at the first cue (or unprompted)   Easy               Good
 *   cued recall (after a hint: cloze, free text)   Good               Hard
 *   recognition (picked from multiple choice)      Hard               Hard
 *   asked about, answered, never recalled          Again (at the end of the session)
 *
 * The bands never overlap downwards (free ≥ cued ≥ recognition for any confidences), so a
 * first-try recall is never scheduled sooner than a hinted or recognised one of a like card.
 * Points the tutor never asked about are not reviewed at all.
 */
import type { RatingName } from '../scheduler/fsrs';

/** How a point came to be recalled in a conversation: the evidence a review's grade reflects. */
export const RecallEvidences = {
  /** Recalled at the tutor's first cue for it, or without being asked. */
  free: 'free_recall',
  /** Recalled only after the tutor gave a hint (a cloze, a skeleton, a second cue). */
  cued: 'cued_recall',
  /** Picked among options: recognition, not recall. */
  recognition: 'recognition',
} as const;
export type RecallEvidence = (typeof RecallEvidences)[keyof typeof RecallEvidences];

/** The evaluator's confidence at which a recall counts as precise (the upper grade of its band). */
export const preciseRecallConfidence = 0.9;

/** The documented grade of a recalled point (see the header): evidence first, confidence within its band. */
export function ratingForRecall(evidence: RecallEvidence, confidence: number): Exclude<RatingName, 'again'> {
  const precise = confidence >= preciseRecallConfidence;
  switch (evidence) {
    case 'free_recall':
      return precise ? 'easy' : 'good';
    case 'cued_recall':
      return precise ? 'good' : 'hard';
    case 'recognition':
      return 'hard';
    default: {
      const unreachable: never = evidence;
      throw new Error(`unknown evidence ${String(unreachable)}`);
    }
  }
}
