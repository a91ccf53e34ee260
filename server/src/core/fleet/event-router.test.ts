import type { ServerEvent } from '@tutorloop/shared';
import { describe, expect, it } from 'vitest';
import { EventRouter, type LoggedEvent } from './event-router';
import { parseStoredCommand, storedCommand } from './fleet-command';

const typing: ServerEvent = { type: 'typing', payload: {} };
const delta = (text: string): ServerEvent => ({ type: 'assistant_delta', payload: { messageId: 'm1', delta: text } });
const history: ServerEvent = { type: 'history', payload: { messages: [] } };

function recorder() {
  const seen: ServerEvent[] = [];
  return { seen, deliver: (event: ServerEvent) => seen.push(event) };
}

describe('EventRouter', () => {
  it('gives an attaching socket its targeted events until its marker, then the broadcasts, each once and in id order', () => {
    const router = new EventRouter(10);
    const socket = recorder();
    router.add({ id: 's1', kind: 'socket', deliver: socket.deliver });
    const rows: LoggedEvent[] = [
      { id: 9, target: null, event: delta('old') },
      { id: 12, target: null, event: delta('a') },
      { id: 11, target: 's1', event: history },
      { id: 13, target: 's1', event: delta('a') },
      { id: 14, target: 's1', event: { type: '_attached' } },
      { id: 15, target: null, event: delta('b') },
      { id: 16, target: 'other', event: typing },
    ];
    router.accept(rows);
    router.accept(rows);
    expect(socket.seen).toEqual([history, delta('a'), delta('b')]);
    expect(router.cursor).toBe(16);
  });

  it('gives a step only what is targeted at it, and tells it when its command settled', () => {
    const router = new EventRouter();
    const step = recorder();
    let settled = 0;
    router.add({ id: 'h1', kind: 'step', deliver: step.deliver, settled: () => (settled += 1) });
    router.accept([
      { id: 1, target: 'h1', event: { type: '_attached' } },
      { id: 2, target: null, event: typing },
      { id: 3, target: 'h1', event: typing },
      { id: 4, target: 'h1', event: { type: '_settled' } },
    ]);
    expect(step.seen).toEqual([typing]);
    expect(settled).toBe(1);
  });

  it('terminates every listener of the session on `_terminate` and sends no marker to a client', () => {
    const router = new EventRouter();
    const socket = recorder();
    let closed = false;
    router.add({ id: 's1', kind: 'socket', deliver: socket.deliver, terminate: () => (closed = true) });
    const outcome = router.accept([
      { id: 1, target: 's1', event: { type: '_attached' } },
      { id: 2, target: null, event: { type: '_terminate' } },
    ]);
    expect(outcome.terminated).toBe(true);
    expect(closed).toBe(true);
    expect(socket.seen).toEqual([]);
  });
});

describe('fleet commands', () => {
  it('read back what was stored, and refuse a stored frame that is not a client message', () => {
    const chat = { type: 'chat', payload: { message: 'hi', clientMessageId: 'c1' } } as const;
    expect(parseStoredCommand('s1', storedCommand({ kind: 'frame', target: 's1', frame: chat }))).toEqual({ ok: true, value: { kind: 'frame', target: 's1', frame: chat } });
    expect(parseStoredCommand('s1', storedCommand({ kind: 'detach', target: 's1' }))).toEqual({ ok: true, value: { kind: 'detach', target: 's1' } });
    const bad = parseStoredCommand('s1', { kind: 'frame', frame: { type: 'chat', payload: {} } });
    expect(bad.ok).toBe(false);
    expect(parseStoredCommand('s1', { kind: 'launch' }).ok).toBe(false);
  });
});
