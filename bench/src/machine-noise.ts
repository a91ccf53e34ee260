/**
 * How noisy the machine is before the bench loads it: a 10 ms timer in this (idle) process,
 * and how late it fires. On a shared or oversubscribed machine even an idle process stalls
 * for tens of milliseconds now and then — a floor under every p99 in the table.
 */
import { distribution, type Distribution } from './statistics';

export function measureTimerLateness(durationMs: number, intervalMs = 10): Promise<Distribution> {
  return new Promise((resolve) => {
    const lateness: number[] = [];
    let expected = performance.now() + intervalMs;
    const timer = setInterval(() => {
      const now = performance.now();
      lateness.push(Math.max(0, now - expected));
      expected = now + intervalMs;
    }, intervalMs);
    setTimeout(() => {
      clearInterval(timer);
      resolve(distribution(lateness));
    }, durationMs);
  });
}
