import type { BlueprintSummary, CreateRecallSetBody, StudyPlanSummary } from '@tutorloop/shared';
import { useState } from 'react';
import { ProviderExplanation } from '../components/provider-explanation';
import { useAssessments } from '../hooks/use-assessments';
import { useAuth } from '../hooks/use-auth';
import { useDocumentTitle } from '../hooks/use-document-title';
import { useHealth } from '../hooks/use-health';
import { navigate } from '../hooks/use-route';
import { useStartSession } from '../hooks/use-start-session';
import { useStudyPlans } from '../hooks/use-study-plans';
import { http, recallSetsStore } from '../services';

/**
 * The sample set: a real set of the learner's own (created through `POST /api/recall-sets`,
 * so it is reviewed and scheduled like any other), about how the review itself works.
 */
export const sampleSet = {
  name: 'Sample: how memory works',
  description: 'Three points about why tutorloop asks you questions instead of showing you notes.',
  points: [
    {
      content: 'Recalling something from memory strengthens it more than reading it again',
      context: 'The testing effect, or retrieval practice',
    },
    {
      content: 'Reviews spread out over days keep a memory longer than the same reviews crammed together',
      context: 'The spacing effect',
    },
    {
      content: 'Without review most new facts are forgotten within a few days',
      context: 'The forgetting curve',
    },
  ],
} as const satisfies CreateRecallSetBody;

function plural(count: number, one: string, many: string) {
  return `${count} ${count === 1 ? one : many}`;
}

/**
 * First run (issue 18): what tutorloop does in two sentences, a sample set to try at once,
 * the shipped assessments and study plans, the ways to make your own, and who is tutoring.
 * Home shows it to a learner with no set and no session yet (pages/home-page.tsx); it is also
 * `#/welcome`, which the empty recall sets list and the dashboard link to.
 */
