/**
 * What every session room shares, whatever the session type: the listeners (all open
 * sockets of the session, and HTTP steps), a queue that runs one operation at a time in
 * arrival order, broadcasting, cancellation of in-flight work, and the grace period after
 * the last socket left (SPEC §4, §7). The type-specific engine lives in the subclasses.
 */
import type { ClientMessage, ErrorCode, HistoryMessage, ServerEvent, SessionState, SessionSummary } from '@tutorloop/shared';
import { budgetRefusalMessage, refusedOperationNotes, type ModelBudget, type ModelOperation } from '../limits/model-budget';
import type { Logger } from '../ports';
import type { ChatOutcome } from './inbox';

export type SessionListener = (event: ServerEvent) => void;

export interface RoomBaseDeps {
  logger: Logger;
  /**
   * How long work keeps running once nobody listens (the last socket closed for good), in
   * ms; then in-flight model calls are cancelled. What the learner sent stays stored and is
   * answered when they reconnect. Default 30 s.
   */
  socketGraceMs?: number;
}

export abstract class RoomBase {
  protected readonly listeners = new Set<SessionListener>();
  /** How to cut off a listener's connection when the session is deleted. */
  private readonly terminators = new Map<SessionListener, () => void>();
  private queue: Promise<void> = Promise.resolve();
  private pendingOperations = 0;
  private controller = new AbortController();
  private abandonTimer: NodeJS.Timeout | null = null;
  /** Counts this room's commits, so a read that raced one can tell and read again. */
  private commits = 0;

  constructor(
    readonly sessionId: string,
    private readonly baseDeps: RoomBaseDeps,
    /** Called when the room becomes idle after work finished, so the hub can drop it. */
    private readonly onIdle: () => void = () => {},
  ) {}

  /**
   * Attaches a listener: it first receives the opening events of SPEC §5 (`state_update`,
   * the pending `widget`, `history`); the session resumes if it was interrupted.
   * `terminate` closes the listener's connection if the session is deleted.
   */
  abstract attach(listener: SessionListener, terminate?: () => void): Promise<void>;
  /** Handles one validated client message; `reply` reaches only the sender (errors meant for it). */
  abstract handle(message: ClientMessage, reply: SessionListener): Promise<void>;
  /**
   * Picks up whatever an interruption (a crash, a dropped socket) left undone. It only queues
   * the check, so a message handled right after it is stored before the check reads.
   */
  abstract resume(): void;
  abstract state(): Promise<SessionState>;
  abstract history(): Promise<HistoryMessage[]>;
  /** The summary once the session has ended, else null. */
  abstract summary(): Promise<SessionSummary | null>;

  /** True while nothing is queued or running and nobody listens: the hub may drop the room. */
  get idle(): boolean {
    return this.pendingOperations === 0 && this.listeners.size === 0;
  }

  /** Adds a listener without the opening events (an HTTP step collecting its turn's events). */
  subscribe(listener: SessionListener): void {
    this.register(listener);
  }

  detach(listener: SessionListener): void {
    this.listeners.delete(listener);
    this.terminators.delete(listener);
    if (this.listeners.size > 0 || this.pendingOperations === 0 || this.abandonTimer) return;
    // Nobody is left to hear the reply: give them a moment to come back, then stop paying for it.
    this.abandonTimer = setTimeout(() => {
      this.abandonTimer = null;
      if (this.listeners.size > 0 || this.pendingOperations === 0) return;
      this.baseDeps.logger.info({ sessionId: this.sessionId }, 'no socket came back; in-flight work cancelled');
      this.controller.abort();
    }, this.baseDeps.socketGraceMs ?? 30_000);
    this.abandonTimer.unref();
  }

  /** Cuts off every listener (the session was deleted): their connections are closed. */
  terminate(): void {
    const terminators = [...this.terminators.values()];
    this.terminators.clear();
    this.listeners.clear();
    for (const cut of terminators) cut();
  }

  /** Waits until everything queued so far has run (used by HTTP steps and shutdown). */
  async settled(): Promise<void> {
    let current: Promise<void>;
    do {
      current = this.queue;
      await current;
    } while (current !== this.queue);
  }

