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
