import { lazy, useId, useMemo } from 'react';
import { forecastDays, forecastSeries, type ForecastDay, type ForecastPoint } from '../store/schedule';
import { ChartReadout } from './charts/chart-readout';
import { LazyChart } from './load-boundary';

const ForecastChart = lazy(() => import('./charts/forecast-chart'));

function plural(count: number, one: string, many: string) {
  return `${count} ${count === 1 ? one : many}`;
}

function busiestDay(series: ForecastDay[]): ForecastDay | null {
  let busiest: ForecastDay | null = null;
  for (const day of series.slice(1)) if (day.count > 0 && (!busiest || day.count > busiest.count)) busiest = day;
  return busiest;
}

/**
 * The 30-day review forecast: a bar chart (lazy, decorative for screen readers; read by keyboard
 * with the arrow keys), a one-line
 * summary, and the same numbers as a visually hidden table. The first bar is what is due now —
 * the same count as the set's "due" (the server's statuses); then one bar per calendar day.
 */
export function ForecastPanel({ points, now }: { points: ReadonlyArray<ForecastPoint>; now: Date }) {
  const captionId = useId();
  // The day buckets only move at midnight: recompute once per day or when the points change.
  const dayKey = now.toDateString();
  const series = useMemo(() => forecastSeries(points, new Date(dayKey)), [points, dayKey]);
  const dueNow = series[0]?.count ?? 0;
  const later = series.slice(1).reduce((sum, day) => sum + day.count, 0);
  const busiest = busiestDay(series);

  return (
    <figure
      className="chart-figure"
      aria-labelledby={captionId}
      data-testid="forecast-chart"
      data-counts={series.map((day) => day.count).join(',')}
    >
      <figcaption id={captionId} className="chart-caption">
        Reviews due now, then per day over the next {forecastDays} days
      </figcaption>
      <p className="chart-summary" data-testid="forecast-summary">
        <span data-testid="forecast-due-now">{dueNow} due now</span>
        {later === 0
          ? ` · nothing else in the next ${forecastDays} days`
          : ` · ${plural(later, 'more review', 'more reviews')} in the next ${forecastDays} days` +
            (busiest ? ` · busiest: ${busiest.longLabel} (${busiest.count})` : '')}
      </p>
      <ChartReadout
        label="Reviews due per day"
        readouts={series.map((day) => `${day.longLabel}: ${plural(day.count, 'review', 'reviews')}${day.key === 'now' ? '' : ' due'}`)}
        testId="forecast-chart-keys"
      >
        {(active) => (
          <LazyChart>
            <ForecastChart data={series} active={active} />
          </LazyChart>
        )}
      </ChartReadout>
      <table className="visually-hidden" data-testid="forecast-table">
        <caption>Reviews due per day</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Reviews due</th>
          </tr>
        </thead>
        <tbody>
          {series.map((day) => (
            <tr key={day.key}>
              <th scope="row">{day.longLabel}</th>
              <td>{day.count}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
