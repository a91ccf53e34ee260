import type { SessionSummary } from '@tutorloop/shared';
import { completionMeta, useFocusOnMount } from '../completion-parts';
import { CompletionActions } from '../completion-actions';
import type { CompletionProps } from '../session-type';

const reasonNotes: Record<SessionSummary['reason'], string | null> = {
  all_recalled: null,
  all_answered: null,
  plan_completed: null,
  ended_by_learner: 'You ended this session early. Points not recalled come back for review soon.',
  time_expired: 'The time for this session ran out.',
  deleted: 'This session was deleted.',
};

function formatDue(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleDateString(undefined, { month: 'short', day: 'numeric' });
}

/** The end of a recall session: what was recalled and what was not (contents are safe now), and when each comes back. */
export function RecallCompletion({ summary, startAgain, onBack }: CompletionProps) {
  const headingRef = useFocusOnMount<HTMLHeadingElement>();
  const note = reasonNotes[summary.reason];
  return (
    <section className="completion" aria-labelledby="completion-title" data-testid="completion-screen">
      <h1 id="completion-title" ref={headingRef} tabIndex={-1}>
        {summary.reason === 'ended_by_learner' ? 'Session ended early' : 'Session complete'}
      </h1>
      <p className="completion-score" data-testid="completion-recalled">
        You recalled {summary.recalledCount} of {summary.totalPoints} {summary.totalPoints === 1 ? 'point' : 'points'}
      </p>
      <p className="muted">{completionMeta(summary)}</p>
      {note ? <p className="notice">{note}</p> : null}
      <ul className="completion-points" aria-label="Points">
        {summary.points.map((point) => (
          <li
            key={point.id}
            className={point.recalled ? 'completion-point recalled' : 'completion-point missed'}
            data-testid="completion-point"
            data-recalled={point.recalled ? 'true' : 'false'}
          >
            <span className="point-status">
              <span aria-hidden="true">{point.recalled ? '✓' : '○'}</span> {point.recalled ? 'Recalled' : 'Not recalled'}
            </span>
            <span className="point-content">{point.content}</span>
            {/* Every point says when it comes back (issue 25): one never reviewed yet is due now. */}
            <span className="point-due" data-testid="completion-point-due">
              {point.nextDue && formatDue(point.nextDue) ? `Next review ${formatDue(point.nextDue)}` : 'Not reviewed yet · due now'}
            </span>
          </li>
        ))}
      </ul>
      <CompletionActions startAgain={startAgain} onBack={onBack} backLabel="Back to recall sets" againLabel="Review again" />
    </section>
  );
}
