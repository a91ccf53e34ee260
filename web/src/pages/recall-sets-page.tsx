import type { RecallSetSummary } from '@tutorloop/shared';
import { useState } from 'react';
import { ConfirmDialog } from '../components/confirm-dialog';
import { useDocumentTitle } from '../hooks/use-document-title';
import { useRecallSets } from '../hooks/use-recall-sets';
import { navigate } from '../hooks/use-route';
import { http, recallSetsStore } from '../services';
import { routePath } from '../store/router-store';

function plural(count: number, one: string, many: string) {
  return `${count} ${count === 1 ? one : many}`;
}

/** The learner's recall sets, with what is due, and the way into a session. */
export function RecallSetsPage() {
  const status = useRecallSets((state) => state.status);
  const recallSets = useRecallSets((state) => state.recallSets);
  const loadError = useRecallSets((state) => state.error);
  const [actionError, setActionError] = useState<string | null>(null);
  const [startingId, setStartingId] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<RecallSetSummary | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);
  useDocumentTitle('Recall sets');

  async function startSession(recallSet: RecallSetSummary) {
    setStartingId(recallSet.id);
    setActionError(null);
    const result = await http.createSession({ type: 'recall', recallSetId: recallSet.id });
    setStartingId(null);
    if (result.ok) navigate({ name: 'session', sessionId: result.value.sessionId });
    else setActionError(result.error.message);
  }

  async function confirmDelete() {
    if (!deleting) return;
    setDeleteBusy(true);
    const message = await recallSetsStore.getState().remove(deleting.id);
    setDeleteBusy(false);
    setDeleting(null);
    setActionError(message);
  }

  return (
    <div className="page">
      <div className="page-heading">
        <h1 tabIndex={-1}>Recall sets</h1>
        <div className="toolbar">
          <button type="button" className="button" onClick={() => navigate({ name: 'import' })}>
            Import
          </button>
          <button type="button" className="button" onClick={() => navigate({ name: 'set-from-document' })}>
            From a document
          </button>
          <button type="button" className="button primary" onClick={() => navigate({ name: 'set-new' })}>
            New recall set
          </button>
        </div>
      </div>

      {actionError ? (
        <p className="form-error" role="alert">
          {actionError}
        </p>
      ) : null}
      {status === 'error' ? (
        <div className="form-error" role="alert">
          <p>Could not load your recall sets: {loadError}</p>
          <button type="button" className="button" onClick={() => void recallSetsStore.getState().load()}>
            Try again
          </button>
        </div>
      ) : null}

      {status === 'loading' && recallSets.length === 0 ? <p className="muted" role="status">Loading…</p> : null}

      {status === 'ready' && recallSets.length === 0 ? (
        <div className="empty-state card">
          <h2>No recall sets yet</h2>
          <p className="muted">
            A recall set is a topic and the points you want to remember about it. Create one, or import a Markdown or
            CSV list.
          </p>
          <p>
            New here? <a href="#/welcome">Try a sample set</a> first: three points, about two minutes.
          </p>
        </div>
      ) : null}

      {recallSets.length > 0 ? (
        <ul className="set-list" aria-label="Your recall sets">
          {recallSets.map((recallSet) => (
            <li
              key={recallSet.id}
              className="card set-card"
              data-testid="recall-set"
              aria-labelledby={`set-name-${recallSet.id}`}
            >
              <div className="set-info">
                <h2 id={`set-name-${recallSet.id}`} className="set-name">
                  {/* The set's own page: its schedule and review forecast. */}
                  <a href={`#${routePath({ name: 'set-detail', recallSetId: recallSet.id })}`} className="set-link">
                    {recallSet.name}
                  </a>
                </h2>
                {recallSet.description ? <p className="set-description">{recallSet.description}</p> : null}
                {recallSet.pointCount === 0 ? (
                  // A disabled button says why (issue 18).
                  <p id={`set-no-points-${recallSet.id}`} className="disabled-reason" data-testid="start-disabled-reason">
                    No points yet: add one with Edit to start a session.
                  </p>
                ) : null}
                <p className="set-meta">
                  <span data-testid="point-count">{plural(recallSet.pointCount, 'point', 'points')}</span>
                  <span aria-hidden="true"> · </span>
                  <span data-testid="due-count" className={recallSet.dueCount > 0 ? 'due' : undefined}>
                    {recallSet.dueCount} due
                  </span>
                  <span aria-hidden="true"> · </span>
                  <a href={`#${routePath({ name: 'set-detail', recallSetId: recallSet.id })}`} className="meta-link">
                    Schedule
                  </a>
                </p>
              </div>
              <div className="set-actions">
                <button
                  type="button"
                  className="button primary"
                  onClick={() => void startSession(recallSet)}
                  disabled={startingId !== null || recallSet.pointCount === 0}
                  aria-busy={startingId === recallSet.id}
                  aria-describedby={recallSet.pointCount === 0 ? `set-no-points-${recallSet.id}` : undefined}
                >
                  Start session
                </button>
                <button
                  type="button"
                  className="button"
                  onClick={() => navigate({ name: 'set-edit', recallSetId: recallSet.id })}
                >
                  Edit
                </button>
                <button type="button" className="button subtle danger-text" onClick={() => setDeleting(recallSet)}>
                  Delete
                </button>
              </div>
            </li>
          ))}
        </ul>
      ) : null}

      {deleting ? (
        <ConfirmDialog
          title={`Delete “${deleting.name}”?`}
          confirmLabel="Delete set"
          danger
          busy={deleteBusy}
          onConfirm={() => void confirmDelete()}
          onCancel={() => setDeleting(null)}
        >
          <p>Its {plural(deleting.pointCount, 'point', 'points')} and their review history will be removed.</p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
