/** Small formatting helpers shared by the reports and the console output. */

/** `42 ms`, `1.3 s`, or `—` for no value. */
export function formatMs(ms: number | null): string {
  if (ms === null) return '—';
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** One line, at most `max` characters. */
export function truncate(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** `3/4`, or `—` when unknown. */
export function formatRecalled(recalled: number | null, total: number | null): string {
  return recalled === null ? '—' : `${recalled}/${total ?? '?'}`;
}

export const statusLabels = { passed: '✅ passed', failed: '❌ failed', not_run: '⏭ not run' } as const;

/** `1 case`, `3 cases`. */
export function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}
