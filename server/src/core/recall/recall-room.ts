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
import type { ClientMessage, HistoryMessage, SessionState, SessionSummary, WidgetAnswer } from '@tutorloop/shared';
import { normalizeEvaluation } from '../evaluation/parse-evaluation';
import type { Clock, IdGenerator, Logger } from '../ports';
import { emptyEvaluation, modeToolNames, type EvaluationResult, type TutorInput, type TutorProvider, type TutorTrigger, type WidgetRequest } from '../provider';
import { allRecalled, applyModeChange, decideEvaluation, modeChangeApplies, recallSummary, toChecklistPoint } from './recall-rules';
import { newCard, ratingForConfidence, reviewCard, type RatingName } from './fsrs';
import type { ChecklistEntry } from '../storage/checklists';
import { defaultDesiredRetention } from '../storage/learners';
import type { StoredMessage } from '../storage/messages';
import type { PendingActionRecord } from '../storage/pending-actions';
import type { SessionSnapshot } from '../storage/session-snapshot';
import { typeStateOf } from '../storage/session-type-state';
import type { StoredSession } from '../storage/sessions';
import type { Storage, StorageTx } from '../storage/storage';
import { RoomBase, type SessionListener } from '../session/room-base';
import { findPlainChoices } from '../session/sanitize';
import { buildHistory, buildState, checklistProgress, isEnded, modeOf, toConversation, toolNameForKind, widgetForAction } from '../session/session-view';
import { guardedReply, type DraftReply } from '../session/tutor-draft';
import { checkWidgetAnswer, recordWidgetAnswer } from '../session/widget-answers';

export interface RecallRoomDeps {
  storage: Storage;
  provider: TutorProvider;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  /** See RoomBaseDeps. */
  socketGraceMs?: number;
}

export type { SessionListener } from '../session/room-base';

/** How many recent messages the evaluator sees (SPEC §4.1). */
export const evaluatorWindow = 10;

const safetyRedirect =
  'I want to keep this a safe and useful space, so I won’t go into that. If you are going through something difficult, please reach out to someone you trust or a local support line. Whenever you’re ready, let’s get back to the material.';

/** A snapshot without the conversation (state and summary need none of it). */
const noMessages = { lastMessages: 0 } as const;

export class RecallRoom extends RoomBase {
  private streaming: { messageId: string; text: string } | null = null;

  constructor(
    sessionId: string,
    private readonly deps: RecallRoomDeps,
    onIdle: () => void = () => {},
  ) {
    super(sessionId, deps, onIdle);
  }

  /**
   * Attaches a listener. It first receives the opening events of SPEC §5 (`state_update`,
   * the pending `widget`, `history`) and, mid-reply, `typing` plus the text streamed so far.
   * A session that was interrupted (a new one, or a turn cut off by a crash) resumes.
   */
  override async attach(listener: SessionListener, terminate?: () => void): Promise<void> {
    const snapshot = await this.consistentRead(() => this.deps.storage.loadSessionSnapshot(this.sessionId));
    if (!snapshot) return;
    const state = stateOf(snapshot);
    listener({ type: 'state_update', payload: { state } });
    if (state.status === 'awaiting_client_action') listener({ type: 'widget', payload: state.pendingWidget });
    listener({ type: 'history', payload: { messages: buildHistory(snapshot.messages, snapshot.actions) } });
    if (this.streaming) {
      listener({ type: 'typing', payload: {} });
      if (this.streaming.text) {
        listener({ type: 'assistant_delta', payload: { messageId: this.streaming.messageId, delta: this.streaming.text } });
      }
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
      default: {
        const unreachable: never = message;
        throw new Error(`unhandled message ${JSON.stringify(unreachable)}`);
      }
    }
  }

  /** Resumes an interrupted session: the opening turn, or an unanswered learner message. */
  override resume(): void {
    void this.enqueue(async () => {
      const snapshot = await this.deps.storage.loadSessionSnapshot(this.sessionId, noMessages);
      if (!snapshot || isEnded(snapshot.session.status)) return;
      if (snapshot.session.status === 'pending' || snapshot.messageCount === 0) await this.openSession(snapshot);
      else if (snapshot.oldestUnanswered) await this.processUnanswered();
    });
  }

  override async state(): Promise<SessionState> {
    const snapshot = await this.deps.storage.loadSessionSnapshot(this.sessionId, noMessages);
    if (!snapshot) throw new Error(`session ${this.sessionId} vanished`);
    return stateOf(snapshot);
  }

