/**
 * The session engine for one recall session (a "room"): every learner turn, widget answer,
 * mode change and ending goes through here, one at a time. All state lives in storage; the
 * room only holds what is in flight (the reply being streamed), so a new process resumes any
 * session from the database alone (SPEC §4, §4.1, §4.2).
 *
 * A turn loads one snapshot of the session, decides in pure code (recall/recall-rules.ts) and
 * commits once per phase: the evaluation's checklist, cards and probe; then the reply.
 *
 * Events are broadcast to every attached listener (all open sockets of the session),
 * so a client that drops and reconnects mid-reply still receives the reply.
 */
import type { ClientMessage, SessionState, SessionSummary, WidgetAnswer } from '@tutorloop/shared';
import type { ModelBudget } from '../limits/model-budget';
import type { Clock, IdGenerator } from '../ports';
import type { EvaluationResult, TutorProvider } from '../provider';
import { storeChat, storeWidgetAnswer } from '../session/inbox';
import { ConversationRoom, noMessages } from '../session/conversation-room';
import type { RoomBaseDeps, SessionListener } from '../session/room-base';
import { buildHistory, isEnded } from '../session/session-view';
import { findRetryTarget } from '../session/retry-target';
import { TurnRunner, type TurnRoom } from '../session/turn-runner';
import { defaultDesiredRetention } from '../storage/learners';
import type { SessionSnapshot } from '../storage/session-snapshot';
import { typeStateOf } from '../storage/session-type-state';
import type { Storage } from '../storage/storage';
import { applyModeChange, recallSummary } from './recall-rules';
import { recallState, recallTurnHooks, reviewPoint } from './recall-turn';
import { failedPoints } from './review-evidence';

export interface RecallRoomDeps extends RoomBaseDeps {
  storage: Storage;
  provider: TutorProvider;
  clock: Clock;
  ids: IdGenerator;
  /** The learner's model budget: the opening reply and retries are charged here (turns at the adapters). */
  modelBudget: ModelBudget;
}

export type { SessionListener } from '../session/room-base';

export class RecallRoom extends ConversationRoom {
  private readonly runner: TurnRunner<EvaluationResult>;

  constructor(
    sessionId: string,
    private readonly deps: RecallRoomDeps,
    onIdle: () => void = () => {},
  ) {
    super(sessionId, deps, onIdle);
    const room: TurnRoom = {
      sessionId,
      broadcast: (event) => this.broadcast(event),
      freshSignal: () => this.freshSignal(),
      noteCommit: () => this.noteCommit(),
    };
    this.runner = new TurnRunner(deps, room, recallTurnHooks(deps, sessionId, () => this.complete('all_recalled')));
  }

  /**
   * Attaches a listener. It first receives the opening events of SPEC §5 (`state_update`,
   * the pending `widget`, `history`) and, mid-reply, `typing` plus the text streamed so far.
   * A session that was interrupted (a new one, or a turn cut off by a crash) resumes.
   */
  override async attach(listener: SessionListener, terminate?: () => void): Promise<void> {
    const snapshot = await this.consistentRead(() => this.deps.storage.loadSessionSnapshot(this.sessionId));
    if (!snapshot) return;
    const state = recallState(snapshot);
    listener({ type: 'state_update', payload: { state } });
    if (state.status === 'awaiting_client_action') listener({ type: 'widget', payload: state.pendingWidget });
    listener({ type: 'history', payload: { messages: buildHistory(snapshot.messages, snapshot.actions) } });
    const streaming = this.runner.streaming;
    if (streaming) {
      listener({ type: 'typing', payload: {} });
      if (streaming.text) listener({ type: 'assistant_delta', payload: { messageId: streaming.messageId, delta: streaming.text } });
    }
    this.register(listener, terminate);
    this.resume();
  }

