import type { SessionListItem, StudyPlanSummary } from '@tutorloop/shared';
import { useState } from 'react';
import { ConfirmDialog } from '../components/confirm-dialog';
import { PlanBadges } from '../components/plan-badges';
import { useDocumentTitle } from '../hooks/use-document-title';
import { navigate } from '../hooks/use-route';
import { useStartSession } from '../hooks/use-start-session';
import { useStudyPlans } from '../hooks/use-study-plans';
import { studyPlansStore } from '../services';
import { learningSessionLabel } from '../store/learning';
import { routePath } from '../store/router-store';

function plural(count: number, one: string, many: string) {
  return `${count} ${count === 1 ? one : many}`;
}

function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** The study plans a learner can follow (their own, shared and built-in ones), and their learning sessions. */
export default function StudyPlansPage() {
  const status = useStudyPlans((state) => state.status);
  const studyPlans = useStudyPlans((state) => state.studyPlans);
  const sessions = useStudyPlans((state) => state.sessions);
  const loadError = useStudyPlans((state) => state.error);
  const session = useStartSession();
  const [startingId, setStartingId] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<StudyPlanSummary | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  useDocumentTitle('Study plans');

  function start(plan: StudyPlanSummary) {
    setStartingId(plan.id);
    setActionError(null);
    void session.start({ type: 'learning', studyPlanId: plan.id }).finally(() => setStartingId(null));
  }

  async function confirmDelete() {
    if (!deleting) return;
    setDeleteBusy(true);
    const message = await studyPlansStore.getState().remove(deleting.id);
    setDeleteBusy(false);
    setDeleting(null);
    setActionError(message);
  }

  const error = actionError ?? session.error;

  return (
    <div className="page">
      <div className="page-heading">
        <h1 tabIndex={-1}>Study plans</h1>
        <div className="toolbar">
          <button type="button" className="button" onClick={() => navigate({ name: 'plan-import' })}>
            Import
          </button>
          <button type="button" className="button primary" onClick={() => navigate({ name: 'plan-new' })}>
            New study plan
          </button>
        </div>
      </div>
      <p className="muted lead">
        A study plan teaches a topic step by step: the tutor explains, checks your understanding with questions, and
        gives you practice problems, following your progress concept by concept.
      </p>

      {error ? (
        <p className="form-error" role="alert" data-testid="study-plan-error">
          {error}
        </p>
      ) : null}
      {status === 'error' ? (
        <div className="form-error" role="alert">
          <p>Could not load the study plans: {loadError}</p>
          <button type="button" className="button" onClick={() => void studyPlansStore.getState().load()}>
            Try again
          </button>
        </div>
      ) : null}
      {status === 'loading' && studyPlans.length === 0 ? (
        <p className="muted" role="status">
          Loading…
        </p>
      ) : null}
      {status === 'ready' && studyPlans.length === 0 ? (
        <div className="empty-state card" data-testid="study-plans-empty">
          <h2>No study plans yet</h2>
          <p className="muted">Write one, or import a plan as JSON or Markdown.</p>
        </div>
      ) : null}

      {studyPlans.length > 0 ? (
        <ul className="set-list" aria-label="Study plans" data-testid="study-plan-list">
          {studyPlans.map((plan) => (
            <PlanCard
              key={plan.id}
              plan={plan}
              starting={startingId === plan.id}
              disabled={session.busy}
              onStart={() => start(plan)}
              onDelete={() => setDeleting(plan)}
            />
          ))}
        </ul>
      ) : null}

      {sessions.length > 0 ? <LearningSessions sessions={sessions} /> : null}

      {deleting ? (
        <ConfirmDialog
          title={`Delete “${deleting.title}”?`}
          confirmLabel="Delete plan"
          danger
          busy={deleteBusy}
          onConfirm={() => void confirmDelete()}
          onCancel={() => setDeleting(null)}
        >
          <p>
            The plan and its {plural(deleting.stepCount, 'step', 'steps')} will be removed. Sessions already started keep
            their copy of it.
          </p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

function PlanCard({
  plan,
  starting,
  disabled,
  onStart,
  onDelete,
}: {
  plan: StudyPlanSummary;
  starting: boolean;
  disabled: boolean;
  onStart(): void;
  onDelete(): void;
}) {
  const headingId = `plan-title-${plan.id}`;
  const detailHref = `#${routePath({ name: 'plan-detail', studyPlanId: plan.id })}`;
  return (
    <li className="card set-card plan-card" data-testid="study-plan" data-plan-id={plan.id} aria-labelledby={headingId}>
      <div className="set-info">
        <div className="plan-card-head">
          <h2 id={headingId} className="set-name">
            <a href={detailHref} className="set-link">
              {plan.title}
            </a>
          </h2>
          <PlanBadges plan={plan} />
        </div>
        <p className="set-description">{plan.topic}</p>
        <p className="set-meta">
          <span>{plan.audience}</span>
          <span aria-hidden="true"> · </span>
          <span data-testid="plan-step-count">{plural(plan.stepCount, 'step', 'steps')}</span>
          <span aria-hidden="true"> · </span>
          <span>{plural(plan.concepts.length, 'concept', 'concepts')}</span>
          <span aria-hidden="true"> · </span>
          <a href={detailHref} className="meta-link" aria-label={`Steps and objectives of ${plan.title}`}>
            Steps
          </a>
        </p>
      </div>
      <div className="set-actions">
        <button type="button" className="button primary" onClick={onStart} disabled={disabled} aria-busy={starting}>
          Start learning
        </button>
        {plan.owned ? (
          <>
            <button type="button" className="button" onClick={() => navigate({ name: 'plan-edit', studyPlanId: plan.id })}>
              Edit
            </button>
            <button type="button" className="button subtle danger-text" onClick={onDelete}>
              Delete
            </button>
          </>
        ) : null}
      </div>
    </li>
  );
}

function LearningSessions({ sessions }: { sessions: SessionListItem[] }) {
  return (
    <section className="past-sessions" aria-labelledby="learning-sessions-heading">
      <h2 id="learning-sessions-heading">Your learning sessions</h2>
      <ul className="past-list">
        {sessions.map((session) => {
          const finished = session.status === 'completed' || session.status === 'abandoned';
          const ratio = session.totalPoints > 0 ? session.recalledCount / session.totalPoints : 0;
          return (
            <li key={session.id} className="past-row" data-testid="learning-session" data-status={session.status}>
              <div className="past-info">
                <span className="past-title">{session.title}</span>
                <span className="muted small past-progress">
                  <span className="progress-bar" aria-hidden="true">
                    <span style={{ width: `${Math.round(ratio * 100)}%` }} />
                  </span>
                  <span data-testid="learning-session-progress">{learningSessionLabel(session)}</span>
                  <span aria-hidden="true"> · </span>
                  <span>{formatDate(session.createdAt)}</span>
                </span>
              </div>
              <button
                type="button"
                className="button"
                onClick={() => navigate({ name: 'session', sessionId: session.id })}
                aria-label={`${finished ? 'View summary' : 'Resume'}: ${session.title}, ${formatDate(session.createdAt)}`}
              >
                {finished ? 'View summary' : 'Resume'}
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
