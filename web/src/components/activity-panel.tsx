import type { ActivityDay } from '@tutorloop/shared';
import { lazy, useId, useMemo } from 'react';
import { ChartReadout } from './charts/chart-readout';
import { LazyChart } from './load-boundary';

const ActivityChart = lazy(() => import('./charts/activity-chart'));

/** One day of the chart, with the labels it is shown under. */
export interface ActivityBar extends ActivityDay {
  /** Axis label: `24 Nov`. */
  label: string;
  /** Tooltip and table label: `Tue 24 Nov`. */
  longLabel: string;
}

function plural(count: number, one: string, many: string) {
  return `${count} ${count === 1 ? one : many}`;
}

/** The server's days are UTC days (`YYYY-MM-DD`): label them as such, whatever the browser's zone. */
function barsOf(days: readonly ActivityDay[]): ActivityBar[] {
  const short = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', timeZone: 'UTC' });
  const long = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });
  return days.map((day) => {
    const date = new Date(`${day.day}T00:00:00Z`);
    return { ...day, label: short.format(date), longLabel: long.format(date) };
  });
}

/**
 * The last 30 days of activity (SPEC §6 stats `activity`): reviews and sessions per day as
 * bars (lazy, decorative for screen readers; read by keyboard with the arrow keys), a one-line
 * summary, and the same numbers as a visually hidden table.
 */
export function ActivityPanel({ days }: { days: readonly ActivityDay[] }) {
  const captionId = useId();
  const bars = useMemo(() => barsOf(days), [days]);
  const reviews = days.reduce((sum, day) => sum + day.reviews, 0);
  const sessions = days.reduce((sum, day) => sum + day.sessions, 0);
  const activeDays = days.filter((day) => day.reviews + day.sessions > 0).length;
  const minutes = Math.round(days.reduce((sum, day) => sum + day.minutes, 0));

  return (
    <figure
      className="chart-figure"
      aria-labelledby={captionId}
      data-testid="activity-chart"
      data-reviews={days.map((day) => day.reviews).join(',')}
      data-sessions={days.map((day) => day.sessions).join(',')}
      data-last-day={days.at(-1)?.day}
    >
      <figcaption id={captionId} className="chart-caption">
        Reviews and sessions per day, last {days.length} days
      </figcaption>
      <p className="chart-summary" data-testid="activity-summary">
        {activeDays === 0
          ? 'No activity yet: your reviews and sessions will show here.'
          : `${plural(reviews, 'review', 'reviews')} and ${plural(sessions, 'session', 'sessions')} on ${plural(activeDays, 'day', 'days')}` +
            (minutes > 0 ? ` · ${plural(minutes, 'minute', 'minutes')}` : '')}
      </p>
      <ChartReadout
        label="Reviews and sessions per day"
        readouts={bars.map((day) => `${day.longLabel}: ${plural(day.reviews, 'review', 'reviews')}, ${plural(day.sessions, 'session', 'sessions')}`)}
        startAt={bars.length - 1}
        testId="activity-chart-keys"
      >
        {(active) => (
          <LazyChart>
            <ActivityChart data={bars} active={active} />
          </LazyChart>
        )}
      </ChartReadout>
      <table className="visually-hidden">
        <caption>Activity per day</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Reviews</th>
            <th scope="col">Sessions</th>
            <th scope="col">Minutes</th>
          </tr>
        </thead>
        <tbody>
          {bars.map((day) => (
            <tr key={day.day}>
              <th scope="row">{day.longLabel}</th>
              <td>{day.reviews}</td>
              <td>{day.sessions}</td>
              <td>{day.minutes}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