  /** Handles one validated client message; `reply` reaches only the sender (errors meant for it). */
  override handle(message: ClientMessage, reply: SessionListener): Promise<void> {
    switch (message.type) {
      case 'chat':
        return this.receiveChat(message.payload.message, message.payload.clientMessageId ?? null, reply);
      case 'widget_response':
        return this.enqueue(() => this.handleWidgetResponse(message.payload.widgetId, message.payload.response, reply));
      case 'rabbithole':
        return this.enqueue(() =>
          this.handleRabbithole(message.payload.action === 'enter' ? message.payload.topic : null, reply),
        );
      case 'end_session':
        // Ending must not wait behind a slow model call: cancel what is in flight first.
        this.cancelInFlight();
        return this.enqueue(() => this.endSession(reply));
      case 'stop':
        // Not queued: it must reach the reply being produced now, not wait behind it (SPEC §5).
        if (!this.runner.stop()) this.fail(reply, 'nothing_to_stop', 'No reply is being written right now.');
        return Promise.resolve();
      case 'retry':
        if (this.runner.replying) {
          this.fail(reply, 'turn_in_progress', 'A reply is being written; wait for it (or stop it) before asking for another.');
          return Promise.resolve();
        }
        return this.enqueue(() => this.handleRetry(message.payload.messageId, reply));
      default: {
        const unreachable: never = message;
        throw new Error(`unhandled message ${JSON.stringify(unreachable)}`);
      }
    }
  }

  protected override stateOf(snapshot: SessionSnapshot): SessionState {
    return recallState(snapshot);
  }

  protected override summaryOf(snapshot: SessionSnapshot, now: Date): SessionSummary {
    return recallSummary(snapshot, now);
  }

  // -------------------------------------------------------------------------
  // Operations (each runs alone, in arrival order)
  // -------------------------------------------------------------------------

  /**
   * Stores a chat message at once (before queueing, so a crash while an earlier turn runs
   * loses nothing), then queues its processing. A resend with a known clientMessageId is
   * not stored twice; if it was never answered (a failed or interrupted turn) it is retried.
   */
  private async receiveChat(text: string, clientMessageId: string | null, reply: SessionListener): Promise<void> {
    const outcome = await storeChat(this.deps, this.sessionId, { text, clientMessageId });
    return this.followChat(outcome, reply, 'This session has ended; start a new one to keep reviewing.', () => this.processUnanswered());
  }

  protected override async openSession(snapshot: SessionSnapshot): Promise<void> {
    const { storage, clock, modelBudget } = this.deps;
    // The opening reply is charged before anything is written: refused, the session stays as it
    // was and opens on the next attach (or the learner just writes).
    if (snapshot.messageCount === 0 && !(await this.admit(modelBudget, snapshot.session.learnerId, 'opening'))) return;
    let session = snapshot.session;
    if (session.status === 'pending') {
      session = await storage.transaction((tx) => tx.sessions.update(this.sessionId, { status: 'active' }, clock.now()));
      this.noteCommit();
    }
    if (snapshot.messageCount > 0) return;
    await this.runner.openingTurn({ ...snapshot, session });
  }

  /** Processes every stored learner message or widget answer that has no reply yet, in order: one snapshot per turn. */
  protected override async processUnanswered(): Promise<void> {
    const { storage } = this.deps;
    for (let first = true; ; first = false) {
      // After a turn, most often nothing else waits: ask that alone before reading a whole snapshot.
      if (!first && !(await storage.read((reader) => reader.messages.findOldestUnanswered(this.sessionId)))) return;
      const snapshot = await storage.loadSessionSnapshot(this.sessionId);
      if (!snapshot || isEnded(snapshot.session.status)) return;
      const next = snapshot.oldestUnanswered;
      if (!next) return;
      const answered = await this.runner.learnerTurn(snapshot, next);
      if (!answered) return;
    }
  }

  private async handleWidgetResponse(widgetId: string, response: WidgetAnswer, reply: SessionListener): Promise<void> {
    const outcome = await storeWidgetAnswer(this.deps, this.sessionId, widgetId, response);
    if (!outcome.ok) {
      if (outcome.error) this.fail(reply, outcome.error.code, outcome.error.message);
      return;
    }
    this.noteCommit();
    await this.processUnanswered();
  }

