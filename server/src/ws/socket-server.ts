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
import { retryHint, type LearnerLimits } from '../core/limits/learner-limits';
import { budgetRefusalMessage, refusedOperationNotes, type ModelBudget } from '../core/limits/model-budget';
import type { Logger } from '../core/ports';
import type { SessionRooms } from '../core/fleet/session-rooms';
import type { Storage } from '../core/storage/storage';
import { readUpgradeTarget, rejectInvalidUpgrade } from './upgrade';

export interface SocketServerOptions {
  hub: SessionRooms;
  storage: Storage;
  tokens: TokenService;
  logger: Logger;
  /** Largest text frame processed, in bytes. */
  maxFrameBytes: number;
  /** Frame budget counted per learner across all of their sockets. */
  limits: LearnerLimits;
  /** The per-learner budget every model operation is charged to (here: turns). */
  modelBudget: ModelBudget;
}

/**
 * Sends a frame, corking the socket until the current tick's work is done: the frames a turn
 * sends together (`typing`, the deltas, `assistant`, `state_update`) leave in one write instead
 * of one system call each — the largest item in the benchmark's profile. Bytes and order are
 * unchanged. `ws` corks around each frame itself; corks nest, so ours holds them all.
 */
function sendInBurst(ws: WebSocket, text: string): void {
  const socket = (ws as unknown as { _socket?: Duplex })._socket;
  if (socket && socket.writableCorked === 0) {
    socket.cork();
    process.nextTick(uncork, socket);
  }
  ws.send(text);
}

function uncork(socket: Duplex): void {
  socket.uncork();
}

/** Client messages that make the tutor work, each charged to the learner's model budget as a turn. */
const turnMessageTypes: ReadonlySet<string> = new Set(['chat', 'widget_response', 'rabbithole']);

export class SocketServer {
  private readonly server: WebSocketServer;
  /** Open sockets by the learner whose token opened them, so a revocation can close them. */
  private readonly byLearner = new Map<string, Set<WebSocket>>();
  /** The token each open socket was opened with, checked again by `closeRevoked`. */
  private readonly tokenOf = new WeakMap<WebSocket, string>();

  constructor(private readonly options: SocketServerOptions) {
    // ws itself closes with 1009 above maxPayload; leave headroom so frames a little over
    // our own limit still get a readable `error` event instead of a dropped connection.
    // ws would close the connection (1007) on a text frame that is not valid UTF-8; we take
    // the bytes and decode them with replacement characters instead, so the frame gets an
    // answer and the connection survives (SPEC §8).
    this.server = new WebSocketServer({ noServer: true, maxPayload: Math.max(options.maxFrameBytes * 4, 1_048_576), skipUTF8Validation: true });
  }

