// Loaded lazily (React.lazy in forecast-panel.tsx): recharts stays out of the first page.
// Bars are static: numbers to read, not a show, and never half-drawn when looked at.
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { ForecastDay } from '../../store/schedule';
import { tooltipStyles } from './chart-styles';

/** Reviews due per day as bars; the numbers are also in the panel's table for screen readers. */
export default function ForecastChart({ data }: { data: ForecastDay[] }) {
  return (
    <div className="chart" aria-hidden="true">
      <ResponsiveContainer width="100%" height={220}>
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -20 }} accessibilityLayer={false}>
          <CartesianGrid vertical={false} />
          <XAxis dataKey="label" tickLine={false} interval="preserveStartEnd" minTickGap={16} />
          <YAxis allowDecimals={false} tickLine={false} axisLine={false} width={48} />
          <Tooltip
            {...tooltipStyles}
            labelFormatter={(_label, payload) => payload[0]?.payload?.longLabel ?? ''}
            formatter={(value) => [value, 'Due']}
          />
          <Bar
            dataKey="count"
            name="Due"
            fill="currentColor"
            radius={[3, 3, 0, 0]}
            maxBarSize={28}
            isAnimationActive={false}
          />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
