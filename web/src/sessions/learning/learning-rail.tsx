import type { LearningProgress } from '@tutorloop/shared';
import { stepLabel, stepRatio, stepStatusLabels, stepTypeLabels } from '../../store/learning';
import { MasteryMeter } from '../../components/mastery-meter';

/** "Step 3 of 8" and a bar, in the session bar of a learning session. */
export function LearningBar({ progress }: { progress: LearningProgress }) {
  return (
    <div className="progress">
      <span className="progress-label" data-testid="learning-step">
        {stepLabel(progress)}
      </span>
      <span className="progress-bar" aria-hidden="true">
        <span style={{ width: `${Math.round(stepRatio(progress) * 100)}%` }} />
      </span>
    </div>
  );
}

export interface LearningRailProps {
  progress: LearningProgress;
  /** `side`: a column beside the conversation (wide screens); `compact`: a collapsible strip above it. */
  layout: 'side' | 'compact';
}

/**
 * The plan's steps (done, current, upcoming — with type and concept), each concept's mastery
 * level, and whether the tutor is waiting for an answer. Only what a learning session's
 * `state_update` carries (SPEC §4.4 privacy): no scores, no expected answers.
 */
export function LearningRail({ progress, layout }: LearningRailProps) {
  const current = progress.steps.find((step) => step.status === 'current');
  const now = current ?? { type: progress.stepType, concept: progress.concept };
  const question = <QuestionIndicator open={progress.questionOpen} />;

  if (layout === 'compact') {
    return (
      <details className="learning-rail compact" data-testid="learning-rail">
        <summary className="rail-summary">
          <span className="rail-now">
            <span className={`step-type step-type-${now.type}`}>{stepTypeLabels[now.type]}</span>
            <span className="rail-now-concept" data-testid="learning-current-concept">
              {now.concept}
            </span>
          </span>
          {question}
          <span className="rail-toggle">Steps &amp; concepts</span>
        </summary>
        <div className="rail-panels">
          <StepList progress={progress} />
          <ConceptList progress={progress} />
        </div>
      </details>
    );
  }

  return (
    <aside className="learning-rail side" aria-label="Study plan progress" data-testid="learning-rail">
      <div className="rail-now-block">
        <p className="rail-caption">Now</p>
        <p className="rail-now">
          <span className={`step-type step-type-${now.type}`}>{stepTypeLabels[now.type]}</span>
          <span className="rail-now-concept" data-testid="learning-current-concept">
            {now.concept}
          </span>
        </p>
        {question}
      </div>
      <StepList progress={progress} />
      <ConceptList progress={progress} />
    </aside>
  );
}

/** Announced (role=status) when the tutor asks something; empty otherwise. */
function QuestionIndicator({ open }: { open: boolean }) {
  return (
    <span className="question-slot" role="status">
      {open ? (
        <span className="question-open" data-testid="question-open">
          <span className="question-icon" aria-hidden="true">
            ?
          </span>
          Waiting for your answer
        </span>
      ) : null}
    </span>
  );
}

function StepList({ progress }: { progress: LearningProgress }) {
  return (
    <section className="rail-section" aria-labelledby="rail-steps-heading">
      <h2 id="rail-steps-heading" className="rail-heading">
        Steps
      </h2>
      <ol className="rail-steps">
        {progress.steps.map((step) => (
          <li
            key={step.number}
            className={`rail-step status-${step.status}`}
            data-testid="learning-rail-step"
            data-status={step.status}
            aria-current={step.status === 'current' ? 'step' : undefined}
          >
            <span className="rail-marker" aria-hidden="true">
              {step.status === 'done' ? '✓' : step.number}
            </span>
            <span className="rail-step-text">
              <span className="rail-step-concept">
                <span className="visually-hidden">Step {step.number}: </span>
                {step.concept}
              </span>
              <span className="rail-step-meta">
                {stepTypeLabels[step.type]}
                <span aria-hidden="true"> · </span>
                <span className="rail-step-status">{stepStatusLabels[step.status]}</span>
              </span>
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}

function ConceptList({ progress }: { progress: LearningProgress }) {
  return (
    <section className="rail-section" aria-labelledby="rail-concepts-heading">
      <h2 id="rail-concepts-heading" className="rail-heading">
        Concepts
      </h2>
      <ul className="concept-list">
        {progress.concepts.map((entry) => (
          <li key={entry.concept} className="concept-row" data-testid="concept-mastery" data-level={entry.level}>
            <span className="concept-name">{entry.concept}</span>
            <MasteryMeter level={entry.level} />
          </li>
        ))}
      </ul>
    </section>
  );
}
