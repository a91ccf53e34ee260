import type { SessionSummary } from '@tutorloop/shared';
import { completionMeta, useFocusOnMount } from '../completion-parts';
import { CompletionActions } from '../completion-actions';
import type { CompletionProps } from '../session-type';
import { LearningSummaryView } from './learning-summary';

/** Learning sessions cover steps, not points (SPEC §4.4). */
const reasonNotes: Record<SessionSummary['reason'], string | null> = {
  all_recalled: null,
  all_answered: null,
  plan_completed: null,
  ended_by_learner: 'You ended this session before the end of the plan. Start it again whenever you like.',
  time_expired: 'The time for this session ran out.',
  deleted: 'This session was deleted.',
};

/** The end of a learning session: steps covered, mastery per concept, misconceptions met and resolved. */
export function LearningCompletion({ summary, startAgain, onBack }: CompletionProps) {
  const headingRef = useFocusOnMount<HTMLHeadingElement>();
  const learning = summary.learning ?? null;
  const note = reasonNotes[summary.reason];
  return (
    <section className="completion" aria-labelledby="completion-title" data-testid="completion-screen">
      {learning ? <p className="completion-kicker muted">{learning.planTitle}</p> : null}
      <h1 id="completion-title" ref={headingRef} tabIndex={-1}>
        {summary.reason === 'plan_completed' ? 'Plan complete' : summary.reason === 'ended_by_learner' ? 'Session ended early' : 'Session complete'}
      </h1>
      {learning ? (
        <p className="completion-score" data-testid="learning-steps-covered">
          You covered {learning.stepsCovered} of {learning.totalSteps} {learning.totalSteps === 1 ? 'step' : 'steps'}
        </p>
      ) : null}
      <p className="muted" data-testid="completion-meta">
        {completionMeta(summary)}
      </p>
      {note ? <p className="notice">{note}</p> : null}
      {learning ? <LearningSummaryView learning={learning} /> : null}
      <CompletionActions startAgain={startAgain} onBack={onBack} backLabel="Back to study plans" againLabel="Start the plan again" />
    </section>
  );
}
