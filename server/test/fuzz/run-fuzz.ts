/**
 * The frame fuzzer's runner (SPEC §8: "no input, however formed, ends the process"). Starts
 * the real server as its own process on loopback, opens sockets for several learners and
 * sessions, drives the seeded steps of frame-generator.ts through them, then checks:
 *
 * - the process is alive, answers `/api/health`, logged no error and no uncaught exception;
 * - every socket the fuzzer did not close is still open (bad frames never close one);
 * - every bad frame got exactly one `error` event with the predicted code (counted per socket:
 *   between what every frame must get and what every frame may get); only frames over a rate
 *   limit may go unanswered, and then the socket got a `rate_limited`;
 * - every valid chat is stored exactly once, with the exact expected text, in its own session,
 *   and answered exactly once (one tutor reply per learner message and widget answer); no text
 *   of a refused or shadowed frame is stored anywhere;
 * - `PRAGMA integrity_check` is ok, no foreign key is broken, no row is duplicated, every
 *   stored text is valid UTF-8, and the replay endpoint shows what the table holds.
 *
 * Loops are bounded in count and in time; the server only ever listens on 127.0.0.1.
 */
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import WebSocket from 'ws';
import { ServerEvent, type ServerEventOf } from '@tutorloop/shared';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';
import {
  frameKinds,
  generateSteps,
  markersIn,
  roomErrorCodes,
  socketActions,
  type FrameExpectation,
  type FrameKind,
  type FrameStep,
  type FrameTarget,
  type SocketAction,
  type SocketStep,
} from './frame-generator';

export interface FuzzRunOptions {
  seed: number;
  /** Steps to run (frames and the occasional socket action). */
  frames: number;
  /** `raised`: budgets far above the run, so they hide nothing; `default`: the server's own. */
  limits: 'raised' | 'default';
  learners?: number;
  mainSessions?: number;
  socketsPerSession?: number;
  /** WS_MAX_FRAME_BYTES for the server (and the generator's sizes). */
  maxFrameBytes?: number;
  /** Stop sending after this long (the run is then reported as cut short). */
  timeLimitMs?: number;
  /** How long to wait, after the last frame, for every turn to be answered. */
  settleTimeoutMs?: number;
  /** Keep the data folder (the SQLite file) for inspection. */
  keepDataDir?: boolean;
  onProgress?: (line: string) => void;
}

export interface FuzzReport {
  seed: number;
  limits: 'raised' | 'default';
  environment: Record<string, string>;
  stepsPlanned: number;
  stepsRun: number;
  framesSent: number;
  /** Frames not sent because their target had moved on (a resend whose session was replaced). */
  framesSkipped: number;
  drainFrames: number;
  durationMs: number;
  sendMs: number;
  framesByKind: Record<FrameKind, number>;
  socketActions: Record<SocketAction, number>;
  errorsByCode: Record<string, number>;
  chats: {
    sent: number;
    resent: number;
    storedOnce: number;
    answered: number;
    /** Stored, then the session ended before the turn ran (by design not answered). */
    storedUnansweredSessionEnded: number;
    /** Not stored: refused by a budget, sent on a session that had ended, or lost with a dropped socket. */
    notStoredAllowed: number;
    lost: number;
    duplicated: number;
    wrongContent: number;
  };
  widgetAnswers: { sent: number; stored: number; answered: number; duplicated: number };
  /** Over the sockets held to it (not dropped, no budget): frames that had to get one `error`, and the errors that came (rate_limited aside). */
  errorAccounting: { framesThatMustGetError: number; errorEventsReceived: number; rateLimitedEvents: number; socketsWithoutLowerBound: number };
  sessions: { created: number; completedByServer: number; endedByFuzzer: number };
  sockets: { opened: number; closedByFuzzer: number; dropped: number; closedByServer: number };
  server: {
    alive: boolean;
    exit: string | null;
    healthOk: boolean;
    rssMb: number | null;
    errorLogLines: number;
    warnLogLines: number;
    uncaughtExceptions: number;
    internalErrorEvents: number;
    offSchemaEvents: number;
    cleanShutdown: boolean | null;
  };
  database: {
    integrity: string;
    foreignKeyViolations: number;
    messages: number;
    learnerMessages: number;
    tutorMessages: number;
    duplicatedRows: number;
    extraTutorReplies: number;
    invalidUtf8Values: number;
    refusedTextStored: number;
    replayMismatches: number;
  };
  /** Process exits, uncaught exceptions and `internal` errors: what "crash" means here. */
  crashes: number;
  violations: string[];
  notes: string[];
  dataDir: string | null;
}

// ---------------------------------------------------------------------------

const recallPoints = [
  "The mitochondrion produces most of a cell's ATP through oxidative phosphorylation",
  'Ribosomes translate messenger RNA into chains of amino acids',
  'The Peace of Westphalia ended the Thirty Years War in 1648',
  'Photosynthesis turns carbon dioxide and water into glucose using light energy',
  "Newton's second law: force equals mass times acceleration",
  'The Krebs cycle runs in the mitochondrial matrix',
  'Earthquakes cluster at the boundaries of tectonic plates',
  'King John sealed the Magna Carta in 1215',
  'An enzyme lowers the activation energy of a reaction',
  "Ohm's law: voltage equals current times resistance",
];

type WidgetPayload = ServerEventOf<'widget'>['payload'];

/** One session as the fuzzer knows it. */
interface FuzzSession {
  id: string;
  learner: number;
  kind: 'main' | 'throwaway';
  /** Seen `session_complete` (or an ended state). */
  ended: boolean;
  endedByFuzzer: boolean;
  pendingWidget: WidgetPayload | null;
  answeredWidgets: Set<string>;
  assistantIds: Set<string>;
  turnsSent: number;
}

/** Per socket: what its frames must and may get back. */
interface Ledger {
  /** Frames that must get exactly one error. */
  must: number;
  /** Frames that may get one (must + accepted frames that reach the session, if it ends). */
  roomAccepted: number;
  /** Least count per code, of edge codes and of room codes (the latter void if the session ended). */
  minEdge: Map<string, number>;
  minRoom: Map<string, number>;
  max: Map<string, number>;
  /** Frames whose error must reach the session (widget_not_pending), replaced by session_ended if it ended. */
  roomMust: number;
  /** Control frames that may or may not get an error (a repeated end_session under a budget). */
  optional: number;
}

interface SentChat {
  index: number;
  marker: string;
  content: string;
  session: FuzzSession;
  socket: FuzzSocket;
  /** Sent on a socket dropped before it was drained: it may never have arrived. */
  uncertain: boolean;
}

interface SentWidgetAnswer {
  widgetId: string;
  session: FuzzSession;
  uncertain: boolean;
}

