import { useMemo } from 'react';
import { ForecastPanel } from '../components/forecast-panel';
import { ScheduleTable } from '../components/schedule-table';
import { useDocumentTitle } from '../hooks/use-document-title';
import { useNow } from '../hooks/use-now';
import { useRecallSetSchedule } from '../hooks/use-recall-set-schedule';
import { navigate } from '../hooks/use-route';
import { useStartSession } from '../hooks/use-start-session';
import { recallSetScheduleStore } from '../services';
import { scheduleRows } from '../store/schedule';

function plural(count: number, one: string, many: string) {
  return `${count} ${count === 1 ? one : many}`;
}

/** One recall set: when each point is due, the 30-day forecast, and the way into a session. */
export function RecallSetPage({ recallSetId }: { recallSetId: string }) {
  const status = useRecallSetSchedule(recallSetId, (state) => state.status);
  const recallSet = useRecallSetSchedule(recallSetId, (state) =>
    state.recallSetId === recallSetId ? state.recallSet : null,
  );
  const cards = useRecallSetSchedule(recallSetId, (state) => state.cards);
  const error = useRecallSetSchedule(recallSetId, (state) => state.error);
  // Relative due times ("in 5 minutes") stay right while the page is open.
  const now = useNow(60_000);
  const session = useStartSession();
  useDocumentTitle(recallSet?.name ?? 'Recall set');

  const minuteKey = Math.floor(now.getTime() / 60_000);
  const rows = useMemo(
    () => (recallSet ? scheduleRows(recallSet.points, cards, new Date(minuteKey * 60_000)) : []),
    [recallSet, cards, minuteKey],
  );
  const dueNow = rows.filter((row) => new Date(row.due).getTime() <= now.getTime()).length;
  const newCount = rows.filter((row) => row.state === 'new').length;

  return (
    <div className="page">
      <p className="breadcrumb">
        <a href="#/sets">Recall sets</a>
      </p>
      <div className="page-heading">
        <h1 tabIndex={-1}>{recallSet?.name ?? 'Recall set'}</h1>
        {recallSet ? (
          <div className="toolbar">
            <button
              type="button"
              className="button"
              onClick={() => navigate({ name: 'set-edit', recallSetId })}
            >
              Edit
            </button>
            <button
              type="button"
              className="button primary"
              onClick={() => void session.start({ type: 'recall', recallSetId })}
              disabled={session.busy || recallSet.points.length === 0}
              aria-busy={session.busy}
            >
              Start session
            </button>
          </div>
        ) : null}
      </div>

      {recallSet?.description ? <p className="set-description">{recallSet.description}</p> : null}
      {recallSet ? (
        <p className="set-meta" data-testid="set-summary">
          <span data-testid="point-count">{plural(rows.length, 'point', 'points')}</span>
          <span aria-hidden="true"> · </span>
          <span data-testid="due-count" className={dueNow > 0 ? 'due' : undefined}>
            {dueNow} due
          </span>
          <span aria-hidden="true"> · </span>
          <span data-testid="new-count">{newCount} new</span>
        </p>
      ) : null}

      {session.error ? (
        <p className="form-error" role="alert">
          {session.error}
        </p>
      ) : null}
      {status === 'error' ? (
        <div className="form-error" role="alert" data-testid="schedule-error">
          <p>Could not load this recall set: {error}</p>
          <button type="button" className="button" onClick={() => void recallSetScheduleStore.getState().load(recallSetId)}>
            Try again
          </button>
        </div>
      ) : null}
      {status === 'loading' && !recallSet ? (
        <p className="muted" role="status">
          Loading…
        </p>
      ) : null}

      {recallSet && status !== 'error' ? (
        rows.length === 0 ? (
          <div className="empty-state card">
            <h2>No points yet</h2>
            <p className="muted">Add points to this set to see when each one is due.</p>
          </div>
        ) : (
          <>
            <section className="card section-card" aria-labelledby="forecast-heading">
              <h2 id="forecast-heading">Review forecast</h2>
              <ForecastPanel cards={rows} now={now} />
            </section>
            <section className="card section-card" aria-labelledby="schedule-heading">
              <h2 id="schedule-heading">Schedule</h2>
              <p className="field-hint">
                Stability is how many days a memory lasts before recall drops to 90%; difficulty runs from 1 (easy)
                to 10 (hard).
              </p>
              <ScheduleTable rows={rows} now={now} labelledBy="schedule-heading" />
            </section>
          </>
        )
      ) : null}
    </div>
  );
}
