import { lazy, useId, useMemo } from 'react';
import type { SimulationResponse } from '@tutorloop/shared';
import { describeWorkload, formatPerDay, workloadAt } from '../store/scheduler-view';
import type { SchedulerState } from '../store/scheduler-store';
import type { RetentionChartPoint } from './charts/retention-chart';
import { LazyChart } from './load-boundary';

const RetentionChart = lazy(() => import('./charts/retention-chart'));

function chartPoints(simulation: SimulationResponse): RetentionChartPoint[] {
  return [...simulation.points]
    .sort((a, b) => a.retention - b.retention)
    .map((point) => ({
      percent: Math.round(point.retention * 100),
      reviewsPerDay: Number(point.reviewsPerDay.toFixed(2)),
      retainedPercent: Math.round(point.retainedShare * 100),
    }));
}

/**
 * Workload against desired retention (issue 17, "Help me decide"), beside the retention slider:
 * the server's simulation of this learner's cards under their own parameters, the slider's
 * value marked and described in a sentence; the numbers are also a visually hidden table.
 */
export function RetentionForecast({ forecast, retention }: { forecast: SchedulerState['forecast']; retention: number }) {
  const captionId = useId();
  const simulation = forecast.simulation;
  const data = useMemo(() => (simulation ? chartPoints(simulation) : []), [simulation]);

  let body;
  if (!simulation) {
    body =
      forecast.status === 'error' ? (
        <p className="chart-placeholder muted" role="alert" data-testid="retention-forecast-error">
          {forecast.error}
        </p>
      ) : (
        <div className="chart-placeholder" aria-hidden="true">
          Simulating your reviews…
        </div>
      );
  } else if (simulation.cardCount === 0) {
    body = (
      <p className="notice" data-testid="retention-forecast-empty">
        Add a recall set to see how your daily reviews would change with the retention.
      </p>
    );
  } else {
    const selected = workloadAt(simulation.points, retention);
    const percent = Math.round(retention * 100);
    body = (
      <>
        <p className="chart-summary" data-testid="retention-forecast-summary">
          {describeWorkload(simulation.points, retention, simulation.days, simulation.cardCount)}
        </p>
        <LazyChart>
          <RetentionChart data={data} selected={{ percent, reviewsPerDay: Number((selected?.reviewsPerDay ?? 0).toFixed(2)) }} />
        </LazyChart>
        {/* Hidden by its wrapper: a table keeps its content's width even at width 1px, and would widen the page. */}
        <div className="visually-hidden">
          <table data-testid="retention-forecast-table">
            <caption>Reviews per day and points remembered on an average day, by desired retention, over the next {simulation.days} days</caption>
            <thead>
              <tr>
                <th scope="col">Desired retention</th>
                <th scope="col">Reviews per day</th>
                <th scope="col">Remembered on an average day</th>
              </tr>
            </thead>
            <tbody>
              {data.map((point) => (
                <tr key={point.percent}>
                  <th scope="row">{point.percent}%</th>
                  <td>{formatPerDay(point.reviewsPerDay)}</td>
                  <td>{point.retainedPercent}%</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </>
    );
  }

  return (
    <figure
      className="chart-figure retention-forecast"
      aria-labelledby={captionId}
      aria-busy={forecast.status === 'loading'}
      data-testid="retention-forecast"
      data-status={forecast.status}
      data-reviews-per-day={simulation?.points.map((point) => point.reviewsPerDay.toFixed(2)).join(',') ?? ''}
    >
      <figcaption id={captionId} className="chart-caption">
        Reviews per day by desired retention{simulation ? `, next ${simulation.days} days` : ''}
      </figcaption>
      {body}
    </figure>
  );
}
