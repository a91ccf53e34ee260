import type { StudyPlanDetail, StudyPlanStep } from '@tutorloop/shared';
import { useEffect, useId, useState } from 'react';
import { ConfirmDialog } from '../components/confirm-dialog';
import { PlanBadges } from '../components/plan-badges';
import { useDocumentTitle } from '../hooks/use-document-title';
import { navigate } from '../hooks/use-route';
import { useStartSession } from '../hooks/use-start-session';
import { http, studyPlansStore } from '../services';
import { stepTypeLabels } from '../store/learning';

function plural(count: number, one: string, many: string) {
  return `${count} ${count === 1 ? one : many}`;
}

type Load = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; plan: StudyPlanDetail };

/**
 * One study plan: its objectives and steps, and the way into a session. Its author also sees
 * the teaching notes — content hints, expected answers, misconceptions — and may share, edit or
 * delete it; everyone else sees the questions without their answers.
 */
export default function StudyPlanPage({ studyPlanId }: { studyPlanId: string }) {
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  // `pending`: the switch shows the learner's choice at once; a refused save puts it back.
  const [sharing, setSharing] = useState<{ pending: boolean | null; error: string | null; note: string | null }>({ pending: null, error: null, note: null });
  const [deleting, setDeleting] = useState(false);
  const [deleteState, setDeleteState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const session = useStartSession();
  const sharedId = useId();
  const plan = load.status === 'ready' ? load.plan : null;
  useDocumentTitle(plan?.title ?? 'Study plan');

  useEffect(() => {
    let cancelled = false;
    setLoad({ status: 'loading' });
    void http.getStudyPlan(studyPlanId).then((result) => {
      if (cancelled) return;
      setLoad(result.ok ? { status: 'ready', plan: result.value } : { status: 'error', message: result.error.message });
    });
    return () => {
      cancelled = true;
    };
  }, [studyPlanId]);

  async function toggleShared(shared: boolean) {
    if (!plan) return;
    setSharing({ pending: shared, error: null, note: null });
    const result = await http.updateStudyPlan(plan.id, { plan: plan.plan, shared });
    if (!result.ok) {
      setSharing({ pending: null, error: result.error.message, note: null });
      return;
    }
    setLoad({ status: 'ready', plan: result.value });
    setSharing({
      pending: null,
      error: null,
      note: result.value.shared ? 'Shared: every learner on this server can use this plan.' : 'Only you can see this plan now.',
    });
  }

  async function confirmDelete() {
    setDeleteState({ busy: true, error: null });
    const message = await studyPlansStore.getState().remove(studyPlanId);
    if (message) {
      setDeleteState({ busy: false, error: message });
      setDeleting(false);
      return;
    }
    navigate({ name: 'plans' });
  }

  return (
    <div className="page">
      <p className="breadcrumb">
        <a href="#/study-plans">Study plans</a>
      </p>
      {load.status === 'loading' ? (
        <>
          <h1 tabIndex={-1}>Study plan</h1>
          <p className="muted" role="status">
            Loading…
          </p>
        </>
      ) : null}
      {load.status === 'error' ? (
        <>
          <h1 tabIndex={-1}>Study plan</h1>
          <p className="form-error" role="alert">
            {load.message}
          </p>
        </>
      ) : null}
      {plan ? (
        <article className="plan-detail" aria-labelledby="plan-title" data-testid="study-plan-detail">
          <div className="page-heading">
            <div className="plan-heading-block">
              <div className="plan-heading">
                <h1 id="plan-title" tabIndex={-1}>
                  {plan.title}
                </h1>
                <PlanBadges plan={plan} />
              </div>
              <p className="set-meta plan-meta">
                <span>{plan.topic}</span>
                <span aria-hidden="true"> · </span>
                <span>{plan.audience}</span>
                <span aria-hidden="true"> · </span>
                <span>{plural(plan.stepCount, 'step', 'steps')}</span>
              </p>
            </div>
            <div className="toolbar">
              {plan.owned ? (
                <>
                  <button type="button" className="button" onClick={() => navigate({ name: 'plan-edit', studyPlanId: plan.id })}>
                    Edit
                  </button>
                  <button type="button" className="button subtle danger-text" onClick={() => setDeleting(true)}>
                    Delete
                  </button>
                </>
              ) : null}
              <button
                type="button"
                className="button primary"
                onClick={() => void session.start({ type: 'learning', studyPlanId: plan.id })}
                disabled={session.busy}
                aria-busy={session.busy}
              >
                Start learning
              </button>
            </div>
          </div>
          {session.error || deleteState.error ? (
            <p className="form-error" role="alert">
              {session.error ?? deleteState.error}
            </p>
          ) : null}

          {plan.owned && !plan.builtIn ? (
            <div className="card share-card">
              <div className="share-row">
                <input
                  id={sharedId}
                  type="checkbox"
                  className="switch"
                  role="switch"
                  checked={sharing.pending ?? plan.shared}
                  disabled={sharing.pending !== null}
                  aria-describedby={`${sharedId}-hint`}
                  onChange={(event) => void toggleShared(event.target.checked)}
                />
                <label htmlFor={sharedId} className="field-label">
                  Share with every learner
                </label>
              </div>
              <p id={`${sharedId}-hint`} className="field-hint">
                Shared plans can be used by anyone on this server, but only you can change them.
              </p>
              <p className="save-status small" role="status" data-testid="share-status">
                {sharing.note ?? ''}
              </p>
              {sharing.error ? (
                <p className="form-error" role="alert">
                  {sharing.error}
                </p>
              ) : null}
            </div>
          ) : null}

          <div className="plan-columns">
            <section className="card section-card" aria-labelledby="objectives-heading">
              <h2 id="objectives-heading">Objectives</h2>
              <ul className="plan-list" data-testid="plan-objectives">
                {plan.plan.objectives.map((objective, index) => (
                  <li key={index}>{objective}</li>
                ))}
              </ul>
              {plan.plan.prerequisites.length > 0 ? (
                <>
                  <h3>Before you start</h3>
                  <ul className="plan-list">
                    {plan.plan.prerequisites.map((prerequisite, index) => (
                      <li key={index}>{prerequisite}</li>
                    ))}
                  </ul>
                </>
              ) : null}
              <h3>Concepts</h3>
              <ul className="tag-list" aria-label="Concepts">
                {plan.concepts.map((concept) => (
                  <li key={concept} className="tag">
                    {concept}
                  </li>
                ))}
              </ul>
            </section>
            {plan.owned ? (
              <section className="card section-card" aria-labelledby="teaching-heading">
                <h2 id="teaching-heading">Teaching notes</h2>
                <p className="field-hint">Only you see these; the tutor follows them.</p>
                <h3>Approach</h3>
                <p className="plain-text">{plan.plan.teachingApproach}</p>
                {plan.plan.misconceptions.length > 0 ? (
                  <>
                    <h3>Known misconceptions</h3>
                    <ul className="plan-list" data-testid="plan-misconceptions">
                      {plan.plan.misconceptions.map((misconception, index) => (
                        <li key={index}>
                          {misconception.concept ? <span className="muted">{misconception.concept}: </span> : null}
                          {misconception.description}
                        </li>
                      ))}
                    </ul>
                  </>
                ) : null}
                <p className="muted small">
                  {plan.plan.allowExtension ? 'Advanced learners may go on past the plan.' : 'The session ends with the plan.'}{' '}
                  {plan.plan.allowBacktrack ? 'The tutor may go back to earlier steps.' : 'The tutor never goes back a step.'}
                </p>
              </section>
            ) : null}
          </div>

          <h2 className="section-title">Steps</h2>
          <ol className="plan-steps" data-testid="plan-steps">
            {plan.plan.steps.map((step) => (
              <PlanStep key={step.number} step={step} author={plan.owned} />
            ))}
          </ol>
        </article>
      ) : null}

      {deleting && plan ? (
        <ConfirmDialog
          title={`Delete “${plan.title}”?`}
          confirmLabel="Delete plan"
          danger
          busy={deleteState.busy}
          onConfirm={() => void confirmDelete()}
          onCancel={() => setDeleting(false)}
        >
          <p>Sessions already started keep their copy of it.</p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

/** A step; the author also sees its content hint, expected answers and skill blueprint. */
function PlanStep({ step, author }: { step: StudyPlanStep; author: boolean }) {
  const headingId = `plan-step-${step.number}`;
  return (
    <li className="card plan-step" data-testid="plan-step" data-step-type={step.type} aria-labelledby={headingId}>
      <div className="plan-step-head">
        <span className="step-number" aria-hidden="true">
          {step.number}
        </span>
        <h3 id={headingId} className="plan-step-title">
          <span className="visually-hidden">Step {step.number}: </span>
          {step.concept}
        </h3>
        <span className={`step-type step-type-${step.type}`}>{stepTypeLabels[step.type]}</span>
      </div>
      {author ? <p className="plan-step-hint plain-text">{step.contentHint}</p> : null}
      {step.type === 'check' ? (
        <ol className="plan-questions">
          {step.questions.map((question, index) => (
            <li key={index} data-testid="plan-question">
              <span className="plan-question-text">{question.question}</span>
              {author ? (
                <span className="plan-answer" data-testid="plan-expected-answer">
                  <span className="muted">Expected: </span>
                  {question.expectedAnswer}
                  {question.acceptedAnswers.length > 0 ? (
                    <span className="muted"> (also {question.acceptedAnswers.join(', ')})</span>
                  ) : null}
                </span>
              ) : null}
            </li>
          ))}
        </ol>
      ) : null}
      {step.type === 'practice' ? (
        <p className="muted small plan-practice">
          {plural(step.items, 'practice problem', 'practice problems')}
          {author ? (
            <>
              {' '}
              from <code>{step.skillBlueprintId}</code>
            </>
          ) : null}
        </p>
      ) : null}
    </li>
  );
}
