import type { ServerEvent, Widget, WidgetAnswer } from '@tutorloop/shared';
import type { SessionStore } from '../store/session-store';
import type { HttpClient } from './http-client';
import { createSessionSocket, sessionSocketUrl, type SessionSocket, type SessionSocketOptions } from './session-socket';

export interface SessionConnectionOptions {
  sessionId: string;
  token: string;
  store: SessionStore;
  http: Pick<HttpClient, 'getSessionSummary'>;
  /** The page origin (`location.origin`); the socket URL is derived from it. */
  origin: string;
  createWebSocket?: SessionSocketOptions['createWebSocket'];
}

/** What the session page can do; every action updates the store as well as the server. */
export interface SessionConnection {
  sendChat(message: string): void;
  answerWidget(widget: Widget, response: WidgetAnswer): boolean;
  exitRabbithole(): boolean;
  endSession(): boolean;
  /** Stops the reply being produced; the text so far stays, marked stopped. */
  stopReply(): boolean;
  /** Produces the last tutor reply again; it replaces the old one when it arrives. */
  retryReply(messageId: string): boolean;
  close(): void;
}

/**
 * Wires one session's socket to the session store: events go into the store, connection
 * changes too, and the summary of a session that was already over when the page loaded is
 * fetched over REST (the socket only sends `session_complete` at the moment it ends).
 */
export function connectSession(options: SessionConnectionOptions): SessionConnection {
  const { store, sessionId } = options;
  store.getState().reset(sessionId);
  let summaryRequested = false;

  function handleServerEvent(event: ServerEvent) {
    store.getState().handleServerEvent(event);
    if (
      event.type === 'state_update' &&
      (event.payload.state.status === 'completed' || event.payload.state.status === 'abandoned') &&
      !store.getState().summary &&
      !summaryRequested
    ) {
      summaryRequested = true;
      void options.http.getSessionSummary(sessionId).then((result) => {
        if (store.getState().sessionId !== sessionId) return;
        if (result.ok) store.getState().setSummary(result.value.summary);
      });
    }
  }

  const socket: SessionSocket = createSessionSocket({
    url: sessionSocketUrl(options.origin, sessionId, options.token),
    onEvent: handleServerEvent,
    onStatusChange: (status, reason) => store.getState().handleConnectionChange(status, reason),
    ...(options.createWebSocket && { createWebSocket: options.createWebSocket }),
  });

  return {
    sendChat(message) {
      const clientMessageId = socket.sendChat(message);
      store.getState().addLocalChat({ clientMessageId, content: message });
    },
    answerWidget(widget, response) {
      if (!socket.sendWidgetResponse(widget.widgetId, response)) return false;
      store.getState().addLocalWidgetAnswer(widget, response);
      return true;
    },
    exitRabbithole() {
      return socket.sendRabbithole({ action: 'exit' });
    },
    endSession() {
      return socket.endSession();
    },
    stopReply() {
      return socket.stopReply();
    },
    retryReply(messageId) {
      return socket.retryReply(messageId);
    },
    close() {
      socket.close();
    },
  };
}
