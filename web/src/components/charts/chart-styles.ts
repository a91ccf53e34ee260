/** Tooltip look shared by the charts, from the page's colour variables (light and dark). */
export const tooltipStyles = {
  cursor: { fill: 'var(--surface-muted)' },
  contentStyle: {
    background: 'var(--surface)',
    border: '1px solid var(--border)',
    borderRadius: 6,
    color: 'var(--text)',
    fontSize: '0.85rem',
  },
  labelStyle: { color: 'var(--text)', fontWeight: 600 },
  itemStyle: { color: 'var(--text)' },
} as const;

/** A bar's opacity while a keyboard reads the chart (chart-readout.tsx): the point in reach stays solid, the rest fade. */
export function dimmedExcept(active: number | null, index: number): number {
  return active === null || active === index ? 1 : 0.35;
}
