import { useEffect, useState } from 'react';

/**
 * The current time, refreshed every `intervalMs` while `enabled` (a countdown ticks every
 * second, relative due dates every minute).
 */
export function useNow(intervalMs: number, enabled = true): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    if (!enabled) return undefined;
    setNow(new Date());
    const timer = window.setInterval(() => setNow(new Date()), intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs, enabled]);
  return now;
}
