/**
 * What every session room shares, whatever the session type: the listeners (all open
 * sockets of the session, and HTTP steps), a queue that runs one operation at a time in
 * arrival order, broadcasting, cancellation of in-flight work, the grace period after the
 * last socket left (SPEC §4, §7), the opening events a listener gets on attach, the views read
 * from the stored session, and the switch over client frames (SPEC §5). A type declares which
 * frames it takes (`frames`) with its hooks for them; the rest lives in the subclasses.
 */
import type { ClientMessage, ErrorCode, HistoryMessage, ServerEvent, SessionState, SessionSummary, WidgetAnswer } from '@tutorloop/shared';
import { budgetRefusalMessage, refusedOperationNotes, type ModelBudget, type ModelOperation } from '../limits/model-budget';
import type { Clock, Logger } from '../ports';
import type { SessionSnapshot } from '../storage/session-snapshot';
import type { SessionUpdate, StoredSession } from '../storage/sessions';
import type { Storage, StorageTx } from '../storage/storage';
import { isStorageError } from '../storage/storage-error';
import type { ChatOutcome } from './inbox';
import { buildHistory, isEnded } from './session-view';

export type SessionListener = (event: ServerEvent) => void;

/** A snapshot without messages: enough for the state, the summary and what resume needs. */
export const noMessages = { lastMessages: 0 } as const;

export interface RoomBaseDeps {
  storage: Storage;
  clock: Clock;
  logger: Logger;
  /**
   * How long work keeps running once nobody listens (the last socket closed for good), in
   * ms; then in-flight model calls are cancelled. What the learner sent stays stored and is
   * answered when they reconnect. Default 30 s.
   */
  socketGraceMs?: number;
}

/**
 * How a type answers one kind of client frame: its hook, or — a frame it does not take — the
 * words it is refused with, under that frame's error code (SPEC §5: `chat` and `rabbithole`
 * `invalid_payload`, `widget_response` `widget_not_pending`, `stop` `nothing_to_stop`, `retry`
 * `nothing_to_retry`). Those words are the protocol's: outside clients show them as they come.
 */
export type Refusal = string;

/** The frames a session type takes, with its hooks (RoomBase.handle calls them). */
export interface RoomFrames {
  /** Called at once, not queued: a type that stores the message first queues its own processing. */
  chat: Refusal | ((text: string, clientMessageId: string | null, reply: SessionListener) => Promise<void>);
  /** Queued. */
  widgets: Refusal | ((widgetId: string, response: WidgetAnswer, reply: SessionListener) => Promise<void>);
  /** Tangents (`rabbithole`; `topic` null to come back), queued. */
  tangents: Refusal | ((topic: string | null, reply: SessionListener) => Promise<void>);
  /**
   * `stop` reaches the reply being produced now, so it is not queued: `stop` returns false when
   * none is (then `idle` is the error's message).
   */
  stop: Refusal | { stop: () => boolean; idle: string };
  /** `retry`, queued; refused with `turn_in_progress` while `busy` (a reply is being produced). */
  retry: Refusal | { retry: (messageId: string, reply: SessionListener) => Promise<void>; busy: () => boolean };
  /**
   * Ending, queued. `cancelsInFlight`: a model reply in flight is cancelled first, so ending
   * does not wait behind it; false where what runs is the learner's own (an answer being scored).
   */
  end: { end: (reply: SessionListener) => Promise<void>; cancelsInFlight: boolean };
}

/** What a type adds to the end of its sessions (RoomBase.finishSession). */
export interface SessionEnding {
  /** The reason when the learner ends it (default `ended_by_learner`; a completed plan's extension ends as `plan_completed`). */
  reason?: (session: StoredSession) => SessionSummary['reason'];
  /** Writes in the ending's transaction (reviews, a closing summary); the session changes to store with the end. */
  closing?: (tx: StorageTx, session: StoredSession, now: Date) => Promise<Omit<SessionUpdate, 'status' | 'endReason' | 'endedAt'> | void>;
}

/**
 * Runs a room's work under the session's lease when several instances serve it (SPEC §11,
 * db/postgres/fleet): every transaction `run` starts checks the lease; one refused
 * (`fenced` StorageError) means another instance runs the session now, and `lost` is told.
 */
export interface RoomFence {
  run<T>(work: () => Promise<T>): Promise<T>;
  lost(): void;
}

/** The reply being streamed, for a listener attaching mid-reply. */
export interface InFlightReply {
  messageId: string;
  text: string;
}

export abstract class RoomBase<Deps extends RoomBaseDeps = RoomBaseDeps> {
  protected readonly listeners = new Set<SessionListener>();
  /** How to cut off a listener's connection when the session is deleted. */
  private readonly terminators = new Map<SessionListener, () => void>();
  private queue: Promise<void> = Promise.resolve();
  private pendingOperations = 0;
  private controller = new AbortController();
  private abandonTimer: NodeJS.Timeout | null = null;
  /** Counts this room's commits, so a read that raced one can tell and read again. */
  private commits = 0;
  /** Set by a fleet's hub only; a single instance runs unfenced. */
  private fence: RoomFence | null = null;

