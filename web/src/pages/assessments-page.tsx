import type { BlueprintSummary, SessionListItem } from '@tutorloop/shared';
import { useState } from 'react';
import { useAssessments } from '../hooks/use-assessments';
import { useDocumentTitle } from '../hooks/use-document-title';
import { navigate } from '../hooks/use-route';
import { useStartSession } from '../hooks/use-start-session';
import { assessmentsStore } from '../services';
import { formatTimeLimit, splitDomain } from '../store/assessment';

const selectionNotes: Record<BlueprintSummary['selection'], string> = {
  fixed: 'Fixed items',
  random_from_pool: 'Random items',
  adaptive: 'Adaptive',
};

const kindNames: Record<BlueprintSummary['itemKinds'][number], string> = {
  multiple_choice: 'multiple choice',
  code: 'code',
};

function plural(count: number, one: string, many: string) {
  return `${count} ${count === 1 ? one : many}`;
}

function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** The assessments a learner can take, and the ones they took. */
export function AssessmentsPage() {
  const status = useAssessments((state) => state.status);
  const blueprints = useAssessments((state) => state.blueprints);
  const pastSessions = useAssessments((state) => state.pastSessions);
  const error = useAssessments((state) => state.error);
  const session = useStartSession();
  const [startingId, setStartingId] = useState<string | null>(null);
  useDocumentTitle('Assessments');

  function start(blueprint: BlueprintSummary) {
    setStartingId(blueprint.id);
    void session.start({ type: 'assessment', blueprintId: blueprint.id }).finally(() => setStartingId(null));
  }

  return (
    <div className="page">
      <div className="page-heading">
        <h1 tabIndex={-1}>Assessments</h1>
      </div>
      <p className="muted lead">
        A timed set of questions across a few skills. There are no hints and no feedback until the end; then you see
        your score, each skill, and every item with its correct answer.
      </p>

      {session.error ? (
        <p className="form-error" role="alert" data-testid="assessment-start-error">
          {session.error}
        </p>
      ) : null}
      {status === 'error' ? (
        <div className="form-error" role="alert">
          <p>Could not load the assessments: {error}</p>
          <button type="button" className="button" onClick={() => void assessmentsStore.getState().load()}>
            Try again
          </button>
        </div>
      ) : null}
      {status === 'loading' && blueprints.length === 0 ? (
        <p className="muted" role="status">
          Loading…
        </p>
      ) : null}
      {status === 'unavailable' || (status === 'ready' && blueprints.length === 0) ? (
        <div className="empty-state card" data-testid="assessments-empty">
          <h2>No assessments available</h2>
          <p className="muted">This server does not offer any assessments yet.</p>
        </div>
      ) : null}

      {blueprints.length > 0 ? (
        <ul className="set-list" aria-label="Available assessments" data-testid="assessment-list">
          {blueprints.map((blueprint) => (
            <BlueprintCard
              key={blueprint.id}
              blueprint={blueprint}
              starting={startingId === blueprint.id}
              disabled={session.busy}
              onStart={() => start(blueprint)}
            />
          ))}
        </ul>
      ) : null}

      {pastSessions.length > 0 ? <PastAssessments sessions={pastSessions} /> : null}
    </div>
  );
}

function BlueprintCard({
  blueprint,
  starting,
  disabled,
  onStart,
}: {
  blueprint: BlueprintSummary;
  starting: boolean;
  disabled: boolean;
  onStart(): void;
}) {
  const headingId = `blueprint-${blueprint.id}`;
  return (
    <li className="card blueprint-card" data-testid="assessment" data-blueprint-id={blueprint.id} aria-labelledby={headingId}>
      <div className="set-info">
        <h2 id={headingId} className="set-name">
          {blueprint.title}
        </h2>
        {blueprint.description ? <p className="set-description">{blueprint.description}</p> : null}
        <p className="set-meta">
          <span data-testid="assessment-item-count">{plural(blueprint.totalItems, 'item', 'items')}</span>
          <span aria-hidden="true"> · </span>
          <span data-testid="assessment-time-limit">{formatTimeLimit(blueprint.timeLimitSeconds)}</span>
          <span aria-hidden="true"> · </span>
          <span>{selectionNotes[blueprint.selection]}</span>
          {blueprint.itemKinds.length > 0 ? (
            <>
              <span aria-hidden="true"> · </span>
              <span>{blueprint.itemKinds.map((kind) => kindNames[kind]).join(' and ')}</span>
            </>
          ) : null}
        </p>
        {blueprint.domains.length > 0 ? (
          <ul className="tag-list" aria-label="Domains" data-testid="assessment-domains">
            {blueprint.domains.map((domain) => {
              const { label, context } = splitDomain(domain);
              return (
                <li key={domain} className="tag" title={context ? domain : undefined}>
                  {label}
                </li>
              );
            })}
          </ul>
        ) : null}
      </div>
      <div className="set-actions">
        <button type="button" className="button primary" onClick={onStart} disabled={disabled} aria-busy={starting}>
          Start assessment
        </button>
      </div>
    </li>
  );
}

function sessionStatusLabel(session: SessionListItem): string {
  if (session.status === 'completed') return 'Completed';
  if (session.status === 'abandoned') return 'Ended early';
  return 'In progress';
}

function PastAssessments({ sessions }: { sessions: SessionListItem[] }) {
  return (
    <section className="past-sessions" aria-labelledby="past-assessments-heading">
      <h2 id="past-assessments-heading">Your assessments</h2>
      <ul className="past-list">
        {sessions.map((session) => {
          const finished = session.status === 'completed' || session.status === 'abandoned';
          return (
            <li key={session.id} className="past-row" data-testid="past-assessment" data-status={session.status}>
              <div className="past-info">
                <span className="past-title">{session.title}</span>
                <span className="muted small">
                  {formatDate(session.createdAt)} · {sessionStatusLabel(session)}
                  {session.totalPoints > 0 ? ` · ${session.recalledCount} of ${session.totalPoints} answered` : ''}
                </span>
              </div>
              <button
                type="button"
                className="button"
                onClick={() => navigate({ name: 'session', sessionId: session.id })}
                aria-label={`${finished ? 'View results' : 'Resume'}: ${session.title}, ${formatDate(session.createdAt)}`}
              >
                {finished ? 'View results' : 'Resume'}
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