export function WelcomePage() {
  const username = useAuth((state) => state.learner?.username ?? null);
  const tutor = useHealth((state) => state.tutor);
  const blueprints = useAssessments((state) => state.blueprints);
  const assessmentsStatus = useAssessments((state) => state.status);
  const plans = useStudyPlans((state) => state.studyPlans);
  const plansStatus = useStudyPlans((state) => state.status);
  const [sample, setSample] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const session = useStartSession();
  const [startingId, setStartingId] = useState<string | null>(null);
  useDocumentTitle('Welcome');
  const builtInPlans = plans.filter((plan) => plan.builtIn);

  async function trySample() {
    setSample({ busy: true, error: null });
    // A second click reuses the sample made by the first instead of making another.
    const existing = await http.listRecallSets();
    const found = existing.ok ? existing.value.recallSets.find((set) => set.name === sampleSet.name && set.pointCount > 0) : undefined;
    let recallSetId = found?.id ?? null;
    if (!recallSetId) {
      const created = await http.createRecallSet({
        ...sampleSet,
        points: sampleSet.points.map((point) => ({ ...point })),
      });
      if (!created.ok) {
        setSample({ busy: false, error: `The sample set could not be made: ${created.error.message}` });
        return;
      }
      recallSetId = created.value.id;
      void recallSetsStore.getState().load();
    }
    const started = await http.createSession({ type: 'recall', recallSetId });
    if (!started.ok) {
      setSample({ busy: false, error: `The review could not start: ${started.error.message}` });
      return;
    }
    setSample({ busy: false, error: null });
    navigate({ name: 'session', sessionId: started.value.sessionId });
  }

  function startAssessment(blueprint: BlueprintSummary) {
    setStartingId(blueprint.id);
    void session.start({ type: 'assessment', blueprintId: blueprint.id }).finally(() => setStartingId(null));
  }

  function startPlan(plan: StudyPlanSummary) {
    setStartingId(plan.id);
    void session.start({ type: 'learning', studyPlanId: plan.id }).finally(() => setStartingId(null));
  }

  return (
    <div className="page welcome-page">
      <h1 tabIndex={-1}>Welcome to tutorloop{username ? `, ${username}` : ''}</h1>
      <p className="welcome-lead" data-testid="welcome-lead">
        tutorloop is a tutor that asks you about the things you want to remember, in conversation, until you have
        recalled each one in your own words. It then schedules every point’s next review for just before you would
        forget it, so a few minutes a day keep what you learned.
      </p>

      <section className="card welcome-sample" aria-labelledby="welcome-sample-title">
        <h2 id="welcome-sample-title">Start with a sample</h2>
        <p>
          Three short points about how memory works. The tutor asks about them one at a time: answer in your own words,
          and ask for a hint when you are stuck. It takes about two minutes.
        </p>
        {sample.error ? (
          <p className="form-error" role="alert" data-testid="sample-error">
            {sample.error}
          </p>
        ) : null}
        <button type="button" className="button primary" onClick={() => void trySample()} disabled={sample.busy} aria-busy={sample.busy}>
          Try a sample set
        </button>
      </section>

      {session.error ? (
        <p className="form-error" role="alert">
          {session.error}
        </p>
      ) : null}

      <div className="welcome-grid">
        <section className="card" aria-labelledby="welcome-plans-title" data-testid="welcome-plans">
          <h2 id="welcome-plans-title">Learn something new</h2>
          <p className="muted small">Study plans that ship with tutorloop: the tutor teaches step by step and checks as it goes.</p>
          {plansStatus === 'loading' && builtInPlans.length === 0 ? <p className="muted" role="status">Loading…</p> : null}
          <ul className="welcome-list">
            {builtInPlans.map((plan) => (
              <li key={plan.id} aria-labelledby={`welcome-plan-${plan.id}`}>
                <div>
                  <h3 id={`welcome-plan-${plan.id}`} className="welcome-item-title">
                    {plan.title}
                  </h3>
                  <p className="muted small">{plural(plan.stepCount, 'step', 'steps')}</p>
                </div>
                <button
                  type="button"
                  className="button"
                  onClick={() => startPlan(plan)}
                  disabled={startingId !== null}
                  aria-busy={startingId === plan.id}
                  aria-label={`Start learning ${plan.title}`}
                >
                  Start learning
                </button>
              </li>
            ))}
          </ul>
        </section>

        <section className="card" aria-labelledby="welcome-assessments-title" data-testid="welcome-assessments">
          <h2 id="welcome-assessments-title">Test what you know</h2>
          <p className="muted small">Timed assessments with fresh items each time; results per skill at the end.</p>
          {assessmentsStatus === 'loading' && blueprints.length === 0 ? <p className="muted" role="status">Loading…</p> : null}
          {assessmentsStatus === 'unavailable' ? <p className="muted small">This server offers no assessments.</p> : null}
          <ul className="welcome-list">
            {blueprints.map((blueprint) => (
              <li key={blueprint.id} aria-labelledby={`welcome-blueprint-${blueprint.id}`}>
                <div>
                  <h3 id={`welcome-blueprint-${blueprint.id}`} className="welcome-item-title">
                    {blueprint.title}
                  </h3>
                  <p className="muted small">
                    {plural(blueprint.totalItems, 'item', 'items')} · {Math.round(blueprint.timeLimitSeconds / 60)} minutes
                  </p>
                </div>
                <button
                  type="button"
                  className="button"
                  onClick={() => startAssessment(blueprint)}
                  disabled={startingId !== null}
                  aria-busy={startingId === blueprint.id}
                  aria-label={`Start assessment ${blueprint.title}`}
                >
                  Start
                </button>
              </li>
            ))}
          </ul>
        </section>
      </div>

      <section className="card welcome-create" aria-labelledby="welcome-create-title">
        <h2 id="welcome-create-title">Create your own</h2>
        <p className="muted small">
          A recall set is a topic and the points you want to keep; a study plan is a lesson the tutor follows.
        </p>
        <div className="toolbar">
          <button type="button" className="button primary" onClick={() => navigate({ name: 'set-new' })}>
            Create your own set
          </button>
          <button type="button" className="button" onClick={() => navigate({ name: 'import' })}>
            Import a list
          </button>
          <button type="button" className="button" onClick={() => navigate({ name: 'plan-new' })}>
            Write a study plan
          </button>
        </div>
      </section>

      {tutor ? (
        <section className="card welcome-tutor" aria-label="Who is tutoring">
          <ProviderExplanation tutor={tutor} />
        </section>
      ) : null}

      <p className="welcome-skip">
        <a href="#/sets">Go to your recall sets</a>
      </p>
    </div>
  );
}