  constructor(
    readonly sessionId: string,
    /** The type's ports (storage, clock, its model provider…), typed by the subclass. */
    protected readonly deps: Deps,
    /** Called when the room becomes idle after work finished, so the hub can drop it. */
    private readonly onIdle: () => void = () => {},
  ) {}

  /** The frames this type takes, with their hooks. */
  protected abstract readonly frames: RoomFrames;
  /**
   * Picks up whatever an interruption (a crash, a dropped socket) left undone. It only queues
   * the check, so a message handled right after it is stored before the check reads.
   */
  abstract resume(): void;
  /** The learner-facing state of SPEC §5 `state_update`. */
  protected abstract stateOf(snapshot: SessionSnapshot): SessionState;
  /** The summary of an ended session. */
  protected abstract summaryOf(snapshot: SessionSnapshot, now: Date): SessionSummary;

  /** The reply being streamed now, if the type streams one (default: none). */
  protected inFlightReply(): InFlightReply | null {
    return null;
  }

  /** Nothing more happens in the session (default: it has ended). */
  protected closedForGood(snapshot: SessionSnapshot): boolean {
    return isEnded(snapshot.session.status);
  }

  /**
   * Attaches a listener. It first receives the opening events of SPEC §5 (`state_update`, the
   * pending `widget`, `history`) and, mid-reply, `typing` plus the text streamed so far. A
   * session that was interrupted (a new one, or a turn cut off by a crash) resumes.
   * `terminate` closes the listener's connection if the session is deleted.
   */
  async attach(listener: SessionListener, terminate?: () => void): Promise<void> {
    const snapshot = await this.consistentRead(() => this.deps.storage.loadSessionSnapshot(this.sessionId));
    if (!snapshot) return;
    const state = this.stateOf(snapshot);
    listener({ type: 'state_update', payload: { state } });
    if (state.status === 'awaiting_client_action') listener({ type: 'widget', payload: state.pendingWidget });
    listener({ type: 'history', payload: { messages: buildHistory(snapshot.messages, snapshot.actions) } });
    const streaming = this.inFlightReply();
    if (streaming) {
      listener({ type: 'typing', payload: {} });
      if (streaming.text) listener({ type: 'assistant_delta', payload: { messageId: streaming.messageId, delta: streaming.text } });
    }
    this.register(listener, terminate);
    if (!this.closedForGood(snapshot)) this.resume();
  }

  /** Handles one validated client message; `reply` reaches only the sender (errors meant for it). */
  handle(message: ClientMessage, reply: SessionListener): Promise<void> {
    const { frames } = this;
    switch (message.type) {
      case 'chat': {
        const take = frames.chat;
        if (typeof take === 'string') return this.refuse(reply, 'invalid_payload', take);
        return this.fenced(() => take(message.payload.message, message.payload.clientMessageId ?? null, reply));
      }
      case 'widget_response': {
        const take = frames.widgets;
        if (typeof take === 'string') return this.refuse(reply, 'widget_not_pending', take);
        return this.enqueue(() => take(message.payload.widgetId, message.payload.response, reply));
      }
      case 'rabbithole': {
        const take = frames.tangents;
        if (typeof take === 'string') return this.refuse(reply, 'invalid_payload', take);
        return this.enqueue(() => take(message.payload.action === 'enter' ? message.payload.topic : null, reply));
      }
      case 'end_session': {
        const { end, cancelsInFlight } = frames.end;
        if (cancelsInFlight) this.cancelInFlight();
        return this.enqueue(() => end(reply));
      }
      case 'stop':
        if (typeof frames.stop === 'string') return this.refuse(reply, 'nothing_to_stop', frames.stop);
        if (!frames.stop.stop()) this.fail(reply, 'nothing_to_stop', frames.stop.idle);
        return Promise.resolve();
      case 'retry': {
        const take = frames.retry;
        if (typeof take === 'string') return this.refuse(reply, 'nothing_to_retry', take);
        if (take.busy()) return this.refuse(reply, 'turn_in_progress', 'A reply is being written; wait for it (or stop it) before asking for another.');
        return this.enqueue(() => take.retry(message.payload.messageId, reply));
      }
      default: {
        const unreachable: never = message;
        throw new Error(`unhandled message ${JSON.stringify(unreachable)}`);
      }
    }
  }

  async state(): Promise<SessionState> {
    const snapshot = await this.deps.storage.loadSessionSnapshot(this.sessionId, noMessages);
    if (!snapshot) throw new Error(`session ${this.sessionId} vanished`);
    return this.stateOf(snapshot);
  }

