import type { ServerEvent } from '@tutorloop/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { activeState, choiceWidget, events, learnerHistory, summary, tutorHistory } from '../test-support/fixtures';
import {
  createSessionSocket,
  reconnectDelay,
  sessionSocketUrl,
  type CloseReason,
  type ConnectionStatus,
  type WebSocketLike,
} from './session-socket';

/** A socket the test drives by hand, playing the server's side. */
class FakeSocket implements WebSocketLike {
  readyState = 0;
  sent: unknown[] = [];
  closedWith: { code?: number; reason?: string } | null = null;
  onopen: WebSocketLike['onopen'] = null;
  onmessage: WebSocketLike['onmessage'] = null;
  onclose: WebSocketLike['onclose'] = null;
  onerror: WebSocketLike['onerror'] = null;

  constructor(readonly url: string) {}

  send(data: string) {
    this.sent.push(JSON.parse(data));
  }

  close(code?: number, reason?: string) {
    this.readyState = 3;
    this.closedWith = { code, reason };
  }

  open() {
    this.readyState = 1;
    this.onopen?.({});
  }

  receive(event: ServerEvent | string) {
    this.onmessage?.({ data: typeof event === 'string' ? event : JSON.stringify(event) });
  }

  drop(code = 1006) {
    this.readyState = 3;
    this.onerror?.({});
    this.onclose?.({ code, reason: '' });
  }
}

