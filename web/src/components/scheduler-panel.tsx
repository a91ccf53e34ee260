import { useId } from 'react';
import type { SchedulerRunView } from '@tutorloop/shared';
import { schedulerStore } from '../services';
import type { SchedulerState } from '../store/scheduler-store';
import { describeMetrics, describeProgress, describeSource, formatDay, improvement, optimizeBlocker, rejectedLatestRun } from '../store/scheduler-view';

function formatShortDay(iso: string): string {
  return new Date(iso).toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' });
}

function runOutcome(run: SchedulerRunView): string {
  if (!run.kept) return 'Not better: kept the previous parameters';
  const better = improvement(run);
  return better === null ? 'Kept' : `Kept: ${Math.max(1, Math.round(better * 100))}% better`;
}

/** What the live region says when a run the learner started has finished. */
function finishedMessage(state: SchedulerState): string {
  const { finished, scheduler } = state;
  if (!finished || !scheduler) return '';
  if (!finished.kept) return 'Optimisation finished: the new parameters did not predict your reviews better, so yours are unchanged.';
  const metrics = describeMetrics(scheduler.parameters.run);
  return `Optimisation finished. ${metrics?.headline ?? ''} Your reviews have been rescheduled.`;
}

/**
 * The Settings page's "Scheduler" section (issue 17): where the learner's FSRS parameters come
 * from, how well they predict the learner's own reviews, "Optimise now" with the run's progress
 * (or why it is disabled), and the recent runs.
 */
export function SchedulerPanel({ state }: { state: SchedulerState }) {
  const headingId = useId();
  const blockerId = useId();
  const { scheduler } = state;

  if (!scheduler) {
    return (
      <section className="card scheduler-panel" aria-labelledby={headingId} data-testid="scheduler-panel" aria-busy={state.status === 'loading'}>
        <h2 id={headingId}>Scheduler</h2>
        {state.status === 'error' ? (
          <p className="form-error" role="alert" data-testid="scheduler-error">
            {state.error}
          </p>
        ) : (
          <p className="muted">Loading your scheduler…</p>
        )}
      </section>
    );
  }

  const run = scheduler.parameters.run;
  const metrics = describeMetrics(run);
  const rejected = rejectedLatestRun(scheduler);
  const progress = describeProgress(scheduler);
  const busy = scheduler.optimization.state === 'queued' || scheduler.optimization.state === 'running';
  const blocker = state.requesting ? null : optimizeBlocker(scheduler);
  const failed = scheduler.optimization.state === 'failed' ? scheduler.optimization.error : null;

  return (
    <section className="card scheduler-panel" aria-labelledby={headingId} data-testid="scheduler-panel">
      <h2 id={headingId}>Scheduler</h2>
      <p className="field-hint">
        FSRS predicts when you are about to forget each point and schedules its review then. Its parameters can be fitted to
        your own reviews.
      </p>
      <dl className="scheduler-facts">
        <div>
          <dt>Parameters</dt>
          <dd data-testid="scheduler-source" data-source={scheduler.parameters.source}>
            {describeSource(scheduler)}
          </dd>
        </div>
        <div>
          <dt>Your reviews</dt>
          <dd data-testid="scheduler-review-count">{scheduler.reviewCount.toLocaleString('en-US')}</dd>
        </div>
        {metrics ? (
          <div>
            <dt>Prediction</dt>
            <dd data-testid="scheduler-metrics">
              <strong data-testid="scheduler-improvement">{metrics.headline}</strong>
              <span className="scheduler-metrics-detail">{metrics.detail}</span>
            </dd>
          </div>
        ) : null}
      </dl>
      {rejected ? (
        <p className="notice" data-testid="scheduler-rejected">
          The optimisation of {formatDay(rejected.createdAt)} did not predict your reviews better, so your parameters stayed as
          they were.
        </p>
      ) : null}
      {failed ? (
        <p className="form-error" role="alert" data-testid="scheduler-failed">
          {failed}
        </p>
      ) : null}
      {state.optimizeError ? (
        <p className="form-error" role="alert" data-testid="scheduler-optimize-error">
          {state.optimizeError}
        </p>
      ) : null}
      <div className="scheduler-actions">
        <button
          type="button"
          className="button primary"
          onClick={() => {
            // Too few reviews: aria-disabled keeps the button focusable, so its reason is read out with it.
            if (!blocker) void schedulerStore.getState().optimize();
          }}
          disabled={busy || state.requesting}
          aria-disabled={blocker !== null || undefined}
          aria-busy={busy || state.requesting}
          aria-describedby={blocker ? blockerId : undefined}
        >
          {busy || state.requesting ? 'Optimising…' : 'Optimise now'}
        </button>
        {busy ? (
          <div className="scheduler-progress" data-testid="scheduler-progress" data-state={scheduler.optimization.state}>
            <progress
              max={1}
              value={scheduler.optimization.progress ?? undefined}
              aria-label="Optimisation progress"
              aria-valuetext={progress ?? undefined}
            />
            <span>{progress}</span>
          </div>
        ) : blocker ? (
          <p id={blockerId} className="field-hint" data-testid="scheduler-blocker">
            {blocker}
          </p>
        ) : (
          <p className="field-hint">
            Runs in the background; your sessions carry on. From {scheduler.thresholds.automatic.toLocaleString('en-US')} reviews
            it also happens by itself as your log grows.
          </p>
        )}
      </div>
      <p role="status" className="save-status" data-testid="scheduler-status">
        {finishedMessage(state)}
      </p>
      {scheduler.runs.length > 0 ? (
        <details className="scheduler-runs">
          <summary>Recent optimisations ({scheduler.runs.length})</summary>
          {/* On a phone each run is a card (styles.css), every value under its column's `data-label`. */}
          <div className="table-scroll">
            <table className="data-table runs-table" data-testid="scheduler-runs">
              <thead>
                <tr>
                  <th scope="col">Date</th>
                  <th scope="col">Reviews</th>
                  <th scope="col">Log loss</th>
                  <th scope="col">Outcome</th>
                </tr>
              </thead>
              <tbody>
                {scheduler.runs.map((entry) => (
                  <tr key={entry.id}>
                    <th scope="row">{formatShortDay(entry.createdAt)}</th>
                    <td data-label="Reviews">{entry.reviewCount.toLocaleString('en-US')}</td>
                    <td data-label="Log loss">
                      {entry.metrics.logLoss.toFixed(3)}, was {entry.previousMetrics.logLoss.toFixed(3)}
                    </td>
                    <td className="runs-outcome" data-label="Outcome">
                      {runOutcome(entry)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      ) : null}
    </section>
  );
}
