/** Percentiles over samples (nearest-rank), rounded for display by the report. */
export interface Distribution {
  count: number;
  p50: number;
  p99: number;
  max: number;
  mean: number;
}

export function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[rank]!;
}

export function distribution(samples: readonly number[]): Distribution {
  const sorted = [...samples].sort((left, right) => left - right);
  const sum = sorted.reduce((total, value) => total + value, 0);
  return {
    count: sorted.length,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    max: sorted.at(-1) ?? Number.NaN,
    mean: sorted.length ? sum / sorted.length : Number.NaN,
  };
}

/** Runs `work` over `items` with at most `limit` in flight; results keep the input order. */
export async function mapWithLimit<Item, Result>(items: readonly Item[], limit: number, work: (item: Item, index: number) => Promise<Result>): Promise<Result[]> {
  const results = new Array<Result>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
