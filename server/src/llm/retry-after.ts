/**
 * The `retry-after` family of HTTP headers, for transports of any vendor: rate-limited and
 * overloaded APIs say how long to wait, and the resilient client waits that long (capped).
 */

/** `retry-after-ms`, else `retry-after` (seconds or an HTTP date), in ms; null when absent or unusable. */
export function retryAfterFromHeaders(headers: Headers | undefined | null, nowMs = Date.now()): number | null {
  if (!headers) return null;
  const milliseconds = headers.get('retry-after-ms');
  if (milliseconds !== null && milliseconds.trim() !== '') {
    const value = Number(milliseconds);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const retryAfter = headers.get('retry-after');
  if (retryAfter === null || retryAfter.trim() === '') return null;
  const seconds = Number(retryAfter);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : null;
  const date = Date.parse(retryAfter);
  return Number.isNaN(date) ? null : Math.max(0, date - nowMs);
}
