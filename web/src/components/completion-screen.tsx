import type { SessionSummary } from '@tutorloop/shared';
import { useEffect, useRef } from 'react';
import { LearningSummaryView } from './learning-summary';

export interface CompletionScreenProps {
  summary: SessionSummary;
  reviewError: string | null;
  reviewBusy: boolean;
  onBack(): void;
  onReviewAgain(): void;
}

/** Learning sessions cover steps, not points (SPEC §4.4). */
const learningReasonNotes: Record<SessionSummary['reason'], string | null> = {
  all_recalled: null,
  all_answered: null,
  plan_completed: null,
  ended_by_learner: 'You ended this session before the end of the plan. Start it again whenever you like.',
  time_expired: 'The time for this session ran out.',
  deleted: 'This session was deleted.',
};

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

function formatDuration(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  if (minutes < 1) return 'under a minute';
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

/** The end of a session: what was recalled and what was not (contents are safe now); for a learning session, the plan's summary. */
export function CompletionScreen({ summary, reviewError, reviewBusy, onBack, onReviewAgain }: CompletionScreenProps) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  const learning = summary.learning ?? null;
  const note = (learning ? learningReasonNotes : reasonNotes)[summary.reason];
  const meta = `${summary.turns} ${summary.turns === 1 ? 'turn' : 'turns'} · ${formatDuration(summary.durationSeconds)}`;

  if (learning) {
    return (
      <section className="completion" aria-labelledby="completion-title" data-testid="completion-screen">
        <p className="completion-kicker muted">{learning.planTitle}</p>
        <h1 id="completion-title" ref={headingRef} tabIndex={-1}>
          {summary.reason === 'plan_completed' ? 'Plan complete' : summary.reason === 'ended_by_learner' ? 'Session ended early' : 'Session complete'}
        </h1>
        <p className="completion-score" data-testid="learning-steps-covered">
          You covered {learning.stepsCovered} of {learning.totalSteps} {learning.totalSteps === 1 ? 'step' : 'steps'}
        </p>
        <p className="muted" data-testid="completion-meta">
          {meta}
        </p>
        {note ? <p className="notice">{note}</p> : null}
        <LearningSummaryView learning={learning} />
        {reviewError ? (
          <p className="form-error" role="alert">
            {reviewError}
          </p>
        ) : null}
        <div className="actions">
          <button type="button" className="button" onClick={onBack}>
            Back to study plans
          </button>
          <button type="button" className="button primary" onClick={onReviewAgain} disabled={reviewBusy}>
            Start the plan again
          </button>
        </div>
      </section>
    );
  }

  return (
    <section className="completion" aria-labelledby="completion-title" data-testid="completion-screen">
      <h1 id="completion-title" ref={headingRef} tabIndex={-1}>
        {summary.reason === 'ended_by_learner' ? 'Session ended early' : 'Session complete'}
      </h1>
      <p className="completion-score" data-testid="completion-recalled">
        You recalled {summary.recalledCount} of {summary.totalPoints} {summary.totalPoints === 1 ? 'point' : 'points'}
      </p>
      <p className="muted">{meta}</p>
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
      {reviewError ? (
        <p className="form-error" role="alert">
          {reviewError}
        </p>
      ) : null}
      <div className="actions">
        <button type="button" className="button" onClick={onBack}>
          Back to recall sets
        </button>
        <button type="button" className="button primary" onClick={onReviewAgain} disabled={reviewBusy}>
          Review again
        </button>
      </div>
    </section>
  );
}
