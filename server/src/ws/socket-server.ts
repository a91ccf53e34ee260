/**
 * The WebSocket adapter (SPEC §5): authenticates the upgrade, then only turns frames into
 * room calls and room events into frames. Bad frames get an `error` event; the connection
 * and the session survive them.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { CloseCodes, parseClientMessage, type ErrorCode, type ServerEvent } from '@tutorloop/shared';
import type { TokenService } from '../auth/tokens';
import type { Logger } from '../core/ports';
import type { SessionHub } from '../core/session/session-hub';
import type { SessionRepository } from '../core/session/session-repository';

export interface SocketServerOptions {
  hub: SessionHub;
  repository: SessionRepository;
  tokens: TokenService;
  logger: Logger;
  /** Largest text frame processed, in bytes. */
  maxFrameBytes: number;
  /** Frames allowed per connection per 10-second window. */
  rateLimit: number;
}

const pathPattern = /^\/sessions\/ws\/([^/?#]+)$/;
const rateWindowMs = 10_000;

export class SocketServer {
  private readonly server: WebSocketServer;

  constructor(private readonly options: SocketServerOptions) {
    // ws itself closes with 1009 above maxPayload; leave headroom so frames a little over
    // our own limit still get a readable `error` event instead of a dropped connection.
    this.server = new WebSocketServer({ noServer: true, maxPayload: Math.max(options.maxFrameBytes * 4, 1_048_576) });
  }

  /** True if the request is ours to upgrade. */
  matches(request: IncomingMessage): boolean {
    return pathPattern.test(new URL(request.url ?? '/', 'http://localhost').pathname);
  }

  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const sessionId = decodeURIComponent(pathPattern.exec(url.pathname)?.[1] ?? '');
    const token = url.searchParams.get('token');
    this.server.handleUpgrade(request, socket, head, (ws) => {
      void this.handleConnection(ws, sessionId, token);
    });
  }

  private async handleConnection(ws: WebSocket, sessionId: string, token: string | null): Promise<void> {
    const { hub, repository, tokens, logger } = this.options;
    ws.on('error', (error) => logger.warn({ err: error, sessionId }, 'socket error'));
    // Frames that arrive while the token is being checked are held, not lost.
    const early: Array<{ data: RawData; isBinary: boolean }> = [];
    const holdEarly = (data: RawData, isBinary: boolean) => early.push({ data, isBinary });
    ws.on('message', holdEarly);

    const learnerId = await tokens.verify(token);
    if (!learnerId) return ws.close(CloseCodes.unauthorized, 'Invalid or missing token');
    const session = repository.getSession(sessionId);
    if (!session) return ws.close(CloseCodes.notFound, 'Session not found');
    if (session.learnerId !== learnerId) return ws.close(CloseCodes.forbidden, 'Not your session');
    if (ws.readyState !== ws.OPEN) return;

    const room = hub.room(sessionId);
    const send = (event: ServerEvent) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(event));
    };
    const sendError = (code: ErrorCode, message: string) => send({ type: 'error', payload: { code, message } });
    let windowStart = Date.now();
    let framesInWindow = 0;

    const handleSocketMessage = (data: RawData, isBinary: boolean) => {
      const now = Date.now();
      if (now - windowStart >= rateWindowMs) {
        windowStart = now;
        framesInWindow = 0;
      }
      framesInWindow += 1;
      if (framesInWindow > this.options.rateLimit) {
        if (framesInWindow === this.options.rateLimit + 1) {
          sendError('rate_limited', `Too many messages: at most ${this.options.rateLimit} per ${rateWindowMs / 1000} seconds. Slow down and resend.`);
        }
        return;
      }
      if (isBinary) return sendError('binary_not_supported', 'Binary frames are not supported; send JSON text.');
      const size = Array.isArray(data) ? data.reduce((sum, part) => sum + part.length, 0) : (data as Buffer | ArrayBuffer).byteLength;
      if (size > this.options.maxFrameBytes) {
        return sendError('frame_too_large', `Frame of ${size} bytes exceeds the limit of ${this.options.maxFrameBytes} bytes.`);
      }
      const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as Buffer).toString('utf8');
      const parsed = parseClientMessage(text);
      if (!parsed.ok) return sendError(parsed.error.code, parsed.error.message);
      void room.handle(parsed.value, send);
    };

    ws.off('message', holdEarly);
    ws.on('message', handleSocketMessage);
    ws.on('close', () => {
      room.detach(send);
      hub.release(sessionId);
    });
    // A deleted session takes its sockets with it: they close as if it never existed.
    try {
      room.attach(send, () => ws.close(CloseCodes.notFound, 'Session deleted'));
    } catch (error) {
      // A session the server can no longer open (e.g. its assessment blueprint was removed).
      logger.error({ err: error, sessionId }, 'could not open the session');
      room.detach(send);
      hub.release(sessionId);
      return ws.close(CloseCodes.internalError, 'This session cannot be opened');
    }
    for (const frame of early) handleSocketMessage(frame.data, frame.isBinary);
  }

  /** Closes every socket (server shutdown). */
  close(): void {
    for (const client of this.server.clients) client.close(CloseCodes.goingAway, 'Server shutting down');
    this.server.close();
  }
}
