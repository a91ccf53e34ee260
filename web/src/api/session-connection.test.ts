import type { ServerEvent, SessionSummary } from '@tutorloop/shared';
import { describe, expect, it } from 'vitest';
import { createSessionStore } from '../store/session-store';
import { activeState, choiceWidget, events, learnerHistory, summary, tutorHistory } from '../test-support/fixtures';
import type { ApiResult } from './http-client';
import { connectSession } from './session-connection';
import type { WebSocketLike } from './session-socket';

class FakeSocket implements WebSocketLike {
  readyState = 0;
  sent: unknown[] = [];
  onopen: WebSocketLike['onopen'] = null;
  onmessage: WebSocketLike['onmessage'] = null;
  onclose: WebSocketLike['onclose'] = null;
  onerror: WebSocketLike['onerror'] = null;
  constructor(readonly url: string) {}
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  receive(event: ServerEvent) {
    this.onmessage?.({ data: JSON.stringify(event) });
  }
}

function setup() {
  const sockets: FakeSocket[] = [];
  const summaryRequests: string[] = [];
  const store = createSessionStore({ now: () => new Date('2025-01-01T12:00:00.000Z') });
  const connection = connectSession({
    sessionId: 'sess_1',
    token: 'tok',
    store,
    origin: 'https://tutor.example',
    http: {
      getSessionSummary: async (sessionId): Promise<ApiResult<{ summary: SessionSummary }>> => {
        summaryRequests.push(sessionId);
        return { ok: true, value: { summary } };
      },
    },
    createWebSocket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
  });
  const socket = sockets[0];
  if (!socket) throw new Error('no socket');
  return { store, connection, socket, summaryRequests };
}

describe('session connection', () => {
  it('connects to the session URL and feeds the store', () => {
    const { store, socket } = setup();
    expect(socket.url).toBe('wss://tutor.example/sessions/ws/sess_1?token=tok');
    expect(store.getState().connection).toBe('connecting');
    socket.open();
    socket.receive(events.state(activeState({ recalledCount: 1 })));
    socket.receive(events.history([tutorHistory('m1', 'Hello')]));
    expect(store.getState()).toMatchObject({ connection: 'open', sessionId: 'sess_1', state: activeState({ recalledCount: 1 }) });
    expect(store.getState().messages.map((message) => message.id)).toEqual(['m1']);
  });

  it('shows a sent chat at once and keeps it through the history that confirms it', () => {
    const { store, connection, socket } = setup();
    socket.open();
    socket.receive(events.history([tutorHistory('m1', 'Hello')]));
    connection.sendChat('Plants release oxygen');
    const sent = socket.sent[0] as { payload: { clientMessageId: string } };
    expect(store.getState().messages.at(-1)).toMatchObject({ role: 'learner', content: 'Plants release oxygen', local: true });
    socket.receive(
      events.history([
        tutorHistory('m1', 'Hello'),
        learnerHistory('u1', 'Plants release oxygen', { clientMessageId: sent.payload.clientMessageId }),
      ]),
    );
    expect(store.getState().messages.map((message) => [message.id, message.local ?? false])).toEqual([
      ['m1', false],
      ['u1', false],
    ]);
  });

  it('answers a widget: sends it and takes it off the screen', () => {
    const { store, connection, socket } = setup();
    socket.open();
    socket.receive(events.widget(choiceWidget));
    expect(connection.answerWidget(choiceWidget, { selectedIndex: 2 })).toBe(true);
    expect(socket.sent).toEqual([{ type: 'widget_response', payload: { widgetId: 'w_choice', response: { selectedIndex: 2 } } }]);
    expect(store.getState().pendingWidget).toBeNull();
  });

  it('fetches the summary of a session that was already over', async () => {
    const { store, socket, summaryRequests } = setup();
    socket.open();
    socket.receive(events.state({ ...activeState({ recalledCount: 3 }), status: 'completed', endedAt: '2025-01-01T10:00:00.000Z' }));
    socket.receive(events.state({ ...activeState({ recalledCount: 3 }), status: 'completed', endedAt: '2025-01-01T10:00:00.000Z' }));
    await Promise.resolve();
    await Promise.resolve();
    expect(summaryRequests).toEqual(['sess_1']);
    expect(store.getState().summary).toEqual(summary);
  });

  it('does not fetch the summary when session_complete brought it', () => {
    const { socket, summaryRequests } = setup();
    socket.open();
    socket.receive(events.complete());
    socket.receive(events.state({ ...activeState({ recalledCount: 3 }), status: 'completed', endedAt: '2025-01-01T10:00:00.000Z' }));
    expect(summaryRequests).toEqual([]);
  });
});
