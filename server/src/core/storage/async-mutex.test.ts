import { describe, expect, it } from 'vitest';
import { AsyncMutex } from './async-mutex';

describe('AsyncMutex', () => {
  it('runs works one at a time, in the order asked, even when they await', async () => {
    const mutex = new AsyncMutex();
    const events: string[] = [];
    const work = (name: string, ticks: number) => async () => {
      events.push(`${name} start`);
      for (let tick = 0; tick < ticks; tick += 1) await new Promise((resolve) => setTimeout(resolve, 1));
      events.push(`${name} end`);
      return name;
    };
    const results = await Promise.all([mutex.run(work('a', 3)), mutex.run(work('b', 1)), mutex.run(work('c', 0))]);
    expect(results).toEqual(['a', 'b', 'c']);
    expect(events).toEqual(['a start', 'a end', 'b start', 'b end', 'c start', 'c end']);
    expect(mutex.pending).toBe(0);
  });

  it('lets the next work run after one that failed, and passes the failure to its caller', async () => {
    const mutex = new AsyncMutex();
    const failed = mutex.run(async () => {
      throw new Error('boom');
    });
    const next = mutex.run(async () => 'next');
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe('next');
  });
});
