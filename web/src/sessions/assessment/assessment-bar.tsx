import type { AssessmentProgress } from '@tutorloop/shared';
import { useEffect, useMemo, useRef } from 'react';
import { useNow } from '../../hooks/use-now';
import { assessmentItemLabel, countdownMilestone, formatCountdown, localDeadline, remainingMs } from '../../store/assessment';

export interface AssessmentBarProps {
  progress: AssessmentProgress;
  /** The session is over: the clock stops. */
  finished: boolean;
  /** Called once when the countdown reaches zero (the server ends the assessment itself). */
  onTimeUp?(): void;
}

/** Item counter, section and countdown of a running assessment, in the session bar. */
export function AssessmentBar({ progress, finished, onTimeUp }: AssessmentBarProps) {
  const ratio = progress.totalItems > 0 ? progress.answered / progress.totalItems : 0;
  return (
    <div className="assessment-bar">
      <span className="progress">
        <span className="progress-label" data-testid="assessment-item-counter">
          {assessmentItemLabel(progress)}
        </span>
        <span className="progress-bar" aria-hidden="true">
          <span style={{ width: `${Math.round(ratio * 100)}%` }} />
        </span>
      </span>
      {progress.section ? (
        <span className="badge section-badge">
          <span className="visually-hidden">Section: </span>
          <span data-testid="assessment-section">{progress.section}</span>
        </span>
      ) : null}
      <Countdown progress={progress} finished={finished} onTimeUp={onTimeUp} />
    </div>
  );
}

function Countdown({ progress, finished, onTimeUp }: { progress: AssessmentProgress; finished: boolean; onTimeUp?: () => void }) {
  const now = useNow(1000, !finished);
  // Counted from the server's "seconds left" as each state arrives, not from the deadline and
  // this machine's clock, which may be off.
  const deadline = useMemo(() => localDeadline(progress, new Date()), [progress]);
  const remaining = remainingMs(deadline, now);
  const timeUp = remaining !== null && remaining <= 0;
  const warn = remaining !== null && remaining <= 60_000;
  const onTimeUpRef = useRef(onTimeUp);
  useEffect(() => {
    onTimeUpRef.current = onTimeUp;
  });

  // Once per crossing of the deadline, whatever the parent passes on re-render.
  useEffect(() => {
    if (timeUp) onTimeUpRef.current?.();
  }, [timeUp]);

  if (remaining === null) return null;
  return (
    <span className={warn ? 'countdown warn' : 'countdown'}>
      {/* role=timer is not announced on every tick; the milestones below are, once each. */}
      <svg className="countdown-icon" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
        <circle cx="8" cy="9" r="6" fill="none" stroke="currentColor" strokeWidth="1.6" />
        <path d="M8 5.5V9l2.2 1.4M6 1.5h4" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
      </svg>
      <span className="visually-hidden">Time left: </span>
      <span role="timer" data-testid="assessment-countdown">
        {timeUp && !finished ? 'Time is up — finishing…' : formatCountdown(remaining)}
      </span>
      <span className="visually-hidden" role="status">
        {finished ? '' : countdownMilestone(remaining)}
      </span>
    </span>
  );
}