  /** Cancels in-flight work (server shutdown). */
  close(): void {
    if (this.abandonTimer) clearTimeout(this.abandonTimer);
    this.controller.abort();
  }

  protected register(listener: SessionListener, terminate?: () => void): void {
    if (this.abandonTimer) {
      clearTimeout(this.abandonTimer);
      this.abandonTimer = null;
    }
    this.listeners.add(listener);
    if (terminate) this.terminators.set(listener, terminate);
  }

  /** Marks that this room committed a change (call right after the transaction resolves). */
  protected noteCommit(): void {
    this.commits += 1;
  }

  /**
   * Reads with `load` until no commit of this room happened meanwhile: the opening events a
   * listener receives then never miss a reply that was broadcast while they were being read.
   */
  protected async consistentRead<T>(load: () => Promise<T>): Promise<T> {
    for (;;) {
      const before = this.commits;
      const value = await load();
      if (before === this.commits) return value;
    }
  }

  /** Runs `operation` after everything queued before it; a failure is logged and reported. */
  protected enqueue(operation: () => Promise<void>): Promise<void> {
    this.pendingOperations += 1;
    const run = this.queue.then(operation).catch((error: unknown) => {
      this.baseDeps.logger.error({ err: error, sessionId: this.sessionId }, 'session operation failed');
      this.broadcast({ type: 'error', payload: { code: 'internal', message: 'Something went wrong on our side; your message is saved — try again.' } });
    });
    this.queue = run.finally(() => {
      this.pendingOperations -= 1;
      if (this.idle) this.onIdle();
    });
    return this.queue;
  }

  protected broadcast(event: ServerEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.baseDeps.logger.warn({ err: error, sessionId: this.sessionId }, 'listener failed');
      }
    }
  }

  /**
   * What a chat the inbox stored leads to (inbox.ts `storeChat`): a new message, or a resend
   * never answered, queues `process`; an answered resend is ignored; an ended session refuses
   * with `session_ended` and `endedMessage`.
   */
  protected followChat(outcome: ChatOutcome, reply: SessionListener, endedMessage: string, process: () => Promise<void>): Promise<void> | void {
    switch (outcome) {
      case 'missing':
        return;
      case 'ended':
        return this.fail(reply, 'session_ended', endedMessage);
      case 'duplicate':
        this.baseDeps.logger.debug({ sessionId: this.sessionId }, 'duplicate chat ignored');
        return;
      case 'stored':
        this.noteCommit();
        return this.enqueue(process);
      case 'retry':
        return this.enqueue(process);
      default: {
        const unreachable: never = outcome;
        throw new Error(`unknown outcome ${String(unreachable)}`);
      }
    }
  }

  protected fail(reply: SessionListener, code: ErrorCode, message: string): void {
    reply({ type: 'error', payload: { code, message } });
  }

  /**
   * Charges a model operation to the learner's budget (SPEC §8) — call it before the operation
   * writes anything. Refused: a `rate_limited` error saying when to retry, to `reply` (or, for
   * work nobody asked for by a frame, such as an opening, to everyone listening), and false.
   */
  protected async admit(budget: ModelBudget, learnerId: string, operation: ModelOperation, reply?: SessionListener): Promise<boolean> {
    const verdict = await budget.charge(learnerId, operation);
    if (verdict.ok) return true;
    this.baseDeps.logger.info({ sessionId: this.sessionId, operation, budget: verdict.budget }, 'model operation refused by the learner’s budget');
    const event: ServerEvent = { type: 'error', payload: { code: 'rate_limited', message: budgetRefusalMessage(verdict, refusedOperationNotes[operation]) } };
    if (reply) reply(event);
    else this.broadcast(event);
    return false;
  }

  /** The signal for new work; a fresh one once the previous was aborted. */
  protected freshSignal(): AbortSignal {
    if (this.controller.signal.aborted) this.controller = new AbortController();
    return this.controller.signal;
  }

  /** Aborts what is in flight now (e.g. so that ending a session does not wait for a model). */
  protected cancelInFlight(): void {
    this.controller.abort();
  }
}
