import {
  CloseCodes,
  parseServerEvent,
  type ClientMessage,
  type ServerEvent,
  type WidgetAnswer,
} from '@tutorloop/shared';
import { findUndelivered, type OutboxEntry } from './outbox';

/** Where the connection to the session stands. */
export type ConnectionStatus = 'connecting' | 'open' | 'reconnecting' | 'closed';

/**
 * Why a connection is `closed` for good (no reconnect follows):
 * - `unauthorized` (4401): the sign-in expired or the token is invalid;
 * - `forbidden` (4403): the session belongs to another learner;
 * - `not_found` (4404): no such session;
 * - `completed`: the session is over;
 * - `client`: this client closed it (the page was left).
 */
export type CloseReason = 'unauthorized' | 'forbidden' | 'not_found' | 'completed' | 'client';

/** What the UI says for each terminal close reason. */
export const closeReasonMessages: Record<CloseReason, string> = {
  unauthorized: 'Your sign-in has expired. Please sign in again.',
  forbidden: 'This session belongs to another learner.',
  not_found: 'Session not found.',
  completed: 'This session has ended.',
  client: 'Disconnected.',
};

/** The part of the browser WebSocket this client uses; tests pass a fake. */
export interface WebSocketLike {
  readonly readyState: number;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

const OPEN = 1;

export interface SessionSocketOptions {
  /** Full `ws:`/`wss:` URL, see {@link sessionSocketUrl}. */
  url: string;
  /** Every valid server event, in order. Unknown or malformed frames are skipped. */
  onEvent: (event: ServerEvent) => void;
  /** Connection status changes; `reason` is set when the status is `closed`. */
  onStatusChange: (status: ConnectionStatus, reason: CloseReason | null) => void;
  createWebSocket?: (url: string) => WebSocketLike;
  /** Random source in [0, 1) for the backoff jitter. */
  random?: () => number;
  /** Id generator for `clientMessageId`. */
  generateId?: () => string;
  /** First and longest reconnect delays in milliseconds (before jitter). */
  backoff?: { initialMs: number; maxMs: number };
}

export interface SessionSocket {
  /**
   * Sends a chat message now, or as soon as the connection is back. Returns the
   * `clientMessageId` it travels with; the message stays in the outbox and is resent after a
   * reconnect until the server's history shows it arrived.
   */
  sendChat(message: string): string;
  /** Sends a widget answer. Returns false when not connected (the widget stays pending server-side). */
  sendWidgetResponse(widgetId: string, response: WidgetAnswer): boolean;
  /** Enters or leaves a rabbit hole. Returns false when not connected. */
  sendRabbithole(payload: Extract<ClientMessage, { type: 'rabbithole' }>['payload']): boolean;
  /** Ends the session early. Returns false when not connected. */
  endSession(): boolean;
  /** Stops the reply being produced (SPEC §5). Returns false when not connected. */
  stopReply(): boolean;
  /** Produces the last tutor reply again (SPEC §5). Returns false when not connected. */
  retryReply(messageId: string): boolean;
  /** Closes for good; no reconnect. */
  close(): void;
  readonly status: ConnectionStatus;
  /** Chat messages not yet confirmed by a history (for tests and diagnostics). */
  readonly outbox: readonly OutboxEntry[];
}

/** `ws(s)://host/sessions/ws/{sessionId}?token={jwt}` for a page served from `origin`. */
export function sessionSocketUrl(origin: string, sessionId: string, token: string): string {
  const url = new URL(`/sessions/ws/${encodeURIComponent(sessionId)}`, origin);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.searchParams.set('token', token);
  return url.toString();
}

/** Delay before reconnect attempt number `attempt` (0-based): exponential, capped, with jitter. */
export function reconnectDelay(attempt: number, random: () => number, backoff = { initialMs: 500, maxMs: 8000 }): number {
  const ceiling = Math.min(backoff.maxMs, backoff.initialMs * 2 ** attempt);
  // "Equal jitter": never less than half the ceiling, so a flapping server is not hammered,
  // and spread over the other half so many tabs do not reconnect in lockstep.
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

const fatalCloseReasons: Partial<Record<number, CloseReason>> = {
  [CloseCodes.unauthorized]: 'unauthorized',
  [CloseCodes.forbidden]: 'forbidden',
  [CloseCodes.notFound]: 'not_found',
};

/**
 * A WebSocket client for one session (SPEC §5), a plain module with no React in it.
 * It reconnects after a drop with backoff, unless the close is fatal (4401/4403/4404) or the
 * session is over, and keeps an outbox so no chat message is lost to a drop.
 */
export function createSessionSocket(options: SessionSocketOptions): SessionSocket {
  const createWebSocket = options.createWebSocket ?? ((url: string) => new WebSocket(url) as unknown as WebSocketLike);
  const random = options.random ?? Math.random;
  const generateId = options.generateId ?? (() => crypto.randomUUID());

  let socket: WebSocketLike | null = null;
  let status: ConnectionStatus = 'connecting';
  let attempt = 0;
  let reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  let closedForGood = false;
  let sessionOver = false;
  /** The outbox may only be flushed once this connection's history told us what arrived. */
  let historyReceived = false;
  let outbox: OutboxEntry[] = [];

  function setStatus(next: ConnectionStatus, reason: CloseReason | null = null) {
    status = next;
    options.onStatusChange(next, reason);
  }

  function sendFrame(frame: ClientMessage): boolean {
    if (!socket || socket.readyState !== OPEN) return false;
    socket.send(JSON.stringify(frame));
    return true;
  }

  function sendChatFrame(entry: OutboxEntry) {
    sendFrame({ type: 'chat', payload: { message: entry.message, clientMessageId: entry.clientMessageId } });
  }

  function connect() {
    reconnectTimer = null;
    historyReceived = false;
    const current = createWebSocket(options.url);
    socket = current;
    current.onopen = () => {
      if (socket !== current) return;
      attempt = 0;
      setStatus('open');
    };
    current.onmessage = (message) => {
      if (socket !== current || typeof message.data !== 'string') return;
      const event = parseServerEvent(message.data);
      if (event) handleServerEvent(event);
    };
    current.onerror = () => {
      // Always followed by close; the close handler decides what happens next.
    };
    current.onclose = (close) => {
      if (socket !== current) return;
      socket = null;
      handleClose(close.code);
    };
  }

  function handleServerEvent(event: ServerEvent) {
    if (event.type === 'session_complete') sessionOver = true;
    if (event.type === 'state_update' && (event.payload.state.status === 'completed' || event.payload.state.status === 'abandoned')) {
      sessionOver = true;
    }
    if (event.type === 'history') {
      historyReceived = true;
      outbox = findUndelivered(outbox, event.payload.messages);
      // The store sees the history first (it keeps undelivered local messages on screen),
      // then the resends go out, in their original order.
      options.onEvent(event);
      if (!sessionOver) outbox.forEach(sendChatFrame);
      return;
    }
    options.onEvent(event);
  }

  function handleClose(code: number) {
    if (closedForGood) return;
    const reason = fatalCloseReasons[code] ?? (sessionOver ? 'completed' : null);
    if (reason) {
      closedForGood = true;
      windowTarget?.removeEventListener('online', handleOnline);
      setStatus('closed', reason);
      return;
    }
    setStatus('reconnecting');
    scheduleReconnect();
  }

  function scheduleReconnect() {
    const delay = reconnectDelay(attempt, random, options.backoff);
    attempt += 1;
    reconnectTimer = setTimeout(connect, delay);
  }

  function handleOnline() {
    // Back online: skip the rest of the backoff wait.
    if (reconnectTimer !== null && !closedForGood) {
      clearTimeout(reconnectTimer);
      connect();
    }
  }

  const windowTarget = typeof window !== 'undefined' && typeof window.addEventListener === 'function' ? window : null;
  windowTarget?.addEventListener('online', handleOnline);

  setStatus('connecting');
  connect();

  return {
    sendChat(message) {
      const entry: OutboxEntry = { clientMessageId: generateId(), message };
      outbox.push(entry);
      if (historyReceived) sendChatFrame(entry);
      return entry.clientMessageId;
    },
    sendWidgetResponse(widgetId, response) {
      return sendFrame({ type: 'widget_response', payload: { widgetId, response } });
    },
    sendRabbithole(payload) {
      return sendFrame({ type: 'rabbithole', payload });
    },
    endSession() {
      return sendFrame({ type: 'end_session', payload: {} });
    },
    stopReply() {
      return sendFrame({ type: 'stop', payload: {} });
    },
    retryReply(messageId) {
      return sendFrame({ type: 'retry', payload: { messageId } });
    },
    close() {
      if (closedForGood) return;
      closedForGood = true;
      if (reconnectTimer !== null) clearTimeout(reconnectTimer);
      windowTarget?.removeEventListener('online', handleOnline);
      const current = socket;
      socket = null;
      current?.close(1000, 'client closed');
      setStatus('closed', 'client');
    },
    get status() {
      return status;
    },
    get outbox() {
      return outbox;
    },
  };
}