  async history(): Promise<HistoryMessage[]> {
    const snapshot = await this.deps.storage.loadSessionSnapshot(this.sessionId);
    return snapshot ? buildHistory(snapshot.messages, snapshot.actions) : [];
  }

  /** The summary once the session has ended, else null. */
  async summary(): Promise<SessionSummary | null> {
    const snapshot = await this.deps.storage.loadSessionSnapshot(this.sessionId, noMessages);
    if (!snapshot || !isEnded(snapshot.session.status)) return null;
    return this.summaryOf(snapshot, this.deps.clock.now());
  }

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
      this.deps.logger.info({ sessionId: this.sessionId }, 'no socket came back; in-flight work cancelled');
      this.controller.abort();
    }, this.deps.socketGraceMs ?? 30_000);
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

  /** Fences every write of this room from now on (a fleet's hub, right after opening it). */
  useFence(fence: RoomFence): void {
    this.fence = fence;
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
    const run = this.queue.then(() => this.fenced(operation)).catch((error: unknown) => {
      // Another instance runs the session now and tells its listeners itself: stop quietly.
      if (this.fence && isStorageError(error, 'fenced')) {
        this.deps.logger.info({ sessionId: this.sessionId }, 'the session lease was lost; this room stops');
        this.fence.lost();
        return;
      }
      this.deps.logger.error({ err: error, sessionId: this.sessionId }, 'session operation failed');
      this.broadcast({ type: 'error', payload: { code: 'internal', message: 'Something went wrong on our side; your message is saved — try again.' } });
    });
    this.queue = run.finally(() => {
      this.pendingOperations -= 1;
      if (this.idle) this.onIdle();
    });
    return this.queue;
  }

  private fenced(work: () => Promise<void>): Promise<void> {
    return this.fence ? this.fence.run(work) : work();
  }

  protected broadcast(event: ServerEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.deps.logger.warn({ err: error, sessionId: this.sessionId }, 'listener failed');
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
        this.deps.logger.debug({ sessionId: this.sessionId }, 'duplicate chat ignored');
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

  /**
   * The learner ends the session (SPEC §5 `end`): refused with `session_ended` and `endedMessage`
   * when it has ended already, else `finishSession` with `ending`'s reason (`ended_by_learner` unless
   * the type says otherwise) and closing writes.
   */
  protected async endByLearner(reply: SessionListener, endedMessage: string, ending: SessionEnding = {}): Promise<void> {
    const session = await this.deps.storage.read((reader) => reader.sessions.get(this.sessionId));
    if (!session) return;
    if (isEnded(session.status)) return this.fail(reply, 'session_ended', endedMessage);
    await this.finishSession(ending.reason?.(session) ?? 'ended_by_learner', ending);
  }

  /**
   * Ends the session in one transaction — the type's closing writes (its `closing` hook), the
   * pending widget cancelled, the status, reason and end time (abandoned when deleted, else
   * completed) — then `state_update` and `session_complete` with the type's own views.
   */
  protected async finishSession(reason: SessionSummary['reason'], ending: SessionEnding = {}): Promise<void> {
    const { storage, clock } = this.deps;
    const now = clock.now();
    const ended = await storage.transaction(async (tx) => {
      const session = await tx.sessions.get(this.sessionId);
      if (!session) return null;
      const changes = (await ending.closing?.(tx, session, now)) ?? {};
      const action = await tx.pendingActions.getPending(this.sessionId);
      if (action) await tx.pendingActions.resolve(action.id, 'cancelled', null, now);
      await tx.sessions.update(this.sessionId, { ...changes, status: reason === 'deleted' ? 'abandoned' : 'completed', endReason: reason, endedAt: now }, now);
      return tx.loadSessionSnapshot(this.sessionId, noMessages);
    });
    if (!ended) return;
    this.noteCommit();
    this.broadcast({ type: 'state_update', payload: { state: this.stateOf(ended) } });
    this.broadcast({ type: 'session_complete', payload: { summary: this.summaryOf(ended, now) } });
  }

  protected fail(reply: SessionListener, code: ErrorCode, message: string): void {
    reply({ type: 'error', payload: { code, message } });
  }

  /** `fail`, as the settled result of a frame that queues nothing. */
  private refuse(reply: SessionListener, code: ErrorCode, message: string): Promise<void> {
    this.fail(reply, code, message);
    return Promise.resolve();
  }

  /**
   * Charges a model operation to the learner's budget (SPEC §8) — call it before the operation
   * writes anything. Refused: a `rate_limited` error saying when to retry, to `reply` (or, for
   * work nobody asked for by a frame, such as an opening, to everyone listening), and false.
   */
  protected async admit(budget: ModelBudget, learnerId: string, operation: ModelOperation, reply?: SessionListener): Promise<boolean> {
    const verdict = await budget.charge(learnerId, operation);
    if (verdict.ok) return true;
    this.deps.logger.info({ sessionId: this.sessionId, operation, budget: verdict.budget }, 'model operation refused by the learner’s budget');
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
