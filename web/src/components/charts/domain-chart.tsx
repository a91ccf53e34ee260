// Loaded lazily (React.lazy in assessment-results.tsx): recharts stays out of the first page.
// Bars are static: numbers to read, not a show, and never half-drawn when looked at.
import { Bar, BarChart, CartesianGrid, Cell, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { DomainResultView } from '../../store/assessment';
import { dimmedExcept, tooltipStyles } from './chart-styles';

/** Score per domain (0–100%) as horizontal bars; the table beside it holds the same numbers. */
export default function DomainChart({ domains, active = null }: { domains: DomainResultView[]; active?: number | null }) {
  const height = Math.max(120, domains.length * 44 + 40);
  return (
    <div className="chart" aria-hidden="true">
      <ResponsiveContainer width="100%" height={height}>
        <BarChart
          data={domains}
          layout="vertical"
          margin={{ top: 4, right: 16, bottom: 4, left: 8 }}
          accessibilityLayer={false}
        >
          <CartesianGrid horizontal={false} />
          <XAxis type="number" domain={[0, 100]} ticks={[0, 25, 50, 75, 100]} unit="%" tickLine={false} />
          <YAxis type="category" dataKey="label" width={130} tickLine={false} axisLine={false} />
          <Tooltip {...tooltipStyles} formatter={(value) => [`${String(value)}%`, 'Score']} />
          <Bar
            dataKey="percent"
            name="Score"
            fill="currentColor"
            radius={[0, 3, 3, 0]}
            maxBarSize={24}
            isAnimationActive={false}
          >
            {domains.map((domain, index) => (
              <Cell key={domain.domain} fillOpacity={dimmedExcept(active, index)} />
            ))}
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