  private async handleRabbithole(topic: string | null, reply: SessionListener): Promise<void> {
    const { storage, clock } = this.deps;
    const now = clock.now();
    const outcome = await storage.transaction(async (tx) => {
      const session = await tx.sessions.get(this.sessionId);
      if (!session) return 'missing' as const;
      if (isEnded(session.status)) return 'ended' as const;
      const change = topic === null ? ({ mode: 'recall' } as const) : ({ mode: 'rabbithole', topic } as const);
      await tx.sessions.update(this.sessionId, { typeState: applyModeChange(typeStateOf(session, 'recall'), change) }, now);
      return tx.loadSessionSnapshot(this.sessionId, noMessages);
    });
    if (outcome === 'missing' || outcome === null) return;
    if (outcome === 'ended') return this.fail(reply, 'session_ended', 'This session has ended.');
    this.noteCommit();
    this.broadcast({ type: 'state_update', payload: { state: recallState(outcome) } });
  }

  /** Produces the last tutor reply again (SPEC §5 `retry`); the learner's message is not evaluated again. */
  private async handleRetry(messageId: string, reply: SessionListener): Promise<void> {
    const snapshot = await this.deps.storage.loadSessionSnapshot(this.sessionId);
    if (!snapshot) return;
    if (isEnded(snapshot.session.status)) return this.fail(reply, 'session_ended', 'This session has ended.');
    if (snapshot.oldestUnanswered) return this.fail(reply, 'turn_in_progress', 'Your last message is still waiting for its reply.');
    const target = findRetryTarget(snapshot.messages, snapshot.pendingAction, messageId);
    if (!target.ok) return this.fail(reply, 'nothing_to_retry', target.error);
    // Refused, nothing changes: the old reply stays.
    if (!(await this.admit(this.deps.modelBudget, snapshot.session.learnerId, 'retry', reply))) return;
    await this.runner.retryTurn(snapshot, target.value);
  }

  private async endSession(reply: SessionListener): Promise<void> {
    const session = await this.deps.storage.read((reader) => reader.sessions.get(this.sessionId));
    if (!session) return;
    if (isEnded(session.status)) return this.fail(reply, 'session_ended', 'This session has already ended.');
    await this.complete('ended_by_learner');
  }

  /** Ends the session: the point asked about and failed reviewed as Again, pending widget cancelled, summary sent. */
  private async complete(reason: SessionSummary['reason']): Promise<void> {
    const { storage, clock } = this.deps;
    const now = clock.now();
    const ended = await storage.transaction(async (tx) => {
      const session = await tx.sessions.get(this.sessionId);
      if (!session) return null;
      const retention = (await tx.learners.get(session.learnerId))?.desiredRetention ?? defaultDesiredRetention;
      // Only a point the tutor asked about and the learner failed is rated Again; points never
      // cued keep their schedule (review-evidence.ts).
      for (const entry of failedPoints(await tx.checklists.list(this.sessionId), typeStateOf(session, 'recall'))) {
        await reviewPoint(tx, this.deps.ids, { sessionId: this.sessionId, learnerId: session.learnerId, pointId: entry.pointId, rating: 'again', confidence: null, retention, now });
      }
      const action = await tx.pendingActions.getPending(this.sessionId);
      if (action) await tx.pendingActions.resolve(action.id, 'cancelled', null, now);
      await tx.sessions.update(this.sessionId, { status: reason === 'deleted' ? 'abandoned' : 'completed', endReason: reason, endedAt: now }, now);
      return tx.loadSessionSnapshot(this.sessionId, noMessages);
    });
    if (!ended) return;
    this.noteCommit();
    this.broadcast({ type: 'state_update', payload: { state: recallState(ended) } });
    this.broadcast({ type: 'session_complete', payload: { summary: recallSummary(ended, now) } });
  }
}