class FuzzSocket {
  readonly errors = new Map<string, number>();
  /** What was sent and received, for reducing a violation to its frames. */
  readonly journal: string[] = [];
  readonly answeredSentinels = new Set<string>();
  readonly ledger: Ledger = { must: 0, roomAccepted: 0, minEdge: new Map(), minRoom: new Map(), max: new Map(), roomMust: 0, optional: 0 };
  /** Chats and widget answers sent since the last drain. */
  undrained: Array<SentChat | SentWidgetAnswer> = [];
  closedByFuzzer = false;
  dropped = false;
  closeCode: number | null = null;
  closeReason = '';
  lastEventAt = Date.now();
  private waiters: Array<() => void> = [];

  constructor(
    readonly id: number,
    readonly ws: WebSocket,
    readonly session: FuzzSession,
  ) {}

  notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter();
  }

  /** Resolves true once `predicate` holds, false after `timeoutMs` or when the socket closes. */
  async until(predicate: () => boolean, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      const remaining = deadline - Date.now();
      if (remaining <= 0 || this.closeCode !== null) return predicate();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(remaining, 250));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return true;
  }

  get open(): boolean {
    return this.ws.readyState === WebSocket.OPEN && this.closeCode === null;
  }
}

const increment = (map: Map<string, number>, key: string, by = 1) => map.set(key, (map.get(key) ?? 0) + by);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sentinelPattern = /Unknown message type "(fz-drain-\d+)"/;
/** Errors a session engine or a budget sends, not the parser. */
const nonEdgeCodes = new Set<string>([...roomErrorCodes, 'rate_limited']);

