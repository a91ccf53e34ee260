import { useEffect, useMemo } from 'react';
import { ExportSetButtons } from '../components/export-set-menu';
import { ForecastPanel } from '../components/forecast-panel';
import { ScheduleTable } from '../components/schedule-table';
import { useDocumentTitle } from '../hooks/use-document-title';
import { useNow } from '../hooks/use-now';
import { useRecallSetSchedule } from '../hooks/use-recall-set-schedule';
import { navigate } from '../hooks/use-route';
import { useStartSession } from '../hooks/use-start-session';
import { recallSetScheduleStore } from '../services';
import { setActions } from '../sessions/entry-parts';
import { scheduleRows, statusCounts } from '../store/schedule';

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
  const desiredRetention = useRecallSetSchedule(recallSetId, (state) => state.desiredRetention);
  // Relative due times ("in 5 minutes") stay right while the page is open.
  const now = useNow(60_000);
  const session = useStartSession();
  useDocumentTitle(recallSet?.name ?? 'Recall set');

  const minuteKey = Math.floor(now.getTime() / 60_000);
  const rows = useMemo(
    () => (recallSet ? scheduleRows(recallSet.points, cards, new Date(minuteKey * 60_000)) : []),
    [recallSet, cards, minuteKey],
  );
  // The server's statuses are the one definition of due and new (as on the sets list).
  const { due: dueNow, new: newCount } = statusCounts(rows);
  // A point that falls due while the page is open: ask the server again rather than guess.
  const fellDue = rows.some((row) => row.status === 'scheduled' && new Date(row.due).getTime() <= minuteKey * 60_000);
  useEffect(() => {
    if (fellDue) void recallSetScheduleStore.getState().load(recallSetId);
  }, [fellDue, recallSetId]);
  const earlyReview = recallSet !== null && rows.length > 0 && dueNow === 0;

  return (
    <div className="page">
      <p className="breadcrumb">
        <a href="#/sets">Recall sets</a>
      </p>
      <div className="page-heading">
        <h1 tabIndex={-1}>{recallSet?.name ?? 'Recall set'}</h1>
        {recallSet ? (
          <div className="toolbar set-toolbar">
            <button
              type="button"
              className="button"
              onClick={() => navigate({ name: 'set-edit', recallSetId })}
            >
              Edit
            </button>
            <ExportSetButtons recallSetId={recallSetId} />
            {/* Each session type that works on a set brings its own start button (the registry's set actions). */}
            {setActions.map(({ type, Action }) => (
              <Action
                key={type}
                recallSet={{ ...recallSet, pointCount: recallSet.points.length, dueCount: dueNow, newCount }}
                describedBy={earlyReview ? 'early-review-note' : recallSet.points.length === 0 ? 'no-points-note' : undefined}
                session={session}
              />
            ))}
          </div>
        ) : null}
        {recallSet && recallSet.points.length === 0 ? (
          // A disabled button says why (issue 18).
          <p id="no-points-note" className="disabled-reason" data-testid="start-disabled-reason">
            This set has no points yet. Add one with Edit to start a session.
          </p>
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

      {earlyReview ? (
        <p id="early-review-note" className="field-hint" data-testid="early-review-note">
          Nothing in this set is due yet. You can still review it early: every point comes up, and each one you recall
          is scheduled from today — an early success lengthens its interval less than one on time.
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
              <ForecastPanel points={rows} now={now} />
            </section>
            <section className="card section-card" aria-labelledby="schedule-heading">
              <h2 id="schedule-heading">Schedule</h2>
              <p className="field-hint">
                Recall now is the predicted chance you remember the point today; it is marked when below your desired
                retention ({Math.round(desiredRetention * 100)}%). Stability is how many days a memory lasts before
                recall drops to 90%; difficulty runs from 1 (easy) to 10 (hard).
              </p>
              <ScheduleTable rows={rows} now={now} labelledBy="schedule-heading" desiredRetention={desiredRetention} />
            </section>
          </>
        )
      ) : null}
    </div>
  );
}