  override async history(): Promise<HistoryMessage[]> {
    const snapshot = await this.deps.storage.loadSessionSnapshot(this.sessionId);
    return snapshot ? buildHistory(snapshot.messages, snapshot.actions) : [];
  }

  override async summary(): Promise<SessionSummary | null> {
    const snapshot = await this.deps.storage.loadSessionSnapshot(this.sessionId, noMessages);
    if (!snapshot || !isEnded(snapshot.session.status)) return null;
    return recallSummary(snapshot, this.deps.clock.now());
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
    const { storage, clock, ids } = this.deps;
    const now = clock.now();
    // The resend check reads in the same transaction as the write it guards.
    const outcome = await storage.transaction(async (tx): Promise<'missing' | 'ended' | 'duplicate' | 'retry' | 'stored'> => {
      const session = await tx.sessions.get(this.sessionId);
      if (!session) return 'missing';
      if (isEnded(session.status)) return 'ended';
      if (clientMessageId) {
        const existing = await tx.messages.findByClientId(this.sessionId, clientMessageId);
        if (existing) return existing.answeredAt ? 'duplicate' : 'retry';
      }
      await tx.messages.append({
        id: ids.next(),
        sessionId: this.sessionId,
        role: 'learner',
        content: text,
        toolCall: null,
        toolCallId: null,
        widgetAnswer: null,
        clientMessageId,
        createdAt: now,
      });
      await tx.sessions.update(this.sessionId, { turn: session.turn + 1 }, now);
      return 'stored';
    });
    switch (outcome) {
      case 'missing':
        return;
      case 'ended':
        return this.fail(reply, 'session_ended', 'This session has ended; start a new one to keep reviewing.');
      case 'duplicate':
        this.deps.logger.debug({ sessionId: this.sessionId, clientMessageId }, 'duplicate chat ignored');
        return;
      case 'stored':
        this.noteCommit();
        return this.enqueue(() => this.processUnanswered());
      case 'retry':
        return this.enqueue(() => this.processUnanswered());
      default: {
        const unreachable: never = outcome;
        throw new Error(`unknown outcome ${String(unreachable)}`);
      }
    }
  }

  private async openSession(snapshot: SessionSnapshot): Promise<void> {
    const { storage, clock } = this.deps;
    let session = snapshot.session;
    if (session.status === 'pending') {
      session = await storage.transaction((tx) => tx.sessions.update(this.sessionId, { status: 'active' }, clock.now()));
      this.noteCommit();
    }
    if (snapshot.messageCount > 0) return;
    await this.tutorTurn('session_start', null, emptyEvaluation, { ...snapshot, session });
  }

  /** Processes every stored learner message or widget answer that has no reply yet, in order: one snapshot per turn. */
  private async processUnanswered(): Promise<void> {
    const { storage } = this.deps;
    for (let first = true; ; first = false) {
      // After a turn, most often nothing else waits: ask that alone before reading a whole snapshot.
      if (!first && !(await storage.read((reader) => reader.messages.findOldestUnanswered(this.sessionId)))) return;
      const snapshot = await storage.loadSessionSnapshot(this.sessionId);
      if (!snapshot || isEnded(snapshot.session.status)) return;
      const next = snapshot.oldestUnanswered;
      if (!next) return;
      const answered = await this.learnerTurn(snapshot, next);
      if (!answered) return;
    }
  }

  /** One learner turn: safety ∥ evaluation → checklist + FSRS → tutor reply. Returns false if the tutor failed. */
  private async learnerTurn(snapshot: SessionSnapshot, message: StoredMessage): Promise<boolean> {
    const { provider, logger } = this.deps;
    const signal = this.freshSignal();
    this.broadcast({ type: 'typing', payload: {} });

    const unchecked = snapshot.checklist.filter((entry) => entry.status === 'pending');
    const conversation = snapshot.messages.filter((stored) => stored.seq <= message.seq);

    const [safety, evaluation] = await Promise.all([
      // A failed or erroring safety check counts as safe: the gate must not take the tutor down with it.
      provider.checkSafety(message.content, signal).catch((error: unknown) => {
        logger.warn({ err: error, sessionId: this.sessionId }, 'safety gate failed; treating message as safe');
        return { safe: true } as const;
      }),
      this.evaluate(unchecked, conversation, snapshot.session, signal),
    ]);
    if (signal.aborted) return false;

    if (!safety.safe) {
      logger.warn({ sessionId: this.sessionId, messageId: message.id, reason: safety.reason }, 'unsafe learner message redirected');
      await this.commitReply(snapshot, message, safetyRedirect, null);
      return true;
    }

    const evaluated = await this.applyEvaluation(snapshot, unchecked, evaluation);
    const trigger: TutorTrigger = message.role === 'tool_result' ? 'widget_answer' : 'learner_message';
    return this.tutorTurn(trigger, message, evaluation, evaluated);
  }

