import type { LearningSummary } from '@tutorloop/shared';
import { stepTypeLabels } from '../../store/learning';
import { MasteryMeter } from '../../components/mastery-meter';

const trendLabels: Record<LearningSummary['trend'], string> = {
  improving: 'Improving',
  steady: 'Steady',
  declining: 'Slipping',
};

function plural(count: number, one: string, many: string) {
  return `${count} ${count === 1 ? one : many}`;
}

/**
 * The learning part of a session's summary (SPEC §4.4): the steps covered, each concept's
 * mastery level, the questions answered right, and the misconceptions met and resolved.
 */
export function LearningSummaryView({ learning }: { learning: LearningSummary }) {
  const { questions, misconceptions } = learning;
  return (
    <div className="learning-summary">
      <dl className="summary-stats">
        <div>
          <dt>Questions</dt>
          <dd data-testid="learning-questions">
            {questions.asked === 0 ? 'None asked' : `${questions.answeredRight} of ${questions.asked} answered right`}
            {questions.asked > 0 && questions.rightFirstTry !== undefined ? (
              <span className="muted small summary-question-breakdown" data-testid="learning-questions-breakdown">
                {[
                  `${questions.rightFirstTry} at the first try`,
                  questions.rightAfterHelp ? `${questions.rightAfterHelp} after a hint` : null,
                  questions.explained ? `${questions.explained} explained` : null,
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </span>
            ) : null}
          </dd>
        </div>
        <div>
          <dt>Misconceptions</dt>
          <dd data-testid="learning-misconceptions">
            {misconceptions.met === 0 ? 'None came up' : `${misconceptions.met} met · ${misconceptions.resolved} resolved`}
          </dd>
        </div>
        <div>
          <dt>Progress</dt>
          <dd data-testid="learning-trend">{trendLabels[learning.trend]}</dd>
        </div>
      </dl>
      {misconceptions.concepts.length > 0 ? (
        <p className="muted small">Misconceptions came up about {misconceptions.concepts.join(', ')}.</p>
      ) : null}

      <div className="summary-columns">
        <section aria-labelledby="summary-steps-heading">
          <h2 id="summary-steps-heading">Steps</h2>
          <ol className="summary-steps" data-testid="summary-steps">
            {learning.steps.map((step) => (
              <li
                key={step.number}
                className={step.covered ? 'summary-step covered' : 'summary-step missed'}
                data-testid="summary-step"
                data-covered={step.covered ? 'true' : 'false'}
              >
                <span className="point-status">
                  <span aria-hidden="true">{step.covered ? '✓' : '○'}</span> {step.covered ? 'Covered' : 'Not reached'}
                </span>
                <span className="summary-step-concept">
                  {step.number}. {step.concept}
                </span>
                <span className={`step-type step-type-${step.type}`}>{stepTypeLabels[step.type]}</span>
              </li>
            ))}
          </ol>
        </section>
        <section aria-labelledby="summary-concepts-heading">
          <h2 id="summary-concepts-heading">Concepts</h2>
          <ul className="concept-list summary-concepts" data-testid="summary-concepts">
            {learning.concepts.map((entry) => (
              <li key={entry.concept} className="concept-row" data-testid="summary-concept" data-level={entry.level}>
                <span className="concept-name">{entry.concept}</span>
                <MasteryMeter level={entry.level} />
              </li>
            ))}
          </ul>
        </section>
      </div>
      <p className="muted small">{plural(learning.concepts.length, 'concept', 'concepts')} in this plan. Levels grow as you answer and practise.</p>
    </div>
  );
}
