import { describe, expect, it } from 'vitest';
import type { TutorEvent } from '../provider';
import { createOfflineProvider } from './offline-provider';
import { evaluateOffline } from './offline-evaluator';
import { allPoints, points, tutorInput } from './test-fixtures';

const live = () => new AbortController().signal;
const aborted = () => {
  const c = new AbortController();
  c.abort();
  return c.signal;
};

describe('createOfflineProvider', () => {
  const provider = createOfflineProvider();
  const evalInput = {
    points: allPoints,
    recentMessages: [{ role: 'learner' as const, content: 'The Berlin Wall fell in 1989' }],
    mode: 'recall' as const,
  };

  it('is named offline and wires the evaluator, tutor and safety gate', async () => {
    expect(provider.name).toBe('offline');
    expect(await provider.evaluate(evalInput, live())).toEqual(evaluateOffline(evalInput));
    expect(await provider.checkSafety('What year did the Berlin Wall fall?', live())).toEqual({ safe: true });
    const events: TutorEvent[] = [];
    for await (const e of provider.reply(tutorInput({ trigger: 'session_start', probePoint: points.apollo }), live())) events.push(e);
    expect(events.length).toBeGreaterThanOrEqual(3);
  });

  it('rejects with an AbortError when the signal is already aborted', async () => {
    await expect(provider.evaluate(evalInput, aborted())).rejects.toMatchObject({ name: 'AbortError' });
    await expect(provider.checkSafety('hello', aborted())).rejects.toMatchObject({ name: 'AbortError' });
    const iterate = async () => {
      for await (const _ of provider.reply(tutorInput(), aborted())) void _;
    };
    await expect(iterate()).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('stops streaming as soon as the signal aborts', async () => {
    const controller = new AbortController();
    const seen: TutorEvent[] = [];
    const run = async () => {
      for await (const e of provider.reply(tutorInput({ probeAttempts: 2 }), controller.signal)) {
        seen.push(e);
        controller.abort();
      }
    };
    await expect(run()).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen).toHaveLength(1);
  });

  it('can pace the chunks and still be aborted while waiting', async () => {
    const paced = createOfflineProvider({ chunkDelayMs: 20 });
    const controller = new AbortController();
    const seen: TutorEvent[] = [];
    setTimeout(() => controller.abort(), 30);
    const run = async () => {
      for await (const e of paced.reply(tutorInput({ trigger: 'session_start' }), controller.signal)) seen.push(e);
    };
    await expect(run()).rejects.toMatchObject({ name: 'AbortError' });
    const all: TutorEvent[] = [];
    for await (const e of provider.reply(tutorInput({ trigger: 'session_start' }), live())) all.push(e);
    expect(seen.length).toBeGreaterThanOrEqual(1);
    expect(seen.length).toBeLessThan(all.length);
    expect(seen).toEqual(all.slice(0, seen.length));
  });
});