  private async evaluate(unchecked: ChecklistEntry[], conversation: StoredMessage[], session: StoredSession, signal: AbortSignal): Promise<EvaluationResult> {
    // Already-recalled points are never sent again; with nothing unchecked there is no call.
    if (unchecked.length === 0) return emptyEvaluation;
    try {
      const raw = await this.deps.provider.evaluate(
        {
          sessionId: this.sessionId,
          points: unchecked.map(toChecklistPoint),
          recentMessages: toConversation(conversation).slice(-evaluatorWindow),
          mode: modeOf(session).mode,
        },
        signal,
      );
      // Providers pass the evaluator's answer on as it came; it is cleaned here, once (SPEC §4.1).
      return normalizeEvaluation(raw, new Set(unchecked.map((entry) => entry.pointId)));
    } catch (error) {
      // A failed evaluation yields an empty result; the turn goes on (SPEC §4.1).
      this.deps.logger.warn({ err: error, sessionId: this.sessionId }, 'evaluation failed; continuing with an empty result');
      return emptyEvaluation;
    }
  }

  /** Checks off recalled points, reviews their cards, moves the probe — one transaction. Returns the snapshot as it now is. */
  private async applyEvaluation(snapshot: SessionSnapshot, unchecked: ChecklistEntry[], evaluation: EvaluationResult): Promise<SessionSnapshot> {
    const { storage, clock } = this.deps;
    const now = clock.now();
    const decision = decideEvaluation(snapshot, evaluation, now);
    const { session, cards } = await storage.transaction(async (tx) => {
      const cards = new Map(snapshot.cards);
      for (const point of decision.recalled) {
        await tx.checklists.markRecalled(this.sessionId, point.id, { confidence: point.confidence, observation: point.observation, turn: snapshot.session.turn, at: now });
        cards.set(point.id, await this.review(tx, snapshot.session.learnerId, point.id, ratingForConfidence(point.confidence), point.confidence, snapshot.desiredRetention, now));
      }
      const session = await tx.sessions.update(this.sessionId, { typeState: decision.typeState }, now);
      return { session, cards };
    });
    this.noteCommit();
    if (unchecked.length > 0) {
      this.deps.logger.debug(
        { sessionId: this.sessionId, recalled: decision.recalled.map((point) => point.id), unchecked: unchecked.length },
        'evaluation applied',
      );
    }
    return { ...snapshot, session, checklist: decision.checklist, cards };
  }

  /** Reviews the learner's card for a point (read in the transaction that writes it) and logs the review. */
  private async review(tx: StorageTx, learnerId: string, pointId: string, rating: RatingName, confidence: number | null, retention: number, now: Date) {
    const existing = await tx.cards.get(learnerId, pointId);
    const outcome = reviewCard(existing ?? newCard(now), rating, now, retention);
    const cardId = await tx.cards.save({ learnerId, pointId, card: outcome.card, newId: this.deps.ids.next() });
    await tx.cards.addReviewLog(this.deps.ids.next(), { cardId, sessionId: this.sessionId, rating, confidence, previous: outcome.previous, reviewedAt: now });
    return { ...outcome.card, id: cardId };
  }

