import type { HeaderExtrasProps, SessionTypeDefinition } from '../session-type';
import { RecallCompletion } from './recall-completion';
import { recallRules } from './recall-rules';

/** SPEC §4.1: nothing in the set was due, so every point is reviewed ahead of schedule. */
function EarlyReviewBadge({ state, finished }: HeaderExtrasProps) {
  if (state.earlyReview !== true || finished) return null;
  return (
    <span className="badge" data-testid="early-review" title="Nothing in this set was due: every point is reviewed ahead of schedule.">
      Early review
    </span>
  );
}

export const recallSession: SessionTypeDefinition = {
  ...recallRules,
  HeaderExtras: EarlyReviewBadge,
  Rail: null,
  Completion: RecallCompletion,
};
