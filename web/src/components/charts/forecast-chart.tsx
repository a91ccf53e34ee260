// Loaded lazily (React.lazy in forecast-panel.tsx): recharts stays out of the first page.
// Bars are static: numbers to read, not a show, and never half-drawn when looked at.
import { Bar, BarChart, CartesianGrid, Cell, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { ForecastDay } from '../../store/schedule';
import { dimmedExcept, tooltipStyles } from './chart-styles';

/** Reviews due per day as bars; the numbers are also in the panel's table for screen readers. */
export default function ForecastChart({ data, active = null }: { data: ForecastDay[]; active?: number | null }) {
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
          >
            {data.map((day, index) => (
              <Cell key={day.key} fillOpacity={dimmedExcept(active, index)} />
            ))}
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
