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
import type { SessionState, SessionSummary } from '@tutorloop/shared';
import type { ModelBudget } from '../limits/model-budget';
import type { Clock, IdGenerator } from '../ports';
import type { EvaluationResult, TutorInput, TutorProvider } from '../provider';
import { ConversationRoom, noMessages } from '../session/conversation-room';
import type { InFlightReply, RoomBaseDeps, RoomFrames, SessionEnding, SessionListener } from '../session/room-base';
import { isEnded } from '../session/session-view';
import { findRetryTarget } from '../session/retry-target';
import { TurnRunner, type TurnRoom } from '../session/turn-runner';
import { recordReview } from '../scheduler/record-review';
import type { SessionSnapshot } from '../storage/session-snapshot';
import { typeStateOf } from '../storage/session-type-state';
import type { Storage } from '../storage/storage';
import { applyModeChange, recallSummary } from './recall-rules';
import { recallState, recallTurnHooks } from './recall-turn';
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

export class RecallRoom extends ConversationRoom<RecallRoomDeps> {
  private readonly runner: TurnRunner<EvaluationResult, TutorInput>;

  constructor(
    sessionId: string,
    deps: RecallRoomDeps,
    onIdle: () => void = () => {},
  ) {
    super(sessionId, deps, onIdle);
    const room: TurnRoom = {
      sessionId,
      broadcast: (event) => this.broadcast(event),
      freshSignal: () => this.freshSignal(),
      noteCommit: () => this.noteCommit(),
    };
    this.runner = new TurnRunner({
      deps: { storage: deps.storage, safety: deps.provider, clock: deps.clock, ids: deps.ids, logger: deps.logger },
      room,
      hooks: recallTurnHooks(deps, sessionId, () => this.complete('all_recalled')),
    });
  }

  /** Every frame: chat, widget answers, tangents (rabbit holes), stop, retry (SPEC §5). */
  protected override readonly frames: RoomFrames = {
    chat: (text, clientMessageId, reply) => this.takeChat({ text, clientMessageId }, reply, 'This session has ended; start a new one to keep reviewing.'),
    widgets: (widgetId, response, reply) => this.takeWidgetAnswer(widgetId, response, reply),
    tangents: (topic, reply) => this.handleRabbithole(topic, reply),
    stop: { stop: () => this.runner.stop(), idle: 'No reply is being written right now.' },
    retry: { retry: (messageId, reply) => this.handleRetry(messageId, reply), busy: () => this.runner.replying },
    end: { end: (reply) => this.endByLearner(reply, 'This session has already ended.', this.ending), cancelsInFlight: true },
  };

  protected override inFlightReply(): InFlightReply | null {
    return this.runner.streaming;
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

  protected override async openSession(snapshot: SessionSnapshot): Promise<void> {
    const session = await this.beginOpening(snapshot, this.deps.modelBudget);
    if (session) await this.runner.openingTurn({ ...snapshot, session });
  }

  /** Processes every stored learner message or widget answer that has no reply yet, in order: one snapshot per turn. */
  protected override async processUnanswered(): Promise<void> {
    const { storage } = this.deps;
    for (;;) {
      const snapshot = await storage.loadSessionSnapshot(this.sessionId);
      if (!snapshot || isEnded(snapshot.session.status)) return;
      const next = snapshot.oldestUnanswered;
      if (!next) return;
      const answered = await this.runner.learnerTurn(snapshot, next);
      // Another input stored after this snapshot was read queued its own processing when it was
      // stored (takeChat, takeWidgetAnswer): only one the snapshot already held (several left
      // unanswered by a crash) is this loop's to answer — no read after every turn to ask.
      if (!answered || !snapshot.messages.some((message) => message.seq > next.seq && message.role !== 'tutor' && !message.answeredAt)) return;
    }
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

  /** Ends the session: the point asked about and failed reviewed as Again, pending widget cancelled, summary sent. */
  private complete(reason: SessionSummary['reason']): Promise<void> {
    return this.finishSession(reason, this.ending);
  }

  /** What ending adds: only a point the tutor asked about and the learner failed is rated Again; points never cued keep their schedule (review-evidence.ts). */
  private readonly ending: SessionEnding = {
    closing: async (tx, session, now) => {
      for (const entry of failedPoints(await tx.checklists.list(this.sessionId), typeStateOf(session, 'recall'))) {
        await recordReview(tx, this.deps.ids, { sessionId: this.sessionId, learnerId: session.learnerId, pointId: entry.pointId, rating: 'again', confidence: null, now });
      }
    },
  };
}
