// Loaded lazily (React.lazy in activity-panel.tsx): recharts stays out of the first page.
import { Bar, BarChart, CartesianGrid, Cell, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { ActivityBar } from '../activity-panel';
import { dimmedExcept, tooltipStyles } from './chart-styles';

/**
 * Reviews and sessions per day over the last 30 days, today on the right. Static bars, no
 * animation; the same numbers are in the panel's visually hidden table for screen readers.
 */
export default function ActivityChart({ data, active = null }: { data: ActivityBar[]; active?: number | null }) {
  return (
    <div className="chart" aria-hidden="true">
      <ResponsiveContainer width="100%" height={200}>
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -20 }} barGap={1} accessibilityLayer={false}>
          <CartesianGrid vertical={false} />
          <XAxis dataKey="label" tickLine={false} interval="preserveStartEnd" minTickGap={24} />
          <YAxis allowDecimals={false} tickLine={false} axisLine={false} width={48} />
          <Tooltip {...tooltipStyles} labelFormatter={(_label, payload) => payload[0]?.payload?.longLabel ?? ''} />
          <Legend iconType="square" iconSize={10} wrapperStyle={{ fontSize: '0.8rem', color: 'var(--text-muted)' }} />
          <Bar dataKey="reviews" name="Reviews" fill="var(--accent)" radius={[2, 2, 0, 0]} maxBarSize={14} isAnimationActive={false}>
            {data.map((day, index) => (
              <Cell key={day.day} fillOpacity={dimmedExcept(active, index)} />
            ))}
          </Bar>
          <Bar dataKey="sessions" name="Sessions" fill="var(--text-muted)" radius={[2, 2, 0, 0]} maxBarSize={14} isAnimationActive={false}>
            {data.map((day, index) => (
              <Cell key={day.day} fillOpacity={dimmedExcept(active, index)} />
            ))}
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