/** Runs one fuzz session against a fresh server process and returns what it saw. */
export async function runFuzz(options: FuzzRunOptions): Promise<FuzzReport> {
  const started = Date.now();
  const learners = options.learners ?? 3;
  const mainSessions = options.mainSessions ?? 2;
  const socketsPerSession = options.socketsPerSession ?? 3;
  const maxFrameBytes = options.maxFrameBytes ?? 65_536;
  const timeLimitMs = options.timeLimitMs ?? 10 * 60_000;
  const settleTimeoutMs = options.settleTimeoutMs ?? 30_000 + options.frames * 5;
  const progress = options.onProgress ?? (() => {});
  const limited = options.limits === 'default';

  const environment: Record<string, string> = limited
    ? { WS_RATE_LIMIT: '', TURN_RATE_LIMIT: '', SESSION_RATE_LIMIT: '', WS_MAX_FRAME_BYTES: String(maxFrameBytes) }
    : // The highest values the configuration accepts: 10,000 frames per 10 s, 100,000 model operations per minute and 100,000 new sessions per 10 minutes per learner.
      { WS_RATE_LIMIT: '10000', TURN_RATE_LIMIT: '100000', SESSION_RATE_LIMIT: '100000', WS_MAX_FRAME_BYTES: String(maxFrameBytes) };

  const violations: string[] = [];
  const notes: string[] = [];
  const violate = (message: string) => {
    if (violations.length < 200) violations.push(message);
  };
  const report: FuzzReport = {
    seed: options.seed,
    limits: options.limits,
    environment,
    stepsPlanned: options.frames,
    stepsRun: 0,
    framesSent: 0,
    framesSkipped: 0,
    drainFrames: 0,
    durationMs: 0,
    sendMs: 0,
    framesByKind: Object.fromEntries(frameKinds.map((kind) => [kind, 0])) as Record<FrameKind, number>,
    socketActions: Object.fromEntries(socketActions.map((action) => [action, 0])) as Record<SocketAction, number>,
    errorsByCode: {},
    chats: { sent: 0, resent: 0, storedOnce: 0, answered: 0, storedUnansweredSessionEnded: 0, notStoredAllowed: 0, lost: 0, duplicated: 0, wrongContent: 0 },
    widgetAnswers: { sent: 0, stored: 0, answered: 0, duplicated: 0 },
    errorAccounting: { framesThatMustGetError: 0, errorEventsReceived: 0, rateLimitedEvents: 0, socketsWithoutLowerBound: 0 },
    sessions: { created: 0, completedByServer: 0, endedByFuzzer: 0 },
    sockets: { opened: 0, closedByFuzzer: 0, dropped: 0, closedByServer: 0 },
    server: { alive: false, exit: null, healthOk: false, rssMb: null, errorLogLines: 0, warnLogLines: 0, uncaughtExceptions: 0, internalErrorEvents: 0, offSchemaEvents: 0, cleanShutdown: null },
    database: { integrity: 'not checked', foreignKeyViolations: 0, messages: 0, learnerMessages: 0, tutorMessages: 0, duplicatedRows: 0, extraTutorReplies: 0, invalidUtf8Values: 0, refusedTextStored: 0, replayMismatches: 0 },
    crashes: 0,
    violations,
    notes,
    dataDir: null,
  };

  const dataDir = mkdtempSync(path.join(tmpdir(), 'tutorloop-fuzz-'));
  let server: ServerProcess | null = null;
  let exit: string | null = null;
  const sockets: FuzzSocket[] = [];
  const errorLines: string[] = [];

  try {
    // FUZZ_SERVER_LOG=file (and FUZZ_SERVER_LOG_LEVEL=debug): keep the server's own log.
    server = await startServerProcess(dataDir, { ...environment, ...(process.env.FUZZ_SERVER_LOG_LEVEL ? { LOG_LEVEL: process.env.FUZZ_SERVER_LOG_LEVEL } : {}) });
    const child = server.child;
    const baseUrl = server.url;
    if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(baseUrl)) throw new Error(`server is not on loopback: ${baseUrl}`);
    child.on('exit', (code, signal) => {
      exit = signal ? `signal ${signal}` : `code ${code}`;
    });
    // The server logs pino JSON lines; errors and uncaught exceptions are findings.
    const scanLog = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) {
        if (!line.trim().startsWith('{')) continue;
        try {
          const entry = JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string; type?: string } };
          if ((entry.level ?? 0) >= 50) {
            report.server.errorLogLines += 1;
            if (/uncaught|unhandled/.test(entry.msg ?? '')) report.server.uncaughtExceptions += 1;
            if (errorLines.length < 20) errorLines.push(`${entry.msg ?? ''}${entry.err ? `: ${entry.err.type ?? ''} ${entry.err.message ?? ''}` : ''}`);
          } else if ((entry.level ?? 0) >= 40) {
            report.server.warnLogLines += 1;
          }
        } catch {
          // A partial line at a chunk boundary: pino writes whole lines, this is rare and harmless.
        }
      }
    };
    child.stdout!.on('data', scanLog);
    if (process.env.FUZZ_SERVER_LOG) {
      const file = createWriteStream(process.env.FUZZ_SERVER_LOG);
      child.stdout!.on('data', (chunk: Buffer) => file.write(chunk));
    }
    child.stderr!.on('data', scanLog);

    const request = async <T>(method: string, route: string, body?: unknown, token?: string): Promise<{ status: number; body: T }> => {
      const response = await fetch(`${baseUrl}${route}`, {
        method,
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
    };

    // ---- Learners, sessions, sockets --------------------------------------------------
    const tokens: string[] = [];
    const recallSets: string[] = [];
    for (let learner = 0; learner < learners; learner += 1) {
      const registered = await request<{ token: string }>('POST', '/api/auth/register', { username: `fuzz-${options.seed.toString(36)}-${learner}`, password: 'correct horse battery' });
      if (registered.status !== 201) throw new Error(`register failed: ${JSON.stringify(registered.body)}`);
      tokens.push(registered.body.token);
      const set = await request<{ id: string }>('POST', '/api/recall-sets', { name: `Fuzz set ${learner}`, points: recallPoints.map((content) => ({ content })) }, registered.body.token);
      if (set.status !== 201) throw new Error(`recall set failed: ${JSON.stringify(set.body)}`);
      recallSets.push(set.body.id);
    }

    const sessionsById = new Map<string, FuzzSession>();
    const createSession = async (learner: number, kind: FuzzSession['kind']): Promise<FuzzSession> => {
      const created = await request<{ sessionId: string }>('POST', '/api/sessions', { type: 'recall', recallSetId: recallSets[learner] }, tokens[learner]);
      if (created.status !== 201) throw new Error(`session failed: ${JSON.stringify(created.body)}`);
      const session: FuzzSession = { id: created.body.sessionId, learner, kind, ended: false, endedByFuzzer: false, pendingWidget: null, answeredWidgets: new Set(), assistantIds: new Set(), turnsSent: 0 };
      sessionsById.set(session.id, session);
      report.sessions.created += 1;
      return session;
    };

    const markEnded = (session: FuzzSession) => {
      if (!session.ended && !session.endedByFuzzer) report.sessions.completedByServer += 1;
      session.ended = true;
      session.pendingWidget = null;
    };
    let socketCounter = 0;
    const handleEvent = (socket: FuzzSocket, raw: WebSocket.RawData) => {
      socket.lastEventAt = Date.now();
      let data: unknown;
      try {
        data = JSON.parse(raw.toString());
      } catch {
        violate(`socket ${socket.id}: the server sent a frame that is not JSON: ${raw.toString().slice(0, 80)}`);
        return;
      }
      const parsed = ServerEvent.safeParse(data);
      if (!parsed.success) {
        report.server.offSchemaEvents += 1;
        if (report.server.offSchemaEvents <= 3) violate(`socket ${socket.id}: an event outside the shared ServerEvent schema: ${JSON.stringify(data).slice(0, 160)}`);
      }
      const event = data as { type?: string; payload?: Record<string, unknown> };
      const session = socket.session;
      if (process.env.FUZZ_DEBUG === 'events' && event.type !== 'error') socket.journal.push(`← ${event.type} ${JSON.stringify(event.payload).slice(0, 140)}`);
      switch (event.type) {
        case 'error': {
          const code = String(event.payload?.code);
          const sentinel = sentinelPattern.exec(String(event.payload?.message ?? ''));
          if (sentinel && code === 'unknown_type') {
            socket.answeredSentinels.add(sentinel[1]!);
            break;
          }
          increment(socket.errors, code);
          socket.journal.push(`← error ${code}: ${String(event.payload?.message ?? '').slice(0, 100)}`);
          report.errorsByCode[code] = (report.errorsByCode[code] ?? 0) + 1;
          if (code === 'internal') report.server.internalErrorEvents += 1;
          break;
        }
        case 'widget': {
          const widget = event.payload as unknown as WidgetPayload;
          if (!session.answeredWidgets.has(widget.widgetId)) session.pendingWidget = widget;
          break;
        }
        case 'assistant':
          session.assistantIds.add(String(event.payload?.messageId));
          break;
        case 'session_complete':
          markEnded(session);
          break;
        case 'state_update': {
          const status = (event.payload?.state as { status?: string } | undefined)?.status;
          if (status === 'completed' || status === 'abandoned') markEnded(session);
          break;
        }
        default:
          break;
      }
      socket.notify();
    };

    const openSocket = async (session: FuzzSession): Promise<FuzzSocket> => {
      const url = `${baseUrl.replace('http', 'ws')}/sessions/ws/${session.id}?token=${encodeURIComponent(tokens[session.learner]!)}`;
      const ws = new WebSocket(url);
      socketCounter += 1;
      const socket = new FuzzSocket(socketCounter, ws, session);
      let history = false;
      ws.on('message', (raw) => {
        if (!history && raw.toString().startsWith('{"type":"history"')) history = true;
        handleEvent(socket, raw);
      });
      ws.on('close', (code, reason) => {
        socket.closeCode = code;
        socket.closeReason = reason.toString();
        socket.notify();
      });
      ws.on('error', () => {
        // The close event that follows carries what happened.
      });
      sockets.push(socket);
      report.sockets.opened += 1;
      if (!(await socket.until(() => history, 15_000))) throw new Error(`socket ${socket.id} to ${session.id} got no history (close ${socket.closeCode} ${socket.closeReason})`);
      return socket;
    };

    let sentinelCounter = 0;
    /** Waits until everything the socket sent has been through the edge: a sentinel frame, answered in order. */
    const drain = async (socket: FuzzSocket): Promise<boolean> => {
      for (let attempt = 0; attempt < (limited ? 40 : 1); attempt += 1) {
        if (!socket.open) return false;
        sentinelCounter += 1;
        const name = `fz-drain-${sentinelCounter}`;
        socket.ws.send(`{"type":"${name}","payload":{}}`);
        report.drainFrames += 1;
        // Under the server's own budgets a sentinel may be refused: wait for the bucket and send another.
        if (await socket.until(() => socket.answeredSentinels.has(name), limited ? 400 : 20_000)) {
          socket.undrained = [];
          return true;
        }
      }
      violate(`socket ${socket.id}: a drain frame was never answered (the socket stopped answering frames)`);
      return false;
    };

    // Slots: learner × session (main index or throwaway) → session and sockets.
    interface Slot {
      session: FuzzSession;
      sockets: FuzzSocket[];
    }
    const slots = new Map<string, Slot>();
    const slotKey = (target: Pick<FrameTarget, 'learner' | 'session'>) => `${target.learner}:${target.session}`;
    const openSlot = async (learner: number, session: number | 'throwaway'): Promise<Slot> => {
      const created = await createSession(learner, session === 'throwaway' ? 'throwaway' : 'main');
      const slot: Slot = { session: created, sockets: [] };
      for (let index = 0; index < socketsPerSession; index += 1) slot.sockets.push(await openSocket(created));
      slots.set(slotKey({ learner, session }), slot);
      return slot;
    };
    const closeGracefully = async (socket: FuzzSocket) => {
      await drain(socket);
      // The drain covers the edge; errors from the session (widget_not_pending) come when its queue
      // reaches them, maybe after a backlog of turns: wait for the ones this socket is sure to get.
      // Wait for all of them (under the default budgets, or for a rate_limited, which excuses the
      // rest: checkLedger): counting by code would let a frame of two possible codes
      // (invalid_payload | widget_not_pending) stand in for one still queued, and the socket would
      // close before that one's error came.
      const answered = () => errorsReceived(socket) >= socket.ledger.must || (limited && (socket.errors.get('rate_limited') ?? 0) > 0);
      await socket.until(() => answered() || socket.session.ended, limited ? 5000 : 20_000);
      socket.closedByFuzzer = true;
      report.sockets.closedByFuzzer += 1;
      socket.ws.close(1000, 'fuzzer reconnects');
    };
    for (let learner = 0; learner < learners; learner += 1) {
      for (let index = 0; index < mainSessions; index += 1) await openSlot(learner, index);
      await openSlot(learner, 'throwaway');
    }
    progress(`server ${baseUrl} (pid ${child.pid}), ${learners} learners, ${sockets.length} sockets; seed ${options.seed}, ${options.frames} steps, limits ${options.limits}`);

    // ---- The steps ----------------------------------------------------------------------
    const chats: SentChat[] = [];
    const chatsByIndex = new Map<number, SentChat>();
    const widgetAnswers: SentWidgetAnswer[] = [];
    const forbiddenMarkers = new Set<string>();
    const rabbitholeMarkers = new Set<string>();

    const expectOn = (socket: FuzzSocket, expectation: FrameExpectation, reachesRoom: boolean) => {
      const { ledger } = socket;
      if (expectation.outcome === 'accepted') {
        if (reachesRoom) ledger.roomAccepted += 1;
        return;
      }
      if (expectation.outcome !== 'error') return;
      ledger.must += 1;
      for (const code of expectation.codes) increment(ledger.max, code);
      if (expectation.codes.length === 1) {
        const code = expectation.codes[0]!;
        increment(roomErrorCodes.includes(code) ? ledger.minRoom : ledger.minEdge, code);
      }
      if (reachesRoom) ledger.roomMust += 1;
    };

    const slotFor = async (target: FrameTarget): Promise<Slot> => {
      let slot = slots.get(slotKey(target))!;
      if (slot.session.kind === 'main' && slot.session.ended) {
        // The server completed a main session (every point recalled): carry on in a fresh one.
        for (const socket of slot.sockets) await closeGracefully(socket);
        slot = await openSlot(target.learner, target.session);
      }
      return slot;
    };

    const sendFrame = async (step: FrameStep): Promise<void> => {
      const slot = await slotFor(step.target);
      const socket = slot.sockets[step.target.socket]!;
      const session = slot.session;
      if (!socket.open) {
        violate(`socket ${socket.id} is not open when frame #${step.index} is due (close ${socket.closeCode} ${socket.closeReason})`);
        return;
      }
      let data = step.data;
      let expectation = step.expect;
      let second: { data: Buffer; expectation: FrameExpectation } | null = null;

      if (step.resendOf !== null) {
        const original = chatsByIndex.get(step.resendOf);
        // A resend goes to the original's session; with other text it must come after it (same socket, or drained).
        const ordered = original && (original.socket === socket || (original.socket.closedByFuzzer && !original.uncertain));
        // Under a budget the original may have been refused, and then other text would rightly be stored: skip those.
        if (!original || original.session !== session || original.uncertain || (step.forbiddenMarkers.length > 0 && (!ordered || limited))) {
          report.framesSkipped += 1;
          return;
        }
        report.chats.resent += 1;
      }
      if (step.widgetAnswer) {
        const widget = session.pendingWidget;
        if (widget && !session.answeredWidgets.has(widget.widgetId)) {
          const roll = step.widgetAnswer.roll;
          const response =
            widget.kind === 'multiple_choice'
              ? { selectedIndex: Math.floor(roll * widget.props.options.length) }
              : widget.kind === 'free_text'
                ? { text: `[fz${step.index}] ${['amber dune', 'kelp onyx', 'willow reef'][Math.floor(roll * 3)]}`.slice(0, widget.props.maxLength) }
                : widget.kind === 'rating'
                  ? { value: widget.props.min + Math.floor(roll * (widget.props.max - widget.props.min + 1)) }
                  : { code: `# [fz${step.index}]\nprint(1)`, language: widget.props.language };
          data = Buffer.from(JSON.stringify({ type: 'widget_response', payload: { widgetId: widget.widgetId, response } }));
          expectation = { outcome: 'accepted' };
          session.answeredWidgets.add(widget.widgetId);
          session.pendingWidget = null;
          session.turnsSent += 1;
          const answer: SentWidgetAnswer = { widgetId: widget.widgetId, session, uncertain: false };
          widgetAnswers.push(answer);
          socket.undrained.push(answer);
          report.widgetAnswers.sent += 1;
          if (step.widgetAnswer.twice) second = { data, expectation: { outcome: 'error', codes: ['widget_not_pending'] } };
        } else {
          data = Buffer.from(JSON.stringify({ type: 'widget_response', payload: { widgetId: `fzw${step.index}`, response: { selectedIndex: 0 } } }));
          expectation = { outcome: 'error', codes: ['widget_not_pending'] };
        }
      }
      if (step.chat) {
        const chat: SentChat = { index: step.index, marker: step.chat.marker, content: step.chat.content, session, socket, uncertain: false };
        chats.push(chat);
        chatsByIndex.set(step.index, chat);
        socket.undrained.push(chat);
        session.turnsSent += 1;
        report.chats.sent += 1;
      }
      for (const marker of step.forbiddenMarkers) forbiddenMarkers.add(marker);
      if (step.kind === 'rabbithole' || step.variant.includes('topic')) for (const marker of markersIn(step.data.toString('utf8'))) rabbitholeMarkers.add(marker);
      if (step.endsSession) {
        // Frames on different sockets reach the server in no set order. The generator predicts
        // "before the end: accepted, after: session_ended", so make it so: what the other
        // sockets sent is through the edge (and queued) before the end is sent.
        session.endedByFuzzer = true;
        for (const other of slot.sockets) if (other !== socket) await drain(other);
      }

      expectOn(socket, expectation, step.reachesRoom);
      socket.journal.push(`→ #${step.index} ${step.kind} ${step.variant.slice(0, 60)} expect ${expectation.outcome === 'error' ? expectation.codes.join('|') : expectation.outcome}`);
      socket.ws.send(data, { binary: step.binary });
      report.framesSent += 1;
      report.framesByKind[step.kind] += 1;
      if (second) {
        expectOn(socket, second.expectation, true);
        socket.ws.send(second.data, { binary: false });
        report.framesSent += 1;
      }
      // ...and nothing is sent to the session before the end has been processed. Under a budget the
      // end may have been refused: send it again (a control frame that may get session_ended) until it lands.
      if (step.endsSession) {
        let confirmed = await socket.until(() => session.ended, limited ? 400 : 20_000);
        for (let attempt = 0; limited && !confirmed && attempt < 60 && socket.open; attempt += 1) {
          socket.ledger.optional += 1;
          increment(socket.ledger.max, 'session_ended');
          socket.ws.send('{"type":"end_session","payload":{}}');
          report.drainFrames += 1;
          confirmed = await socket.until(() => session.ended, 400);
        }
        if (!confirmed) violate(`end_session (frame #${step.index}) was not confirmed by session_complete`);
      }
    };

    const runSocketStep = async (step: SocketStep): Promise<void> => {
      report.socketActions[step.action] += 1;
      if (step.action === 'new_throwaway') {
        const old = slots.get(slotKey(step.target))!;
        for (const socket of old.sockets) await closeGracefully(socket);
        await openSlot(step.target.learner, 'throwaway');
        return;
      }
      const slot = await slotFor(step.target);
      const socket = slot.sockets[step.target.socket]!;
      if (step.action === 'reconnect') {
        await closeGracefully(socket);
      } else {
        // Abrupt: no close handshake, frames in flight may be lost; what they carried becomes uncertain.
        socket.dropped = true;
        report.sockets.dropped += 1;
        for (const sent of socket.undrained) sent.uncertain = true;
        socket.ws.terminate();
      }
      slot.sockets[step.target.socket] = await openSocket(slot.session);
    };

    /** Keeps the tutor's backlog per session short, so widgets come and go during the run (bounded wait). */
    const pace = async (target: FrameTarget) => {
      const slot = slots.get(slotKey(target));
      if (!slot) return;
      const session = slot.session;
      const deadline = Date.now() + 3000;
      // (Under the default budgets most turns are refused: the budget is the pace.)
      while (!limited && !session.ended && session.turnsSent - Math.max(0, session.assistantIds.size - 1) > 8 && Date.now() < deadline) await sleep(10);
      if (sockets.some((socket) => socket.open && socket.ws.bufferedAmount > 1_000_000)) await sleep(5);
      else await new Promise((resolve) => setImmediate(resolve));
    };

    const sendStarted = Date.now();
    let cutShort = false;
    for (const step of generateSteps({ seed: options.seed, learners, mainSessions, socketsPerSession, maxFrameBytes }, options.frames)) {
      if (Date.now() - started > timeLimitMs) {
        cutShort = true;
        break;
      }
      if (exit !== null) break;
      if (step.step === 'frame') await sendFrame(step);
      else await runSocketStep(step);
      report.stepsRun += 1;
      await pace(step.target);
      if (report.stepsRun % 1000 === 0) progress(`${report.stepsRun} steps, ${report.framesSent} frames, ${Math.round((Date.now() - started) / 1000)} s`);
    }
    report.sendMs = Date.now() - sendStarted;
    if (cutShort) violate(`time limit of ${timeLimitMs} ms reached after ${report.stepsRun} of ${options.frames} steps`);

    // ---- Settle ------------------------------------------------------------------------
    const openSockets = () => sockets.filter((socket) => !socket.closedByFuzzer && !socket.dropped);
    await Promise.all(openSockets().map((socket) => drain(socket)));
    const database = new Sqlite(path.join(dataDir, 'tutorloop.sqlite'), { readonly: true, fileMustExist: true });
    try {
      const unanswered = database.prepare(
        "SELECT count(*) AS n FROM messages m JOIN sessions s ON s.id = m.session_id WHERE m.role != 'tutor' AND m.answered_at IS NULL AND s.status NOT IN ('completed', 'abandoned')",
      );
      const settleDeadline = Date.now() + settleTimeoutMs;
      let waiting = (unanswered.get() as { n: number }).n;
      while (waiting > 0 && Date.now() < settleDeadline && exit === null) {
        await sleep(200);
        waiting = (unanswered.get() as { n: number }).n;
      }
      if (waiting > 0) violate(`${waiting} learner messages or widget answers were still unanswered ${settleTimeoutMs} ms after the last frame`);
      // Queued operations after the last turn (answers to widgets that are not pending) report last: wait
      // for every open socket's errors (raised budgets: all of them come), then for quiet.
      const quietDeadline = Date.now() + 10_000;
      const waitingForErrors = () => !limited && openSockets().some((socket) => errorsReceived(socket) < socket.ledger.must);
      while (Date.now() < quietDeadline && (waitingForErrors() || sockets.some((socket) => Date.now() - socket.lastEventAt < 750))) await sleep(100);
      progress(`settled ${Math.round((Date.now() - started) / 1000)} s`);

      // ---- Checks: the process ---------------------------------------------------------
      report.server.alive = exit === null && child.exitCode === null && child.signalCode === null;
      if (!report.server.alive) violate(`the server process exited: ${exit}`);
      try {
        const health = await request<{ status?: string }>('GET', '/api/health');
        report.server.healthOk = health.status === 200 && health.body.status === 'ok';
      } catch (error) {
        report.server.healthOk = false;
        violate(`/api/health failed: ${(error as Error).message}`);
      }
      if (!report.server.healthOk) violate('/api/health did not answer 200 {status:"ok"}');
      report.server.rssMb = readRssMb(child.pid);
      if (report.server.errorLogLines > 0) violate(`the server logged ${report.server.errorLogLines} errors, e.g. ${errorLines.slice(0, 5).join(' | ')}`);
      if (report.server.internalErrorEvents > 0) violate(`${report.server.internalErrorEvents} \`internal\` error events (an exception inside frame handling)`);

      // ---- Checks: sockets and error events ---------------------------------------------
      for (const socket of sockets) {
        if (!socket.closedByFuzzer && !socket.dropped && !socket.open) {
          report.sockets.closedByServer += 1;
          violate(`socket ${socket.id} (session ${socket.session.id}) was closed by the server: ${socket.closeCode} ${socket.closeReason}`);
        }
        const before = violations.length;
        checkLedger(socket, limited, violate);
        report.errorAccounting.rateLimitedEvents += socket.errors.get('rate_limited') ?? 0;
        if (socket.dropped || limited) {
          // Frames in flight on a dropped socket, or refused by a budget, may never be answered.
          report.errorAccounting.socketsWithoutLowerBound += 1;
        } else {
          report.errorAccounting.framesThatMustGetError += socket.ledger.must;
          for (const [code, count] of socket.errors) if (code !== 'rate_limited') report.errorAccounting.errorEventsReceived += count;
        }
        // FUZZ_DEBUG=1: what a failing socket sent and got, to reduce a violation to its frames.
        if (violations.length > before && process.env.FUZZ_DEBUG) progress(`journal of socket ${socket.id}:\n  ${socket.journal.join('\n  ')}`);
      }
      if (!limited && (report.errorsByCode.rate_limited ?? 0) > 0) violate(`${report.errorsByCode.rate_limited} rate_limited errors with raised budgets`);
      if (limited && (report.errorsByCode.rate_limited ?? 0) === 0) violate('no rate_limited error under the default budgets: the run did not reach them');

      // ---- Checks: the database ---------------------------------------------------------
      report.sessions.endedByFuzzer = [...sessionsById.values()].filter((session) => session.endedByFuzzer).length;
      checkDatabase(database, { chats, widgetAnswers, forbiddenMarkers, rabbitholeMarkers, sessionsById, limited, report, violate });
      if (limited) checkBudgets(database, sessionsById, learners, report.sendMs, violate, notes);
      await checkReplay(database, sessionsById, tokens, request, report, violate);
    } finally {
      database.close();
    }

    // ---- Shut down ------------------------------------------------------------------------
    for (const socket of openSockets()) {
      socket.closedByFuzzer = true;
      socket.ws.close(1000, 'fuzz run over');
    }
    if (exit === null) {
      child.kill('SIGTERM');
      const deadline = Date.now() + 10_000;
      while (exit === null && Date.now() < deadline) await sleep(50);
      report.server.cleanShutdown = exit === 'code 0';
      if (!report.server.cleanShutdown) notes.push(`after SIGTERM the server ended with ${exit ?? 'nothing within 10 s'}`);
    }
  } catch (error) {
    violate(`the run itself failed: ${(error as Error).stack ?? String(error)}`);
  } finally {
    for (const socket of sockets) if (socket.ws.readyState !== WebSocket.CLOSED) socket.ws.terminate();
    if (server && server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    report.server.exit = exit;
    // An exit before the fuzzer's own SIGTERM is a crash, whatever else happened.
    const died = report.server.cleanShutdown === null && exit !== null;
    report.crashes = (died ? 1 : 0) + report.server.uncaughtExceptions + report.server.internalErrorEvents;
    if (died && !violations.some((violation) => violation.startsWith('the server process exited'))) violations.unshift(`the server process exited: ${exit}`);
    report.durationMs = Date.now() - started;
    if (options.keepDataDir) report.dataDir = dataDir;
    else rmSync(dataDir, { recursive: true, force: true });
  }
  return report;
}

// ---------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------

/** Error events a socket received, rate_limited aside (those answer a budget, not a frame). */
function errorsReceived(socket: FuzzSocket): number {
  return [...socket.errors].filter(([code]) => code !== 'rate_limited').reduce((sum, [, count]) => sum + count, 0);
}

/** Every bad frame got one error of a predicted code; nothing got more than it may. */
function checkLedger(socket: FuzzSocket, limited: boolean, violate: (message: string) => void): void {
  const { ledger } = socket;
  // A session the server ended on its own (every point recalled) may refuse anything that reached
  // it with session_ended; one the fuzzer ended is predicted exactly by the generator.
  const sessionEnded = socket.session.ended && !socket.session.endedByFuzzer;
  const received = errorsReceived(socket);
  const rateLimited = socket.errors.get('rate_limited') ?? 0;
  const max = new Map(ledger.max);
  let may = ledger.must + ledger.optional;
  if (sessionEnded) {
    // Anything that reached an ended session may have been refused as session_ended instead.
    increment(max, 'session_ended', ledger.roomAccepted + ledger.roomMust);
    may += ledger.roomAccepted;
  }
  const label = `socket ${socket.id} (${socket.session.kind} session ${socket.session.id.slice(0, 8)})`;
  const lowerBounds = !socket.dropped && !limited;
  if (lowerBounds && received < ledger.must) violate(`${label}: ${ledger.must - received} bad frames got no error event (${ledger.must} must, ${received} received)`);
  // A dropped socket may lose what was on its way, rate_limited included: no lower bound for it.
  if (limited && !socket.dropped && received < ledger.must && rateLimited === 0) violate(`${label}: ${ledger.must - received} frames got no answer, and no rate_limited either`);
  if (received > may) violate(`${label}: ${received} error events for ${may} frames that may get one`);
  for (const [code, count] of socket.errors) {
    if (code === 'rate_limited' || code === 'internal' || code === 'llm_unavailable') continue;
    if (count > (max.get(code) ?? 0)) violate(`${label}: ${count} \`${code}\` errors, at most ${max.get(code) ?? 0} expected`);
  }
  if (!lowerBounds) return;
  const mins = sessionEnded ? [ledger.minEdge] : [ledger.minEdge, ledger.minRoom];
  for (const minimums of mins) {
    for (const [code, count] of minimums) {
      const got = socket.errors.get(code) ?? 0;
      if (got < count) violate(`${label}: ${got} \`${code}\` errors, at least ${count} expected`);
    }
  }
}

interface MessageRow {
  id: string;
  session_id: string;
  seq: number;
  role: string;
  content: string;
  content_hex: string;
  client_message_id: string | null;
  client_id_hex: string | null;
  widget_answer: string | null;
  widget_answer_hex: string | null;
  answered_at: number | null;
}

const hexOf = (value: string) => Buffer.from(value, 'utf8').toString('hex').toUpperCase();

function checkDatabase(
  database: Sqlite.Database,
  context: {
    chats: SentChat[];
    widgetAnswers: SentWidgetAnswer[];
    forbiddenMarkers: Set<string>;
    rabbitholeMarkers: Set<string>;
    sessionsById: Map<string, FuzzSession>;
    limited: boolean;
    report: FuzzReport;
    violate: (message: string) => void;
  },
): void {
  const { report, violate, limited } = context;
  const integrity = database.pragma('integrity_check') as Array<{ integrity_check: string }>;
  report.database.integrity = integrity.map((row) => row.integrity_check).join('; ');
  if (report.database.integrity !== 'ok') violate(`PRAGMA integrity_check: ${report.database.integrity}`);
  report.database.foreignKeyViolations = (database.pragma('foreign_key_check') as unknown[]).length;
  if (report.database.foreignKeyViolations > 0) violate(`${report.database.foreignKeyViolations} rows break a foreign key`);

  const rows = database
    .prepare(
      `SELECT id, session_id, seq, role, content, hex(CAST(content AS BLOB)) AS content_hex,
              client_message_id, hex(CAST(client_message_id AS BLOB)) AS client_id_hex,
              widget_answer, hex(CAST(widget_answer AS BLOB)) AS widget_answer_hex, answered_at
         FROM messages ORDER BY session_id, seq`,
    )
    .all() as MessageRow[];
  report.database.messages = rows.length;
  report.database.learnerMessages = rows.filter((row) => row.role === 'learner').length;
  report.database.tutorMessages = rows.filter((row) => row.role === 'tutor').length;

  // Every stored text is valid UTF-8: the bytes SQLite holds are the UTF-8 encoding of the string read back.
  const badUtf8 = (value: string | null, hex: string | null) => value !== null && hex !== hexOf(value);
  for (const row of rows) {
    for (const [column, value, hex] of [
      ['content', row.content, row.content_hex],
      ['client_message_id', row.client_message_id, row.client_id_hex],
      ['widget_answer', row.widget_answer, row.widget_answer_hex],
    ] as const) {
      if (badUtf8(value, hex)) {
        report.database.invalidUtf8Values += 1;
        violate(`messages ${row.id}.${column} is not valid UTF-8 (hex ${String(hex).slice(0, 60)})`);
      }
    }
  }
  // A recall session's rabbit-hole topic lives in its per-type state (JSON in `type_state`).
  const sessionRows = database
    .prepare("SELECT id, status, type_state, hex(CAST(type_state AS BLOB)) AS state_hex, json_extract(type_state, '$.rabbitholeTopic') AS topic FROM sessions")
    .all() as Array<{ id: string; status: string; type_state: string | null; state_hex: string | null; topic: string | null }>;
  const statusOf = new Map(sessionRows.map((row) => [row.id, row.status]));
  const isEnded = (sessionId: string) => ['completed', 'abandoned'].includes(statusOf.get(sessionId) ?? '');
  for (const row of sessionRows) {
    if (badUtf8(row.type_state, row.state_hex)) {
      report.database.invalidUtf8Values += 1;
      violate(`sessions ${row.id}.type_state is not valid UTF-8`);
    }
    for (const marker of markersIn(row.topic ?? '')) {
      if (context.forbiddenMarkers.has(marker) || !context.rabbitholeMarkers.has(marker)) {
        report.database.refusedTextStored += 1;
        violate(`session ${row.id} has the rabbit-hole topic of a refused frame ${marker}`);
      }
    }
  }

  // Duplicates the unique indexes should make impossible.
  const duplicateSeq = database.prepare('SELECT count(*) AS n FROM (SELECT 1 FROM messages GROUP BY session_id, seq HAVING count(*) > 1)').get() as { n: number };
  const duplicateClientId = database.prepare('SELECT count(*) AS n FROM (SELECT 1 FROM messages WHERE client_message_id IS NOT NULL GROUP BY session_id, client_message_id HAVING count(*) > 1)').get() as { n: number };
  report.database.duplicatedRows += duplicateSeq.n + duplicateClientId.n;
  if (duplicateSeq.n + duplicateClientId.n > 0) violate(`${duplicateSeq.n} duplicated (session, seq) and ${duplicateClientId.n} duplicated (session, clientMessageId)`);

  // Learner rows by marker; none may carry a refused frame's text or come from nowhere.
  const learnerRowsByMarker = new Map<string, MessageRow[]>();
  for (const row of rows) {
    if (row.role === 'tutor') continue;
    const markers = markersIn(row.content);
    for (const marker of markers) {
      if (context.forbiddenMarkers.has(marker)) {
        report.database.refusedTextStored += 1;
        violate(`${row.role} message ${row.id} stores the text of a refused or shadowed frame ${marker}: ${JSON.stringify(row.content.slice(0, 80))}`);
      }
    }
    if (row.role !== 'learner') continue;
    if (markers.length === 0) violate(`learner message ${row.id} carries no fuzzer marker: ${JSON.stringify(row.content.slice(0, 80))}`);
    for (const marker of new Set(markers)) learnerRowsByMarker.set(marker, [...(learnerRowsByMarker.get(marker) ?? []), row]);
  }

  const chatMarkers = new Set(context.chats.map((chat) => chat.marker));
  for (const [marker, found] of learnerRowsByMarker) {
    if (!chatMarkers.has(marker) && !context.forbiddenMarkers.has(marker)) violate(`learner message ${found[0]!.id} has marker ${marker} of no chat the fuzzer sent`);
  }
  for (const chat of context.chats) {
    const found = learnerRowsByMarker.get(chat.marker) ?? [];
    const own = found.filter((row) => row.session_id === chat.session.id);
    if (own.length !== found.length) violate(`chat ${chat.marker} was stored in another session than the one it was sent to`);
    if (own.length > 1) {
      report.chats.duplicated += 1;
      violate(`chat ${chat.marker} is stored ${own.length} times`);
      continue;
    }
    const row = own[0];
    const ended = isEnded(chat.session.id);
    if (!row) {
      if (chat.uncertain || limited || ended) report.chats.notStoredAllowed += 1;
      else {
        report.chats.lost += 1;
        violate(`chat ${chat.marker} (frame #${chat.index}) was accepted but never stored`);
      }
      continue;
    }
    report.chats.storedOnce += 1;
    if (row.content !== chat.content) {
      report.chats.wrongContent += 1;
      violate(`chat ${chat.marker} stored as ${JSON.stringify(row.content.slice(0, 120))}, expected ${JSON.stringify(chat.content.slice(0, 120))}`);
    }
    if (row.answered_at !== null) report.chats.answered += 1;
    else if (ended) report.chats.storedUnansweredSessionEnded += 1;
    else violate(`chat ${chat.marker} (frame #${chat.index}) was stored but never answered`);
  }

  // Widget answers: each stored at most once, answered unless the session ended.
  const widgetRows = new Map<string, MessageRow[]>();
  for (const row of rows) {
    if (row.role !== 'tool_result' || !row.widget_answer) continue;
    const widgetId = (JSON.parse(row.widget_answer) as { widgetId: string }).widgetId;
    widgetRows.set(widgetId, [...(widgetRows.get(widgetId) ?? []), row]);
  }
  for (const [widgetId, found] of widgetRows) {
    if (found.length > 1) {
      report.widgetAnswers.duplicated += 1;
      violate(`widget ${widgetId} has ${found.length} stored answers`);
    }
  }
  for (const answer of context.widgetAnswers) {
    const found = widgetRows.get(answer.widgetId)?.[0];
    const ended = isEnded(answer.session.id);
    if (!found) {
      if (!answer.uncertain && !limited && !ended) violate(`the answer to widget ${answer.widgetId} was accepted but never stored`);
      continue;
    }
    report.widgetAnswers.stored += 1;
    if (found.answered_at !== null) report.widgetAnswers.answered += 1;
    else if (!ended) violate(`the answer to widget ${answer.widgetId} was stored but never answered`);
  }

  // One tutor reply per answered learner message or widget answer, plus the opening one.
  const perSession = new Map<string, { tutor: number; answeredInputs: number; inputs: number }>();
  for (const row of rows) {
    const entry = perSession.get(row.session_id) ?? { tutor: 0, answeredInputs: 0, inputs: 0 };
    if (row.role === 'tutor') entry.tutor += 1;
    else if (row.role === 'learner' || row.widget_answer !== null) {
      entry.inputs += 1;
      if (row.answered_at !== null) entry.answeredInputs += 1;
    }
    perSession.set(row.session_id, entry);
  }
  for (const [sessionId, entry] of perSession) {
    const extra = entry.tutor - entry.answeredInputs - 1;
    if (extra > 0 || (extra < 0 && !(extra === -1 && isEnded(sessionId) && entry.inputs === 0))) {
      report.database.extraTutorReplies += Math.max(0, extra);
      violate(`session ${sessionId}: ${entry.tutor} tutor replies for ${entry.answeredInputs} answered learner inputs (expected one more, the opening)`);
    }
  }
}

/** Under the server's own budgets, no learner got more turns stored than the budget allows. */
function checkBudgets(database: Sqlite.Database, sessionsById: Map<string, FuzzSession>, learners: number, sendMs: number, violate: (message: string) => void, notes: string[]): void {
  const turnsPerMinute = 30;
  const allowed = turnsPerMinute + Math.ceil((sendMs / 60_000) * turnsPerMinute) + 1;
  for (let learner = 0; learner < learners; learner += 1) {
    const ids = [...sessionsById.values()].filter((session) => session.learner === learner).map((session) => session.id);
    const placeholders = ids.map(() => '?').join(',');
    const { n } = database.prepare(`SELECT count(*) AS n FROM messages WHERE session_id IN (${placeholders}) AND (role = 'learner' OR widget_answer IS NOT NULL)`).get(...ids) as { n: number };
    if (n > allowed) violate(`learner ${learner}: ${n} turns stored, the default budget allows at most ${allowed} in ${Math.round(sendMs / 1000)} s`);
    notes.push(`learner ${learner}: ${n} turns stored under the default budget (at most ${allowed})`);
  }
}

/** The replay endpoint shows exactly the visible rows of the table, once each, in order, with the same text. */
async function checkReplay(
  database: Sqlite.Database,
  sessionsById: Map<string, FuzzSession>,
  tokens: string[],
  request: <T>(method: string, route: string, body?: unknown, token?: string) => Promise<{ status: number; body: T }>,
  report: FuzzReport,
  violate: (message: string) => void,
): Promise<void> {
  const visible = database.prepare("SELECT id, content FROM messages WHERE session_id = ? AND (role != 'tool_result' OR widget_answer IS NOT NULL) ORDER BY seq");
  for (const session of sessionsById.values()) {
    const replay = await request<{ messages: Array<{ id: string; content: string }> }>('GET', `/api/sessions/${session.id}/replay`, undefined, tokens[session.learner]);
    if (replay.status !== 200) {
      report.database.replayMismatches += 1;
      violate(`GET /api/sessions/${session.id}/replay answered ${replay.status}`);
      continue;
    }
    const stored = visible.all(session.id) as Array<{ id: string; content: string }>;
    const shown = replay.body.messages.map((message) => ({ id: message.id, content: message.content }));
    if (JSON.stringify(shown) !== JSON.stringify(stored)) {
      report.database.replayMismatches += 1;
      violate(`the replay of session ${session.id} differs from the messages table (${shown.length} shown, ${stored.length} stored)`);
    }
  }
}

function readRssMb(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    // Linux only; elsewhere the figure is simply absent.
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /VmRSS:\s+(\d+) kB/.exec(status);
    return match ? Math.round(Number(match[1]) / 1024) : null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------
// Printing
// ---------------------------------------------------------------------------

/** The report as aligned tables and a final one-line verdict. */
export function formatReport(report: FuzzReport): string {
  const lines: string[] = [];
  const table = (title: string, rows: Array<[string, string | number | boolean | null]>) => {
    lines.push(title);
    const width = Math.max(...rows.map(([key]) => key.length));
    for (const [key, value] of rows) lines.push(`  ${key.padEnd(width)}  ${String(value)}`);
  };
  table(`Fuzz run — seed ${report.seed}, limits ${report.limits}`, [
    ['steps run / planned', `${report.stepsRun} / ${report.stepsPlanned}`],
    ['frames sent', report.framesSent],
    ['frames skipped', report.framesSkipped],
    ['drain frames', report.drainFrames],
    ['time (total / sending)', `${(report.durationMs / 1000).toFixed(1)} s / ${(report.sendMs / 1000).toFixed(1)} s`],
  ]);
  table('Frames by kind', Object.entries(report.framesByKind).sort(([, a], [, b]) => b - a));
  table('Socket actions', Object.entries(report.socketActions));
  table('Errors received by code', Object.entries(report.errorsByCode).sort(([, a], [, b]) => b - a));
  table('Valid chats', Object.entries(report.chats));
  table('Widget answers', Object.entries(report.widgetAnswers));
  table('Error accounting', Object.entries(report.errorAccounting));
  table('Sessions', Object.entries(report.sessions));
  table('Sockets', Object.entries(report.sockets));
  table('Server', Object.entries(report.server));
  table('Database', Object.entries(report.database));
  if (report.notes.length > 0) table('Notes', report.notes.map((note, index) => [`${index + 1}`, note]));
  if (report.violations.length > 0) table('VIOLATIONS', report.violations.map((violation, index) => [`${index + 1}`, violation]));
  if (report.dataDir) lines.push(`data kept in ${report.dataDir}`);
  lines.push(verdict(report));
  return lines.join('\n');
}

/** One line: what ran and whether every invariant held. */
export function verdict(report: FuzzReport): string {
  const outcome = report.violations.length === 0 ? 'OK' : `FAILED (${report.violations.length} violations)`;
  return `fuzz ${outcome}: seed ${report.seed}, ${report.framesSent} frames in ${(report.durationMs / 1000).toFixed(1)} s, crashes ${report.crashes}, duplicated rows ${report.database.duplicatedRows + report.chats.duplicated + report.widgetAnswers.duplicated}, integrity ${report.database.integrity}`;
}
