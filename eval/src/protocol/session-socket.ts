/**
 * A WebSocket client for one session (SPEC §5): records every server event with the time
 * it arrived, sends client messages, and lets the runner wait until the recorded events
 * satisfy a condition. Frames that are not valid server events are ignored, as the web
 * client does.
 */
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { parseServerEvent, type ClientMessage, type ServerEvent } from '@tutorloop/shared';

export interface TimedEvent {
  event: ServerEvent;
  /** `performance.now()` when the frame arrived. */
  at: number;
}

export type OpenResult = { ok: true; value: SessionSocket } | { ok: false; error: string };

export class SessionSocket {
  readonly events: TimedEvent[] = [];
  closed: { code: number; reason: string } | null = null;
  /** `performance.now()` when the connection opened. */
  openedAt = 0;
  private readonly waiters = new Set<() => void>();

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const event = parseServerEvent(data.toString());
      if (event) this.events.push({ event, at: performance.now() });
      this.notify();
    });
    socket.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.notify();
    });
    // Errors surface as a close or a failed open; without a listener ws would throw.
    socket.on('error', () => this.notify());
  }

  static open(url: string, timeoutMs: number): Promise<OpenResult> {
    return new Promise((resolve) => {
      const socket = new WebSocket(url, { handshakeTimeout: timeoutMs });
      const client = new SessionSocket(socket);
      socket.once('open', () => {
        client.openedAt = performance.now();
        resolve({ ok: true, value: client });
      });
      socket.once('error', (error) => resolve({ ok: false, error: `cannot open the session socket: ${error.message}` }));
    });
  }

  /** Sends one message; returns `performance.now()` at sending. */
  send(message: ClientMessage): number {
    const at = performance.now();
    this.socket.send(JSON.stringify(message));
    return at;
  }

  /** Waits until `done(events)` holds; false when the socket closed or the time ran out first. */
  async waitUntil(done: (events: readonly TimedEvent[]) => boolean, timeoutMs: number): Promise<boolean> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      if (done(this.events)) return true;
      const remaining = deadline - performance.now();
      if (this.closed || remaining <= 0) return false;
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, remaining);
        this.waiters.add(wake);
      });
    }
  }

  /** Closes the connection and waits (briefly) for the close handshake. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.socket.close(1000, 'evaluation done');
    await this.waitUntil(() => this.closed !== null, 2000);
    if (!this.closed) this.socket.terminate();
  }

  private notify(): void {
    for (const wake of [...this.waiters]) wake();
  }
}