  /** Asks the tutor to speak, streams its reply, sanitizes, commits. Returns false on failure. */
  private async tutorTurn(trigger: TutorTrigger, replyTo: StoredMessage | null, evaluation: EvaluationResult, snapshot: SessionSnapshot): Promise<boolean> {
    const { ids, logger } = this.deps;
    const { session, checklist } = snapshot;
    if (isEnded(session.status)) return false;
    const state = typeStateOf(session, 'recall');
    const signal = this.freshSignal();
    const probe = checklist[state.probeIndex];
    const probePoint = probe && probe.status === 'pending' ? toChecklistPoint(probe) : null;
    const since = replyTo?.createdAt.getTime() ?? Number.POSITIVE_INFINITY;
    const justRecalled = checklist
      .filter((entry) => entry.status === 'recalled' && entry.recalledAt && entry.recalledAt.getTime() >= since)
      .map(toChecklistPoint);
    const input: TutorInput = {
      sessionId: this.sessionId,
      trigger,
      title: session.title,
      mode: state.mode,
      rabbitholeTopic: state.rabbitholeTopic,
      checklist: checklist.map((entry) => ({ ...toChecklistPoint(entry), recalled: entry.status === 'recalled' })),
      probePoint,
      probeAttempts: state.probeAttempts,
      justRecalled,
      feedback: evaluation.feedback,
      conversation: toConversation(snapshot.messages),
      turn: session.turn,
    };
    const pointIds = checklist.map((entry) => entry.pointId);
    const draft = { pointIds, widgetPending: snapshot.pendingAction !== null, modeChangeApplies: (change: Parameters<typeof modeChangeApplies>[1]) => modeChangeApplies(input, change) };
    const messageId = ids.next();
    if (trigger === 'session_start') this.broadcast({ type: 'typing', payload: {} });
    this.streaming = { messageId, text: '' };
    let reply: DraftReply;
    try {
      reply = await guardedReply(this.deps.provider, input, draft, signal, (text) => {
        this.streaming!.text += text;
        this.broadcast({ type: 'assistant_delta', payload: { messageId, delta: text } });
      }, logger);
    } catch (error) {
      this.streaming = null;
      if (signal.aborted) return false;
      logger.error({ err: error, sessionId: this.sessionId }, 'tutor call failed');
      this.broadcast({
        type: 'error',
        payload: {
          code: 'llm_unavailable',
          message: 'The tutor could not answer just now. Your message is saved — send it again to retry.',
        },
      });
      return false;
    }
    this.streaming = null;
    if (signal.aborted) return false;

    let text = reply.text.trim();
    let widget = reply.widget;
    if (!widget && !reply.mode && !draft.widgetPending) {
      // Options written as text instead of a present_choices call: issue the widget properly.
      const choices = findPlainChoices(text);
      if (choices) {
        logger.info({ sessionId: this.sessionId, options: choices.options.length }, 'options in plain text issued as a multiple-choice widget');
        text = choices.remainder;
        widget = {
          toolCallId: `auto-${ids.next()}`,
          widget: { kind: 'multiple_choice', props: { prompt: choices.prompt, options: choices.options } },
        };
      }
    }
    await this.commitReply(snapshot, replyTo, text, widget, messageId, reply.mode);
    return true;
  }

  /** Persists the tutor's reply (and widget or mode change) and marks the learner message answered, then tells everyone. */
  private async commitReply(
    snapshot: SessionSnapshot,
    replyTo: StoredMessage | null,
    text: string,
    widget: { toolCallId: string; widget: WidgetRequest } | null,
    messageId = this.deps.ids.next(),
    mode: DraftReply['mode'] = null,
  ): Promise<void> {
    const { storage, clock, ids } = this.deps;
    const now = clock.now();
    const widgetId = widget ? ids.next() : null;
    const committed = await storage.transaction(async (tx) => {
      let session = snapshot.session;
      let pendingAction: PendingActionRecord | null = snapshot.pendingAction;
      await tx.messages.append({
        id: messageId,
        sessionId: this.sessionId,
        role: 'tutor',
        content: text,
        toolCall: widget
          ? { id: widget.toolCallId, name: toolNameForKind(widget.widget.kind), input: { ...widget.widget.props } }
          : mode
            ? { id: mode.toolCallId, name: mode.change.mode === 'rabbithole' ? modeToolNames.enter : modeToolNames.exit, input: mode.change.mode === 'rabbithole' ? { topic: mode.change.topic } : {} }
            : null,
        toolCallId: null,
        widgetAnswer: null,
        clientMessageId: null,
        createdAt: now,
      });
      if (replyTo) await tx.messages.markAnswered(replyTo.id, now);
      if (mode) {
        // The server tool's result, stored (already answered) so the conversation stays a
        // valid tool_use → tool_result sequence for the next model call.
        const result = await tx.messages.append({
          id: ids.next(),
          sessionId: this.sessionId,
          role: 'tool_result',
          content: mode.change.mode === 'rabbithole' ? `Now exploring the tangent: ${mode.change.topic}` : 'Back to recall.',
          toolCall: null,
          toolCallId: mode.toolCallId,
          widgetAnswer: null,
          clientMessageId: null,
          createdAt: now,
        });
        await tx.messages.markAnswered(result.id, now);
        session = await tx.sessions.update(this.sessionId, { typeState: applyModeChange(typeStateOf(session, 'recall'), mode.change) }, now);
      }
      if (widget && widgetId) {
        pendingAction = await tx.pendingActions.create({
          id: widgetId,
          sessionId: this.sessionId,
          toolCallId: widget.toolCallId,
          kind: widget.widget.kind,
          props: { ...widget.widget.props },
          createdAt: now,
        });
        session = await tx.sessions.update(this.sessionId, { status: 'awaiting_client_action' }, now);
      }
      return { session, pendingAction };
    });
    this.noteCommit();
    if (mode) this.deps.logger.info({ sessionId: this.sessionId, mode: mode.change.mode }, 'tutor changed the session mode');
    this.broadcast({ type: 'assistant', payload: { messageId, message: text } });
    const after: SessionSnapshot = { ...snapshot, ...committed };
    if (allRecalled(after.checklist)) {
      await this.complete('all_recalled');
      return;
    }
    const state = stateOf(after);
    this.broadcast({ type: 'state_update', payload: { state } });
    if (widget && state.status === 'awaiting_client_action') this.broadcast({ type: 'widget', payload: state.pendingWidget });
  }

