import { lazy, useId, useMemo } from 'react';
import { forecastDays, forecastSeries, type ForecastDay } from '../store/schedule';
import { LazyChart } from './load-boundary';

const ForecastChart = lazy(() => import('./charts/forecast-chart'));

function plural(count: number, one: string, many: string) {
  return `${count} ${count === 1 ? one : many}`;
}

function busiestDay(series: ForecastDay[]): ForecastDay | null {
  let busiest: ForecastDay | null = null;
  for (const day of series) if (day.count > 0 && (!busiest || day.count > busiest.count)) busiest = day;
  return busiest;
}

/**
 * The 30-day review forecast: a bar chart (lazy, decorative for screen readers), a one-line
 * summary, and the same numbers as a visually hidden table.
 */
export function ForecastPanel({ cards, now }: { cards: ReadonlyArray<{ due: string }>; now: Date }) {
  const captionId = useId();
  // The buckets only move at midnight: recompute once per day, not on every clock tick.
  const dayKey = now.toDateString();
  const series = useMemo(() => forecastSeries(cards, new Date(dayKey)), [cards, dayKey]);
  const total = series.reduce((sum, day) => sum + day.count, 0);
  const today = series[0]?.count ?? 0;
  const busiest = busiestDay(series);

  return (
    <figure
      className="chart-figure"
      aria-labelledby={captionId}
      data-testid="forecast-chart"
      data-counts={series.map((day) => day.count).join(',')}
    >
      <figcaption id={captionId} className="chart-caption">
        Reviews due per day over the next {forecastDays} days (overdue reviews count today)
      </figcaption>
      <p className="chart-summary" data-testid="forecast-summary">
        {total === 0
          ? `Nothing due in the next ${forecastDays} days.`
          : `${plural(total, 'review', 'reviews')} in the next ${forecastDays} days · ${today} due today` +
            (busiest && busiest.day > 0 && busiest.count > today ? ` · busiest: ${busiest.label} (${busiest.count})` : '')}
      </p>
      <LazyChart>
        <ForecastChart data={series} />
      </LazyChart>
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
            <tr key={day.day}>
              <th scope="row">{day.longLabel}</th>
              <td>{day.count}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
