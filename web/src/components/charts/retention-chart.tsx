// Loaded lazily (React.lazy in retention-forecast.tsx): recharts stays out of the first page.
// Static lines: the marker follows the slider at once, with no animation to wait for.
import { CartesianGrid, Line, LineChart, ReferenceDot, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatPerDay } from '../../store/scheduler-view';
import { tooltipStyles } from './chart-styles';

export interface RetentionChartPoint {
  /** Desired retention, in percent. */
  percent: number;
  reviewsPerDay: number;
  /** Share of the points remembered on an average day of the horizon, in percent. */
  retainedPercent: number;
}

/**
 * Reviews per day against desired retention, the selected retention marked by a line and a
 * dot. Decorative for screen readers: the figure's summary and table hold the same numbers.
 */
export default function RetentionChart({ data, selected }: { data: RetentionChartPoint[]; selected: { percent: number; reviewsPerDay: number } }) {
  const first = data[0]?.percent ?? 70;
  const last = data[data.length - 1]?.percent ?? 99;
  return (
    <div className="chart" aria-hidden="true">
      <ResponsiveContainer width="100%" height={220}>
        <LineChart data={data} margin={{ top: 20, right: 12, bottom: 4, left: -12 }} accessibilityLayer={false}>
          <CartesianGrid vertical={false} />
          <XAxis
            dataKey="percent"
            type="number"
            domain={[first, last]}
            ticks={[70, 75, 80, 85, 90, 95, 99].filter((tick) => tick >= first && tick <= last)}
            unit="%"
            tickLine={false}
          />
          <YAxis tickLine={false} axisLine={false} width={48} allowDecimals tickFormatter={(value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(1))} />
          <Tooltip
            {...tooltipStyles}
            cursor={{ stroke: 'var(--border)' }}
            labelFormatter={(label) => `Desired retention ${String(label)}%`}
            formatter={(value, name, item) =>
              name === 'Reviews per day'
                ? [`${formatPerDay(Number(value))} (remember ${String((item.payload as RetentionChartPoint).retainedPercent)}% on an average day)`, name]
                : [String(value), String(name)]
            }
          />
          <ReferenceLine
            x={selected.percent}
            stroke="var(--text-muted)"
            strokeDasharray="4 3"
            label={{ value: `${selected.percent}%`, position: 'top', fill: 'var(--text)', fontSize: 12, fontWeight: 600 }}
          />
          <Line
            dataKey="reviewsPerDay"
            name="Reviews per day"
            type="monotone"
            stroke="currentColor"
            strokeWidth={2}
            dot={{ r: 2.5, fill: 'currentColor' }}
            activeDot={{ r: 4 }}
            isAnimationActive={false}
          />
          <ReferenceDot x={selected.percent} y={selected.reviewsPerDay} r={5} fill="var(--surface)" stroke="currentColor" strokeWidth={2.5} />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