  private async handleWidgetResponse(widgetId: string, response: WidgetAnswer, reply: SessionListener): Promise<void> {
    const { storage, clock, ids } = this.deps;
    const now = clock.now();
    // The pending widget is read in the transaction that answers it.
    const outcome = await storage.transaction(async (tx) => {
      const session = await tx.sessions.get(this.sessionId);
      if (!session) return { ok: false, error: null } as const;
      if (isEnded(session.status)) return { ok: false, error: { code: 'session_ended', message: 'This session has ended.' } } as const;
      const action = await tx.pendingActions.getPending(this.sessionId);
      if (!action || action.id !== widgetId) {
        const known = (await tx.pendingActions.list(this.sessionId)).some((candidate) => candidate.id === widgetId);
        return { ok: false, error: { code: 'widget_not_pending', message: known ? 'That widget was already answered.' : 'No widget with that id is waiting for an answer.' } } as const;
      }
      const checked = checkWidgetAnswer(widgetForAction(action), response);
      if (!checked.ok) return { ok: false, error: { code: 'invalid_payload', message: checked.error } } as const;
      await recordWidgetAnswer(tx, { id: ids.next(), action, response, text: checked.value, at: now });
      await tx.sessions.update(this.sessionId, { status: 'active', turn: session.turn + 1 }, now);
      return { ok: true } as const;
    });
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
    this.broadcast({ type: 'state_update', payload: { state: stateOf(outcome) } });
  }

  private async endSession(reply: SessionListener): Promise<void> {
    const session = await this.deps.storage.read((reader) => reader.sessions.get(this.sessionId));
    if (!session) return;
    if (isEnded(session.status)) return this.fail(reply, 'session_ended', 'This session has already ended.');
    await this.complete('ended_by_learner');
  }

  /** Ends the session: unrecalled points reviewed as Again, pending widget cancelled, summary sent. */
  private async complete(reason: SessionSummary['reason']): Promise<void> {
    const { storage, clock } = this.deps;
    const now = clock.now();
    const ended = await storage.transaction(async (tx) => {
      const session = await tx.sessions.get(this.sessionId);
      if (!session) return null;
      const retention = (await tx.learners.get(session.learnerId))?.desiredRetention ?? defaultDesiredRetention;
      for (const entry of await tx.checklists.list(this.sessionId)) {
        if (entry.status === 'pending') await this.review(tx, session.learnerId, entry.pointId, 'again', null, retention, now);
      }
      const action = await tx.pendingActions.getPending(this.sessionId);
      if (action) await tx.pendingActions.resolve(action.id, 'cancelled', null, now);
      await tx.sessions.update(this.sessionId, { status: reason === 'deleted' ? 'abandoned' : 'completed', endReason: reason, endedAt: now }, now);
      return tx.loadSessionSnapshot(this.sessionId, noMessages);
    });
    if (!ended) return;
    this.noteCommit();
    this.broadcast({ type: 'state_update', payload: { state: stateOf(ended) } });
    this.broadcast({ type: 'session_complete', payload: { summary: recallSummary(ended, now) } });
  }
}

/** The state a learner sees of a recall session. */
function stateOf(snapshot: Pick<SessionSnapshot, 'session' | 'checklist' | 'pendingAction'>): SessionState {
  return buildState(snapshot.session, checklistProgress(snapshot.checklist), snapshot.pendingAction);
}
