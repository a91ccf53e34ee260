import type { SurveySummary } from '@tutorloop/shared';
import { thoughtTopicMaxLength } from '@tutorloop/shared';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useDocumentTitle } from '../hooks/use-document-title';
import { useStartSession } from '../hooks/use-start-session';
import { http } from '../services';

type SurveysState = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; surveys: SurveySummary[] };

/**
 * Sessions with nothing graded (SPEC §4.5): "Think it through" — a thought session with a
 * Socratic partner, on an optional topic — and the surveys the learner can take.
 */
export default function ReflectPage() {
  useDocumentTitle('Reflect');
  const [surveys, setSurveys] = useState<SurveysState>({ status: 'loading' });
  const [topic, setTopic] = useState('');
  const [startingId, setStartingId] = useState<string | null>(null);
  const session = useStartSession();
  const topicId = useId();

  useEffect(() => {
    let live = true;
    void http.listSurveys().then((result) => {
      if (!live) return;
      setSurveys(result.ok ? { status: 'ready', surveys: result.value.surveys } : { status: 'error', message: result.error.message });
    });
    return () => {
      live = false;
    };
  }, []);

  function think(event: FormEvent) {
    event.preventDefault();
    const trimmed = topic.trim();
    setStartingId('thought');
    void session.start({ type: 'thought', ...(trimmed ? { topic: trimmed } : {}) }).finally(() => setStartingId(null));
  }

  function takeSurvey(survey: SurveySummary) {
    setStartingId(survey.id);
    void session.start({ type: 'survey', surveyId: survey.id }).finally(() => setStartingId(null));
  }

  return (
    <div className="page reflect-page">
      <div className="page-heading">
        <h1 tabIndex={-1}>Reflect</h1>
      </div>
      {session.error ? (
        <p className="form-error" role="alert" data-testid="reflect-start-error">
          {session.error}
        </p>
      ) : null}

      <section className="card" aria-labelledby="think-heading" data-testid="think-it-through">
        <h2 id="think-heading">Think it through</h2>
        <p className="muted">
          Bring a question or an idea; a thinking partner asks questions and you steer. Nothing is graded. End it whenever you
          like and you get a summary of where your thinking went.
        </p>
        <form className="reflect-form" onSubmit={think}>
          <div className="field">
            <label htmlFor={topicId}>Topic (optional)</label>
            <input
              id={topicId}
              className="input"
              type="text"
              value={topic}
              maxLength={thoughtTopicMaxLength}
              placeholder="e.g. why habits stick"
              onChange={(event) => setTopic(event.target.value)}
            />
          </div>
          <button type="submit" className="button primary" disabled={session.busy}>
            {startingId === 'thought' ? 'Starting…' : 'Start thinking'}
          </button>
        </form>
      </section>

      <section aria-labelledby="surveys-heading">
        <h2 id="surveys-heading">Surveys</h2>
        <p className="muted">Short questionnaires: there are no right answers, and nothing is scored.</p>
        {surveys.status === 'loading' ? <p className="muted">Loading surveys…</p> : null}
        {surveys.status === 'error' ? (
          <p className="form-error" role="alert">
            {surveys.message}
          </p>
        ) : null}
        {surveys.status === 'ready' && surveys.surveys.length === 0 ? <p className="muted">No surveys yet.</p> : null}
        {surveys.status === 'ready' && surveys.surveys.length > 0 ? (
          <ul className="survey-list" data-testid="survey-list">
            {surveys.surveys.map((survey) => (
              <li key={survey.id} className="card" data-testid={`survey-${survey.id}`}>
                <h3>{survey.title}</h3>
                {survey.description ? <p className="muted">{survey.description}</p> : null}
                <p className="muted small">
                  Up to {survey.questionCount} question{survey.questionCount === 1 ? '' : 's'}
                  {survey.builtIn ? ' · built in' : survey.owned ? ' · yours' : ' · shared'}
                </p>
                <button type="button" className="button primary" disabled={session.busy} onClick={() => takeSurvey(survey)} aria-label={`Start ${survey.title}`}>
                  {startingId === survey.id ? 'Starting…' : 'Start'}
                </button>
              </li>
            ))}
          </ul>
        ) : null}
      </section>
    </div>
  );
}
