import type { SessionSummary } from '@tutorloop/shared';

/**
 * The end of a thought session (its summary) or a survey (the respondent's own answers):
 * SPEC §4.5 — nothing scored, no correct answers.
 */
export function ReflectionSummary({ summary, onBack }: { summary: SessionSummary; onBack(): void }) {
  return (
    <section className="completion" aria-labelledby="reflection-heading" data-testid="reflection-summary">
      {summary.thought ? (
        <>
          <h1 id="reflection-heading" tabIndex={-1}>
            {summary.thought.topic ? `Thinking about ${summary.thought.topic}` : 'Your thinking session'}
          </h1>
          <p className="muted">
            {summary.thought.learnerMessages} message{summary.thought.learnerMessages === 1 ? '' : 's'} from you.
          </p>
          <p className="thought-summary" data-testid="thought-summary">
            {summary.thought.summary}
          </p>
        </>
      ) : null}
      {summary.survey ? (
        <>
          <h1 id="reflection-heading" tabIndex={-1}>
            {summary.survey.finished ? 'Thank you!' : 'Survey ended'}
          </h1>
          <p className="muted" data-testid="survey-summary-counts">
            “{summary.survey.title}”: {summary.survey.answered} answered
            {summary.survey.skipped > 0 ? `, ${summary.survey.skipped} skipped` : ''}.
          </p>
          <dl className="survey-answers" data-testid="survey-answers">
            {summary.survey.answers.map((answer) => (
              <div key={answer.questionId}>
                <dt>{answer.prompt}</dt>
                <dd>{answer.answer ?? <span className="muted">skipped</span>}</dd>
              </div>
            ))}
          </dl>
        </>
      ) : null}
      <div className="actions">
        <button type="button" className="button primary" onClick={onBack}>
          Back to Reflect
        </button>
      </div>
    </section>
  );
}
