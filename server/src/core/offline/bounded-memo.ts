/**
 * A function's results kept by key, forgotten all at once past `limit` entries: the offline
 * evaluator analyses the same point texts on every turn, and a plain Map would grow with every
 * distinct message a long-running server ever sees.
 */
export function boundedMemo<K, V>(limit: number, compute: (key: K) => V): (key: K) => V {
  const cache = new Map<K, V>();
  return (key) => {
    if (cache.has(key)) return cache.get(key) as V;
    const value = compute(key);
    if (cache.size >= limit) cache.clear();
    cache.set(key, value);
    return value;
  };
}