  /** True if the request is ours to answer: a session's socket path, or a URL nobody can read. */
  matches(request: IncomingMessage): boolean {
    return readUpgradeTarget(request.url).kind !== 'other';
  }

  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const target = readUpgradeTarget(request.url);
    // A bad URL gets a 400 and a closed socket, never an open and silent one (issue 22).
    if (target.kind !== 'session') return rejectInvalidUpgrade(socket);
    const { sessionId, token } = target;
    this.server.handleUpgrade(request, socket, head, (ws) => {
      this.handleConnection(ws, sessionId, token).catch((error: unknown) => {
        this.options.logger.error({ err: error, sessionId }, 'socket connection failed');
        if (ws.readyState === ws.OPEN) ws.close(CloseCodes.internalError, 'Internal error');
      });
    });
  }

  private async handleConnection(ws: WebSocket, sessionId: string, token: string | null): Promise<void> {
    const { hub, storage, tokens, logger } = this.options;
    ws.on('error', (error) => logger.warn({ err: error, sessionId }, 'socket error'));
    // Frames that arrive while the token is being checked are held, not lost.
    const early: Array<{ data: RawData; isBinary: boolean }> = [];
    const holdEarly = (data: RawData, isBinary: boolean) => early.push({ data, isBinary });
    ws.on('message', holdEarly);

    const learnerId = await tokens.verify(token);
    if (!learnerId) return ws.close(CloseCodes.unauthorized, 'Invalid or missing token');
    this.track(learnerId, ws, token ?? '');
    const session = await storage.read((reader) => reader.sessions.get(sessionId));
    if (!session) return ws.close(CloseCodes.notFound, 'Session not found');
    if (session.learnerId !== learnerId) return ws.close(CloseCodes.forbidden, 'Not your session');
    if (ws.readyState !== ws.OPEN) return;

    const room = hub.room(session);
    const send = (event: ServerEvent) => {
      if (ws.readyState === ws.OPEN) sendInBurst(ws, JSON.stringify(event));
    };
    const sendError = (code: ErrorCode, message: string) => send({ type: 'error', payload: { code, message } });
    const { limits, modelBudget } = this.options;
    // One `rate_limited` error per burst and budget, not one per refused frame: a flood must
    // not be echoed. A budget's next burst is announced again once it admitted something.
    const refusing = { frames: false, turns: false };
    const refuse = (budget: keyof typeof refusing, message: string) => {
      if (refusing[budget]) return;
      refusing[budget] = true;
      sendError('rate_limited', message);
    };

    const processFrame = async (data: RawData, isBinary: boolean): Promise<void> => {
      const frameBudget = await limits.takeFrame(learnerId);
      if (!frameBudget.ok) {
        const { limit, windowMs } = limits.options.frames;
        return refuse('frames', `Too many messages: at most ${limit} per ${windowMs / 1000} seconds across all your connections. ${retryHint(frameBudget.retryAfterMs)}`);
      }
      refusing.frames = false;
      if (isBinary) return sendError('binary_not_supported', 'Binary frames are not supported; send JSON text.');
      const size = Array.isArray(data) ? data.reduce((sum, part) => sum + part.length, 0) : (data as Buffer | ArrayBuffer).byteLength;
      if (size > this.options.maxFrameBytes) {
        return sendError('frame_too_large', `Frame of ${size} bytes exceeds the limit of ${this.options.maxFrameBytes} bytes.`);
      }
      // Invalid UTF-8 decodes to U+FFFD here; lone surrogates written as \u escapes are replaced by the parser.
      const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as Buffer).toString('utf8');
      const parsed = parseClientMessage(text);
      if (!parsed.ok) return sendError(parsed.error.code, parsed.error.message);
      if (turnMessageTypes.has(parsed.value.type)) {
        // Charged before the room stores anything: a refused message leaves no trace.
        const turnBudget = await modelBudget.charge(learnerId, 'turn');
        if (!turnBudget.ok) return refuse('turns', budgetRefusalMessage(turnBudget, refusedOperationNotes.turn));
        refusing.turns = false;
      }
      // A frame that arrived before the socket closed is handled even if its turn came after (it
      // waited for a budget): then by the session's current room, as this socket's room may have
      // been dropped meanwhile, and two rooms must never run one session.
      const target = closed ? hub.room(session) : room;
      target
        .handle(parsed.value, send)
        .catch((error: unknown) => {
          logger.error({ err: error, sessionId }, 'handling a frame failed');
          sendError('internal', 'Something went wrong on our side; the session is intact — try again.');
        })
        .finally(() => {
          if (target !== room) hub.release(sessionId);
        });
    };

    // The boundary (SPEC §8): whatever a frame does, it ends in an `error` event and a log
    // line, never in a dead process or a dead connection. Frames are taken one after another in
    // arrival order: one waiting for its budget holds back the next (an `end_session` must not
    // overtake the chat sent before it).
    let frames: Promise<void> = Promise.resolve();
    const handleSocketMessage = (data: RawData, isBinary: boolean) => {
      frames = frames
        .then(() => processFrame(data, isBinary))
        .catch((error: unknown) => {
          logger.error({ err: error, sessionId }, 'handling a frame failed');
          sendError('internal', 'Something went wrong on our side; the session is intact — try again.');
        });
    };

    let closed = false;
    ws.on('close', () => {
      closed = true;
      room.detach(send);
      hub.release(sessionId);
    });
    // A deleted session takes its sockets with it: they close as if it never existed.
    // Frames keep being held until the opening events are sent, so they come first.
    try {
      await room.attach(send, () => ws.close(CloseCodes.notFound, 'Session deleted'));
    } catch (error) {
      // A session the server can no longer open (e.g. its assessment blueprint was removed).
      logger.error({ err: error, sessionId }, 'could not open the session');
      room.detach(send);
      hub.release(sessionId);
      return ws.close(CloseCodes.internalError, 'This session cannot be opened');
    }
    // The socket closed while the opening events were read: it must not stay a listener.
    if (closed) {
      room.detach(send);
      hub.release(sessionId);
      return;
    }
    ws.off('message', holdEarly);
    ws.on('message', handleSocketMessage);
    for (const frame of early) handleSocketMessage(frame.data, frame.isBinary);
  }

  /**
   * Closes every open socket of the learner as unauthorized: the tokens they were opened with
   * were revoked (sign out everywhere, a new password). A client reconnects with a current token
   * or signs in again. Returns how many were closed.
   */
  closeLearner(learnerId: string): number {
    const open = [...(this.byLearner.get(learnerId) ?? [])];
    for (const ws of open) ws.close(CloseCodes.unauthorized, 'Signed out: sign in again');
    return open.length;
  }

  /**
   * Closes every open socket whose token no longer verifies, as `closeLearner` does: after a
   * revocation announced while this instance was not listening (SPEC §11). Returns how many.
   */
  async closeRevoked(): Promise<number> {
    let closed = 0;
    for (const open of [...this.byLearner.values()]) {
      for (const ws of [...open]) {
        if (await this.options.tokens.verify(this.tokenOf.get(ws))) continue;
        ws.close(CloseCodes.unauthorized, 'Signed out: sign in again');
        closed += 1;
      }
    }
    return closed;
  }

  private track(learnerId: string, ws: WebSocket, token: string): void {
    this.tokenOf.set(ws, token);
    let open = this.byLearner.get(learnerId);
    if (!open) this.byLearner.set(learnerId, (open = new Set()));
    open.add(ws);
    ws.once('close', () => {
      open.delete(ws);
      if (open.size === 0 && this.byLearner.get(learnerId) === open) this.byLearner.delete(learnerId);
    });
  }

  /** Closes every socket (server shutdown). */
  close(): void {
    for (const client of this.server.clients) client.close(CloseCodes.goingAway, 'Server shutting down');
    this.server.close();
  }
}
