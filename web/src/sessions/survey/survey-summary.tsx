import { ReflectionShell } from '../reflection-shell';
import type { CompletionProps } from '../session-type';

/** The end of a survey: the respondent's own answers (SPEC §4.5) — no correct answers. */
export function SurveySummary({ summary, onBack }: CompletionProps) {
  const survey = summary.survey;
  return (
    <ReflectionShell onBack={onBack}>
      <h1 id="reflection-heading" tabIndex={-1}>
        {survey?.finished ? 'Thank you!' : 'Survey ended'}
      </h1>
      {survey ? (
        <>
          <p className="muted" data-testid="survey-summary-counts">
            “{survey.title}”: {survey.answered} answered
            {survey.skipped > 0 ? `, ${survey.skipped} skipped` : ''}.
          </p>
          <dl className="survey-answers" data-testid="survey-answers">
            {survey.answers.map((answer) => (
              <div key={answer.questionId}>
                <dt>{answer.prompt}</dt>
                <dd>{answer.answer ?? <span className="muted">skipped</span>}</dd>
              </div>
            ))}
          </dl>
        </>
      ) : null}
    </ReflectionShell>
  );
}
