/**
 * The bench's WebSocket clients: one socket per session, each running learner turns in a
 * closed loop (send `chat`, wait for the reply, maybe think, send the next). A socket keeps
 * only the type and arrival time of each event, so 1,000 of them stay cheap.
 */
import WebSocket, { type RawData } from 'ws';
import { epochNow, seededRandom, sleep } from './clock';

export interface TurnObservation {
  /** The learner message text: the key the fake provider recorded the turn under. */
  key: string;
  sentAt: number;
  /** First `assistant_delta` after sending (null for the echo baseline). */
  firstDeltaAt: number | null;
  assistantAt: number;
}

export type TurnOutcome = { ok: true; value: TurnObservation } | { ok: false; error: string };

interface ArrivedEvent {
  type: string;
  at: number;
  code?: string;
}

const waitTimeoutMs = 60_000;

export class BenchSocket {
  private events: ArrivedEvent[] = [];
  private waiter: { types: readonly string[]; from: number; resolve: (index: number) => void } | null = null;
  private closed = false;

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => this.handleFrame(data));
    socket.on('error', () => {
      // 'close' follows and fails any waiter.
    });
    socket.on('close', () => {
      this.closed = true;
      this.events.push({ type: 'closed', at: epochNow() });
      this.check();
    });
  }

  static open(url: string): Promise<BenchSocket> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { perMessageDeflate: false });
      const client = new BenchSocket(socket);
      socket.once('open', () => resolve(client));
      socket.once('error', reject);
    });
  }

  get isOpen(): boolean {
    return !this.closed && this.socket.readyState === WebSocket.OPEN;
  }

  private handleFrame(data: RawData): void {
    const at = epochNow();
    const event = JSON.parse(data.toString()) as { type: string; payload?: { code?: string } };
    this.events.push(event.type === 'error' ? { type: event.type, at, code: event.payload?.code ?? 'unknown' } : { type: event.type, at });
    this.check();
  }

  private check(): void {
    const waiter = this.waiter;
    if (!waiter) return;
    for (let index = waiter.from; index < this.events.length; index += 1) {
      const type = this.events[index]!.type;
      if (waiter.types.includes(type) || type === 'closed') {
        this.waiter = null;
        waiter.resolve(index);
        return;
      }
    }
  }

  /** Index of the first event of one of `types` at or after `from` (a close also ends the wait). */
  private waitFor(types: readonly string[], from: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiter = null;
        reject(new Error(`timed out waiting for ${types.join('|')}; got ${this.events.slice(from).map((event) => event.type).join(',') || 'nothing'}`));
      }, waitTimeoutMs);
      this.waiter = {
        types,
        from,
        resolve: (index) => {
          clearTimeout(timer);
          resolve(index);
        },
      };
      this.check();
    });
  }

  /** Waits for the opening turn of a new session: the tutor's greeting and the state after it. */
  async waitForGreeting(): Promise<void> {
    const assistant = await this.waitFor(['assistant', 'error'], 0);
    const event = this.events[assistant]!;
    if (event.type !== 'assistant') throw new Error(`no greeting: ${event.type}${event.code ? ` ${event.code}` : ''}`);
    await this.waitFor(['state_update'], assistant + 1);
    this.events = [];
  }

  /** Waits for the attach events of a socket joining a session whose greeting another socket had (its `history`), then forgets them. */
  async waitForAttach(): Promise<void> {
    await this.waitFor(['history'], 0);
    this.events = [];
  }

  /** Arrival times of the events of `type` so far (a watching socket never sends, so it keeps them all). */
  arrivals(type: string): number[] {
    return this.events.filter((event) => event.type === type).map((event) => event.at);
  }

  /**
   * One learner turn: `sentAt` → first `assistant_delta` → `assistant`. With
   * `awaitStateUpdate` the turn ends at the `state_update` that follows the reply, as a real
   * client's would before the learner types again.
   */
  async turn(message: string, clientMessageId: string, awaitStateUpdate: boolean): Promise<TurnOutcome> {
    if (!this.isOpen) return { ok: false, error: 'socket closed' };
    this.events = [];
    const sentAt = epochNow();
    this.socket.send(JSON.stringify({ type: 'chat', payload: { message, clientMessageId } }));
    try {
      const replyIndex = await this.waitFor(['assistant', 'error', 'session_complete'], 0);
      const reply = this.events[replyIndex]!;
      if (reply.type !== 'assistant') return { ok: false, error: reply.code ? `error ${reply.code}` : reply.type };
      const firstDelta = this.events.slice(0, replyIndex).find((event) => event.type === 'assistant_delta');
      if (awaitStateUpdate) await this.waitFor(['state_update', 'session_complete'], replyIndex + 1);
      return { ok: true, value: { key: message, sentAt, firstDeltaAt: firstDelta?.at ?? null, assistantAt: reply.at } };
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.socket.terminate();
        resolve();
      }, 5_000);
      this.socket.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      this.socket.close();
    });
  }
}

/** The learner's message for one turn; unique per phase, session and turn (it keys the fake's records). */
export function learnerMessage(phase: string, session: number, turn: number): string {
  const answers = [
    'I think the protons flow back through ATP synthase and that spins it to make ATP.',
    'Something about oxygen at the end of the chain, it gets turned into water?',
    'NADH gives its electrons to the first complex, I remember that much.',
    'The gradient is built in the space between the two membranes, by pumping.',
  ];
  return `(${phase} ${session}.${turn}) ${answers[(session + turn) % answers.length]}`;
}

export interface LoadOptions {
  phase: string;
  turns: number;
  /** Learner think time after each reply, ms. */
  thinkMs: number;
  /** Each session starts at a random offset in [0, stagger) ms, so turns do not arrive in lockstep. */
  staggerMs: number;
  awaitStateUpdate: boolean;
  seed: number;
}

export interface LoadResult {
  observations: TurnObservation[];
  failures: string[];
  startedAt: number;
  endedAt: number;
}

/** Runs `turns` learner turns on every socket at once, each socket in its own closed loop. */
export async function runClosedLoop(sockets: readonly BenchSocket[], options: LoadOptions): Promise<LoadResult> {
  const random = seededRandom(options.seed);
  const offsets = sockets.map(() => Math.floor(random() * options.staggerMs));
  const observations: TurnObservation[] = [];
  const failures: string[] = [];
  const startedAt = epochNow();
  await Promise.all(
    sockets.map(async (socket, session) => {
      if (offsets[session]) await sleep(offsets[session]!);
      for (let turn = 1; turn <= options.turns; turn += 1) {
        const outcome = await socket.turn(learnerMessage(options.phase, session, turn), `${options.phase}-${session}-${turn}`, options.awaitStateUpdate);
        if (!outcome.ok) {
          failures.push(outcome.error);
          if (!socket.isOpen) return;
          continue;
        }
        observations.push(outcome.value);
        if (options.thinkMs > 0) await sleep(options.thinkMs);
      }
    }),
  );
  return { observations, failures, startedAt, endedAt: epochNow() };
}