function setup(options: { ids?: string[] } = {}) {
  const sockets: FakeSocket[] = [];
  const received: ServerEvent[] = [];
  const statuses: Array<[ConnectionStatus, CloseReason | null]> = [];
  const ids = [...(options.ids ?? ['c1', 'c2', 'c3', 'c4'])];
  const socket = createSessionSocket({
    url: 'ws://localhost:5173/sessions/ws/sess_1?token=t',
    onEvent: (event) => received.push(event),
    onStatusChange: (status, reason) => statuses.push([status, reason]),
    createWebSocket: (url) => {
      const fake = new FakeSocket(url);
      sockets.push(fake);
      return fake;
    },
    // The middle of the jitter range: delays are 3/4 of the backoff ceiling.
    random: () => 0.5,
    generateId: () => ids.shift() ?? 'c-extra',
  });
  const latest = () => {
    const fake = sockets.at(-1);
    if (!fake) throw new Error('no socket');
    return fake;
  };
  return { socket, sockets, received, statuses, latest };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('sessionSocketUrl', () => {
  it('uses ws: for http and wss: for https, with the token in the query', () => {
    expect(sessionSocketUrl('http://localhost:5173', 'sess_1', 'a.b.c')).toBe(
      'ws://localhost:5173/sessions/ws/sess_1?token=a.b.c',
    );
    expect(sessionSocketUrl('https://tutor.example', 's/1', 'x+y')).toBe(
      'wss://tutor.example/sessions/ws/s%2F1?token=x%2By',
    );
  });
});

describe('reconnectDelay', () => {
  it('doubles from 0.5 s up to 8 s, with jitter in the upper half', () => {
    const ceilings = [0, 1, 2, 3, 4, 5, 6].map((attempt) => reconnectDelay(attempt, () => 1));
    expect(ceilings).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
    const floors = [0, 1, 2, 3, 4, 5].map((attempt) => reconnectDelay(attempt, () => 0));
    expect(floors).toEqual([250, 500, 1000, 2000, 4000, 4000]);
  });
});

describe('session socket', () => {
  it('reports connecting → open and forwards valid events in order, skipping bad frames', () => {
    const { received, statuses, latest } = setup();
    latest().open();
    latest().receive(events.state(activeState()));
    latest().receive('not json');
    latest().receive(JSON.stringify({ type: 'brand_new_event', payload: {} }));
    latest().receive(JSON.stringify({ type: 'typing', payload: {}, extra: 'a newer server field' }));
    latest().receive(events.history([]));
    expect(statuses).toEqual([
      ['connecting', null],
      ['open', null],
    ]);
    expect(received).toEqual([events.state(activeState()), events.typing(), events.history([])]);
  });

  it('sends a chat with a clientMessageId once the history has arrived', () => {
    const { socket, latest } = setup();
    latest().open();
    // Typed before the history: held until the server said what it already has.
    expect(socket.sendChat('Light and water')).toBe('c1');
    expect(latest().sent).toEqual([]);
    latest().receive(events.history([tutorHistory('m1', 'What do plants need?')]));
    expect(latest().sent).toEqual([{ type: 'chat', payload: { message: 'Light and water', clientMessageId: 'c1' } }]);
    socket.sendChat('And CO2');
    expect(latest().sent).toEqual([
      { type: 'chat', payload: { message: 'Light and water', clientMessageId: 'c1' } },
      { type: 'chat', payload: { message: 'And CO2', clientMessageId: 'c2' } },
    ]);
  });

  it('reconnects after a drop and resends only what the history lacks', () => {
    const { socket, sockets, statuses, latest } = setup();
    latest().open();
    latest().receive(events.history([]));
    socket.sendChat('Light and water');
    socket.sendChat('Chlorophyll');
    latest().drop();
    expect(statuses.at(-1)).toEqual(['reconnecting', null]);

    // Typed while disconnected: goes out after the next history.
    socket.sendChat('Oxygen comes out');
    vi.advanceTimersByTime(374);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);
    expect(latest().url).toBe('ws://localhost:5173/sessions/ws/sess_1?token=t');

    latest().open();
    latest().receive(events.state(activeState({ turn: 1, recalledCount: 1 })));
    latest().receive(
      events.history([
        tutorHistory('m1', 'What do plants need?'),
        learnerHistory('u1', 'Light and water', { clientMessageId: 'c1' }),
        tutorHistory('m2', 'Yes!'),
      ]),
    );
    expect(latest().sent).toEqual([
      { type: 'chat', payload: { message: 'Chlorophyll', clientMessageId: 'c2' } },
      { type: 'chat', payload: { message: 'Oxygen comes out', clientMessageId: 'c3' } },
    ]);
    expect(socket.outbox.map((entry) => entry.clientMessageId)).toEqual(['c2', 'c3']);
    expect(statuses).toEqual([
      ['connecting', null],
      ['open', null],
      ['reconnecting', null],
      ['open', null],
    ]);
  });

  it('matches by text when the server does not echo clientMessageId yet', () => {
    const { socket, latest } = setup();
    latest().open();
    latest().receive(events.history([]));
    socket.sendChat('yes');
    socket.sendChat('yes');
    latest().drop();
    vi.runOnlyPendingTimers();
    latest().open();
    latest().receive(events.history([tutorHistory('m1', 'Ready?'), learnerHistory('u1', 'yes')]));
    expect(latest().sent).toEqual([{ type: 'chat', payload: { message: 'yes', clientMessageId: 'c2' } }]);
  });

  it('backs off longer after each failed attempt and resets once connected', () => {
    const { sockets, latest } = setup();
    latest().drop();
    const delays: number[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) {
      const before = sockets.length;
      let waited = 0;
      while (sockets.length === before) {
        vi.advanceTimersByTime(25);
        waited += 25;
      }
      delays.push(waited);
      latest().drop();
    }
    expect(delays).toEqual([375, 750, 1500, 3000, 6000, 6000]);

    vi.runOnlyPendingTimers();
    latest().open();
    latest().drop();
    const before = sockets.length;
    vi.advanceTimersByTime(375);
    expect(sockets.length).toBe(before + 1);
  });

  it.each<[number, CloseReason]>([
    [4401, 'unauthorized'],
    [4403, 'forbidden'],
    [4404, 'not_found'],
  ])('stops for good on close code %i (%s)', (code, reason) => {
    const { sockets, statuses, latest } = setup();
    latest().drop(code);
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
    expect(statuses.at(-1)).toEqual(['closed', reason]);
  });

  it('does not reconnect once the session is complete', () => {
    const { sockets, statuses, latest } = setup();
    latest().open();
    latest().receive(events.complete(summary));
    latest().drop(1000);
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
    expect(statuses.at(-1)).toEqual(['closed', 'completed']);
  });

  it('does not reconnect after a state_update says the session ended', () => {
    const { sockets, latest } = setup();
    latest().open();
    latest().receive(events.state({ ...activeState(), status: 'abandoned', endedAt: '2025-01-01T10:00:00.000Z' }));
    latest().drop(1001);
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
  });

  it('sends widget answers and end_session only while open', () => {
    const { socket, latest } = setup();
    expect(socket.sendWidgetResponse(choiceWidget.widgetId, { selectedIndex: 1 })).toBe(false);
    latest().open();
    expect(socket.sendWidgetResponse(choiceWidget.widgetId, { selectedIndex: 1 })).toBe(true);
    expect(socket.endSession()).toBe(true);
    expect(socket.sendRabbithole({ action: 'exit' })).toBe(true);
    expect(latest().sent).toEqual([
      { type: 'widget_response', payload: { widgetId: 'w_choice', response: { selectedIndex: 1 } } },
      { type: 'end_session', payload: {} },
      { type: 'rabbithole', payload: { action: 'exit' } },
    ]);
  });

  it('close() closes the socket, cancels a pending reconnect and reports closed', () => {
    const { socket, sockets, statuses, latest } = setup();
    latest().drop();
    socket.close();
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
    expect(statuses.at(-1)).toEqual(['closed', 'client']);

    const second = setup();
    second.latest().open();
    second.socket.close();
    expect(second.latest().closedWith).toEqual({ code: 1000, reason: 'client closed' });
    // Events from a closed socket no longer reach the app.
    second.latest().receive(events.typing());
    expect(second.received).toEqual([]);
  });
});
