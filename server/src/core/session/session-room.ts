/**
 * The session engine for one session (a "room"): every learner turn, widget answer,
 * mode change and ending goes through here, one at a time. All state lives in the
 * repository; the room only holds what is in flight (the reply being streamed), so a
 * new process resumes any session from the database alone (SPEC §4, §4.1, §4.2).
 *
 * Events are broadcast to every attached listener (all open sockets of the session),
 * so a client that drops and reconnects mid-reply still receives the reply.
 */
import type {
  ClientMessage,
  HistoryMessage,
  SessionState,
  SessionSummary,
  WidgetAnswer,
} from '@tutorloop/shared';
import { normalizeEvaluation } from '../evaluation/parse-evaluation';
import type { Clock, IdGenerator, Logger } from '../ports';
import { RoomBase, type SessionListener } from './room-base';
import {
  emptyEvaluation,
  modeToolNames,
  type ChecklistPoint,
  type EvaluationResult,
  type ModeChange,
  type TutorInput,
  type TutorProvider,
  type TutorTrigger,
  type WidgetRequest,
} from '../provider';
import { newCard, ratingForConfidence, reviewCard, type RatingName } from '../scheduling/fsrs';
import { findPlainChoices, LeakGuard, stripLeaks } from './sanitize';
import type { ChecklistEntry, SessionChanges, SessionRecord, SessionRepository, StoredMessage } from './session-repository';
import { buildHistory, buildState, checklistProgress, isEnded, toConversation, toolNameForKind, widgetForAction } from './session-view';
import { checkWidgetAnswer, recordWidgetAnswer } from './widget-answers';

export interface SessionRoomDeps {
  repository: SessionRepository;
  provider: TutorProvider;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  /** See RoomBaseDeps. */
  socketGraceMs?: number;
}

export type { SessionListener } from './room-base';

/** How many recent messages the evaluator sees (SPEC §4.1). */
export const evaluatorWindow = 10;

const safetyRedirect =
  'I want to keep this a safe and useful space, so I won’t go into that. If you are going through something difficult, please reach out to someone you trust or a local support line. Whenever you’re ready, let’s get back to the material.';

export class SessionRoom extends RoomBase {
  private streaming: { messageId: string; text: string } | null = null;

  constructor(
    sessionId: string,
    private readonly deps: SessionRoomDeps,
    onIdle: () => void = () => {},
  ) {
    super(sessionId, deps, onIdle);
  }

  /**
   * Attaches a listener. It first receives the opening events of SPEC §5 (`state_update`,
   * the pending `widget`, `history`) and, mid-reply, `typing` plus the text streamed so far.
   * A session that was interrupted (a new one, or a turn cut off by a crash) resumes.
   */
  override attach(listener: SessionListener, terminate?: () => void): void {
    const session = this.deps.repository.getSession(this.sessionId);
    if (!session) return;
    const state = this.state(session);
    listener({ type: 'state_update', payload: { state } });
    if (state.status === 'awaiting_client_action') listener({ type: 'widget', payload: state.pendingWidget });
    listener({ type: 'history', payload: { messages: this.history() } });
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
        return this.enqueue(() => this.endSession('ended_by_learner', reply));
      default: {
        const unreachable: never = message;
        throw new Error(`unhandled message ${JSON.stringify(unreachable)}`);
      }
    }
  }

  /** Resumes an interrupted session: the opening turn, or an unanswered learner message. */
  override resume(): void {
    const session = this.deps.repository.getSession(this.sessionId);
    if (!session || isEnded(session.status)) return;
    if (session.status === 'pending' || this.deps.repository.listMessages(this.sessionId).length === 0) {
      void this.enqueue(() => this.openSession());
    } else if (this.deps.repository.findOldestUnanswered(this.sessionId)) {
      void this.enqueue(() => this.processUnanswered());
    }
  }

  override state(session?: SessionRecord): SessionState {
    const record = session ?? this.deps.repository.getSession(this.sessionId);
    if (!record) throw new Error(`session ${this.sessionId} vanished`);
    return buildState(record, checklistProgress(this.deps.repository.getChecklist(this.sessionId)), this.deps.repository.getPendingAction(this.sessionId));
  }

  override history(): HistoryMessage[] {
    return buildHistory(this.deps.repository.listMessages(this.sessionId), this.deps.repository.listActions(this.sessionId));
  }

  override summary(): SessionSummary | null {
    const session = this.deps.repository.getSession(this.sessionId);
    if (!session || !isEnded(session.status)) return null;
    return this.buildSummary(session);
  }

  // -------------------------------------------------------------------------
  // Operations (each runs alone, in arrival order)
  // -------------------------------------------------------------------------

  /**
   * Stores a chat message at once (before queueing, so a crash while an earlier turn runs
   * loses nothing), then queues its processing. A resend with a known clientMessageId is
   * not stored twice; if it was never answered (a failed or interrupted turn) it is retried.
   */
  private receiveChat(text: string, clientMessageId: string | null, reply: SessionListener): Promise<void> {
    const { repository, clock, ids } = this.deps;
    const session = repository.getSession(this.sessionId);
    if (!session) return Promise.resolve();
    if (isEnded(session.status)) {
      this.fail(reply, 'session_ended', 'This session has ended; start a new one to keep reviewing.');
      return Promise.resolve();
    }
    if (clientMessageId) {
      const existing = repository.findMessageByClientId(this.sessionId, clientMessageId);
      if (existing) {
        if (existing.answeredAt) {
          this.deps.logger.debug({ sessionId: this.sessionId, clientMessageId }, 'duplicate chat ignored');
          return Promise.resolve();
        }
        return this.enqueue(() => this.processUnanswered());
      }
    }
    const now = clock.now();
    repository.transaction(() => {
      repository.appendMessage({
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
      repository.updateSession(this.sessionId, { turn: session.turn + 1 }, now);
    });
    return this.enqueue(() => this.processUnanswered());
  }

  private async openSession(): Promise<void> {
    const { repository, clock } = this.deps;
    const session = repository.getSession(this.sessionId);
    if (!session || isEnded(session.status)) return;
    if (session.status === 'pending') repository.updateSession(this.sessionId, { status: 'active' }, clock.now());
    if (repository.listMessages(this.sessionId).length > 0) return;
    await this.tutorTurn('session_start', null, emptyEvaluation);
  }

  /** Processes every stored learner message or widget answer that has no reply yet, in order. */
  private async processUnanswered(): Promise<void> {
    for (;;) {
      const session = this.deps.repository.getSession(this.sessionId);
      if (!session || isEnded(session.status)) return;
      const next = this.deps.repository.findOldestUnanswered(this.sessionId);
      if (!next) return;
      const answered = await this.learnerTurn(session, next);
      if (!answered) return;
    }
  }

  /** One learner turn: safety ∥ evaluation → checklist + FSRS → tutor reply. Returns false if the tutor failed. */
  private async learnerTurn(session: SessionRecord, message: StoredMessage): Promise<boolean> {
    const { repository, provider, logger } = this.deps;
    const signal = this.freshSignal();
    this.broadcast({ type: 'typing', payload: {} });

    const checklist = repository.getChecklist(this.sessionId);
    const unchecked = checklist.filter((entry) => entry.status === 'pending');
    const conversation = repository.listMessages(this.sessionId).filter((stored) => stored.seq <= message.seq);
    const learnerText = message.content;

    const [safety, evaluation] = await Promise.all([
      // A failed or erroring safety check counts as safe: the gate must not take the tutor down with it.
      provider.checkSafety(learnerText, signal).catch((error: unknown) => {
        logger.warn({ err: error, sessionId: this.sessionId }, 'safety gate failed; treating message as safe');
        return { safe: true } as const;
      }),
      this.evaluate(unchecked, conversation, session, signal),
    ]);
    if (signal.aborted) return false;

    if (!safety.safe) {
      logger.warn({ sessionId: this.sessionId, messageId: message.id, reason: safety.reason }, 'unsafe learner message redirected');
      this.commitReply(message, safetyRedirect, null);
      return true;
    }

    this.applyEvaluation(session, unchecked, evaluation);
    const trigger: TutorTrigger = message.role === 'tool_result' ? 'widget_answer' : 'learner_message';
    return this.tutorTurn(trigger, message, evaluation);
  }

  private async evaluate(
    unchecked: ChecklistEntry[],
    conversation: StoredMessage[],
    session: SessionRecord,
    signal: AbortSignal,
  ): Promise<EvaluationResult> {
    // Already-recalled points are never sent again; with nothing unchecked there is no call.
    if (unchecked.length === 0) return emptyEvaluation;
    try {
      const raw = await this.deps.provider.evaluate(
        {
          sessionId: this.sessionId,
          points: unchecked.map(toChecklistPoint),
          recentMessages: toConversation(conversation).slice(-evaluatorWindow),
          mode: session.mode,
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

  /** Checks off recalled points, reviews their cards, moves the probe — one transaction. */
  private applyEvaluation(session: SessionRecord, unchecked: ChecklistEntry[], evaluation: EvaluationResult): void {
    const { repository, clock } = this.deps;
    const now = clock.now();
    const recalledIds = new Set(evaluation.recalledPoints.map((point) => point.id));
    repository.transaction(() => {
      const retention = repository.getDesiredRetention(session.learnerId);
      for (const point of evaluation.recalledPoints) {
        repository.markRecalled(this.sessionId, point.id, {
          confidence: point.confidence,
          observation: point.observation,
          turn: session.turn,
          at: now,
        });
        this.review(session.learnerId, point.id, ratingForConfidence(point.confidence), point.confidence, retention, now);
      }
      const checklist = repository.getChecklist(this.sessionId);
      const probe = checklist[session.probeIndex];
      const probeRecalled = !probe || probe.status === 'recalled' || recalledIds.has(probe.pointId);
      const nextProbe = probeRecalled ? nextPendingIndex(checklist, session.probeIndex) : session.probeIndex;
      repository.updateSession(
        this.sessionId,
        {
          probeIndex: nextProbe,
          // Attempts count learner turns spent on the current probe point; in a rabbit hole the tutor is not probing.
          probeAttempts: probeRecalled ? 0 : session.mode === 'rabbithole' ? session.probeAttempts : session.probeAttempts + 1,
        },
        now,
      );
    });
    if (unchecked.length > 0) {
      this.deps.logger.debug(
        { sessionId: this.sessionId, recalled: [...recalledIds], unchecked: unchecked.length },
        'evaluation applied',
      );
    }
  }

  private review(learnerId: string, pointId: string, rating: RatingName, confidence: number | null, retention: number, now: Date): void {
    const { repository, ids } = this.deps;
    const existing = repository.getCard(learnerId, pointId);
    const outcome = reviewCard(existing ?? newCard(now), rating, now, retention);
    const cardId = repository.saveCard(learnerId, pointId, outcome.card);
    repository.addReviewLog(
      { cardId, sessionId: this.sessionId, rating, confidence, previous: outcome.previous, reviewedAt: now },
      ids.next(),
    );
  }

  /** Asks the tutor to speak, streams its reply, sanitizes, commits. Returns false on failure. */
  private async tutorTurn(trigger: TutorTrigger, replyTo: StoredMessage | null, evaluation: EvaluationResult): Promise<boolean> {
    const { repository, ids, logger } = this.deps;
    const session = repository.getSession(this.sessionId);
    if (!session || isEnded(session.status)) return false;
    const signal = this.freshSignal();
    const checklist = repository.getChecklist(this.sessionId);
    const probe = checklist[session.probeIndex];
    const probePoint = probe && probe.status === 'pending' ? toChecklistPoint(probe) : null;
    const since = replyTo?.createdAt.getTime() ?? Number.POSITIVE_INFINITY;
    const justRecalled = checklist
      .filter((entry) => entry.status === 'recalled' && entry.recalledAt && entry.recalledAt.getTime() >= since)
      .map(toChecklistPoint);
    const input: TutorInput = {
      sessionId: this.sessionId,
      trigger,
      title: session.title,
      mode: session.mode,
      rabbitholeTopic: session.rabbitholeTopic,
      checklist: checklist.map((entry) => ({ ...toChecklistPoint(entry), recalled: entry.status === 'recalled' })),
      probePoint,
      probeAttempts: session.probeAttempts,
      justRecalled,
      feedback: evaluation.feedback,
      conversation: toConversation(repository.listMessages(this.sessionId)),
      turn: session.turn,
    };
    const pointIds = checklist.map((entry) => entry.pointId);
    // A widget already pending stays the only one: the tutor cannot stack another on it.
    const draft = { pointIds, widgetPending: repository.getPendingAction(this.sessionId) !== null };
    const messageId = ids.next();
    if (trigger === 'session_start') this.broadcast({ type: 'typing', payload: {} });
    this.streaming = { messageId, text: '' };
    let reply: DraftReply;
    try {
      reply = await this.draftReply(input, draft, signal, (text) => {
        this.streaming!.text += text;
        this.broadcast({ type: 'assistant_delta', payload: { messageId, delta: text } });
      });
      if (reply.leaks.length > 0 && !signal.aborted) {
        // The leak never reached the learner (the guard held it back): ask once more, told
        // what leaked; the new draft is not streamed — the final `assistant` replaces the text.
        logger.warn({ sessionId: this.sessionId, leaks: reply.leaks }, 'tutor output leaked internal language; regenerating once');
        const retry = await this.draftReply({ ...input, feedback: regenerationNote(input.feedback, reply.leaks) }, draft, signal, null);
        if (retry.leaks.length > 0) {
          logger.warn({ sessionId: this.sessionId, leaks: retry.leaks }, 'regenerated reply leaked again; leaking sentences stripped');
          reply = { ...retry, text: stripLeaks(retry.text, pointIds), leaks: [] };
        } else {
          reply = retry;
        }
      }
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
    if (!widget && !reply.mode && session.type === 'recall' && !draft.widgetPending) {
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
    this.commitReply(replyTo, text, widget, messageId, reply.mode);
    return true;
  }

  /**
   * One draft of the tutor's reply. Text goes through a LeakGuard: what is safe is passed to
   * `forward` as it streams (null: nothing is streamed); once a leak shows, nothing more is.
   */
  private async draftReply(
    input: TutorInput,
    draft: { pointIds: string[]; widgetPending: boolean },
    signal: AbortSignal,
    forward: ((text: string) => void) | null,
  ): Promise<DraftReply> {
    const guard = new LeakGuard(draft.pointIds);
    let widget: DraftReply['widget'] = null;
    let mode: DraftReply['mode'] = null;
    let toolCallSeen = false;
    for await (const event of this.deps.provider.reply(input, signal)) {
      if (signal.aborted) break;
      if (event.type === 'text_delta') {
        const safe = guard.push(event.text);
        if (safe && forward) forward(safe);
        continue;
      }
      // One tool call per reply (SPEC §4.2), whichever provider: the first widget or mode
      // change decides — even one that does not apply here — and any later one is ignored.
      if (toolCallSeen) {
        this.deps.logger.warn({ sessionId: this.sessionId, toolCallId: event.toolCallId, event: event.type }, 'second tool call in one reply skipped');
        continue;
      }
      toolCallSeen = true;
      if (event.type === 'widget') {
        if (!draft.widgetPending) widget = { toolCallId: event.toolCallId, widget: event.widget };
      } else if (modeChangeApplies(input, event.change)) {
        mode = { toolCallId: event.toolCallId, change: event.change };
      }
    }
    const rest = guard.finish();
    if (rest && forward) forward(rest);
    return { text: guard.received, widget, mode, leaks: guard.leaks };
  }

  /** Persists the tutor's reply (and widget or mode change) and marks the learner message answered, then tells everyone. */
  private commitReply(
    replyTo: StoredMessage | null,
    text: string,
    widget: { toolCallId: string; widget: WidgetRequest } | null,
    messageId = this.deps.ids.next(),
    mode: DraftReply['mode'] = null,
  ): void {
    const { repository, clock, ids } = this.deps;
    const now = clock.now();
    const widgetId = widget ? ids.next() : null;
    repository.transaction(() => {
      repository.appendMessage({
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
      if (replyTo) repository.markAnswered(replyTo.id, now);
      if (mode) {
        // The server tool's result, stored (already answered) so the conversation stays a
        // valid tool_use → tool_result sequence for the next model call.
        const result = repository.appendMessage({
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
        repository.markAnswered(result.id, now);
        repository.updateSession(this.sessionId, modeChanges(mode.change), now);
      }
      if (widget && widgetId) {
        repository.createPendingAction({
          id: widgetId,
          sessionId: this.sessionId,
          toolCallId: widget.toolCallId,
          kind: widget.widget.kind,
          props: { ...widget.widget.props },
          createdAt: now,
        });
        repository.updateSession(this.sessionId, { status: 'awaiting_client_action' }, now);
      }
    });
    if (mode) this.deps.logger.info({ sessionId: this.sessionId, mode: mode.change.mode }, 'tutor changed the session mode');
    this.broadcast({ type: 'assistant', payload: { messageId, message: text } });
    const session = repository.getSession(this.sessionId)!;
    const checklist = repository.getChecklist(this.sessionId);
    const allRecalled = checklist.length > 0 && checklist.every((entry) => entry.status === 'recalled');
    if (allRecalled && session.type === 'recall') {
      this.complete(session, 'all_recalled');
      return;
    }
    const state = this.state(session);
    this.broadcast({ type: 'state_update', payload: { state } });
    if (widget && state.status === 'awaiting_client_action') this.broadcast({ type: 'widget', payload: state.pendingWidget });
  }

  private async handleWidgetResponse(widgetId: string, response: WidgetAnswer, reply: SessionListener): Promise<void> {
    const { repository, clock, ids } = this.deps;
    const session = repository.getSession(this.sessionId);
    if (!session) return;
    if (isEnded(session.status)) return this.fail(reply, 'session_ended', 'This session has ended.');
    const action = repository.getPendingAction(this.sessionId);
    if (!action || action.id !== widgetId) {
      const known = repository.listActions(this.sessionId).find((candidate) => candidate.id === widgetId);
      return this.fail(
        reply,
        'widget_not_pending',
        known ? 'That widget was already answered.' : 'No widget with that id is waiting for an answer.',
      );
    }
    const widget = widgetForAction(action);
    const checked = checkWidgetAnswer(widget, response);
    if (!checked.ok) return this.fail(reply, 'invalid_payload', checked.error);
    const now = clock.now();
    repository.transaction(() => {
      recordWidgetAnswer(repository, { id: ids.next(), action, response, text: checked.value, at: now });
      repository.updateSession(this.sessionId, { status: 'active', turn: session.turn + 1 }, now);
    });
    await this.processUnanswered();
  }

  private async handleRabbithole(topic: string | null, reply: SessionListener): Promise<void> {
    const { repository, clock } = this.deps;
    const session = repository.getSession(this.sessionId);
    if (!session) return;
    if (isEnded(session.status)) return this.fail(reply, 'session_ended', 'This session has ended.');
    repository.updateSession(this.sessionId, modeChanges(topic === null ? { mode: 'recall' } : { mode: 'rabbithole', topic }), clock.now());
    this.broadcast({ type: 'state_update', payload: { state: this.state() } });
  }

  private async endSession(reason: 'ended_by_learner' | 'deleted', reply: SessionListener): Promise<void> {
    const session = this.deps.repository.getSession(this.sessionId);
    if (!session) return;
    if (isEnded(session.status)) return this.fail(reply, 'session_ended', 'This session has already ended.');
    this.complete(session, reason);
  }

  /** Ends the session: unrecalled points reviewed as Again, pending widget cancelled, summary sent. */
  private complete(session: SessionRecord, reason: SessionSummary['reason']): void {
    const { repository, clock } = this.deps;
    const now = clock.now();
    repository.transaction(() => {
      const retention = repository.getDesiredRetention(session.learnerId);
      if (session.type === 'recall') {
        for (const entry of repository.getChecklist(this.sessionId)) {
          if (entry.status === 'pending') this.review(session.learnerId, entry.pointId, 'again', null, retention, now);
        }
      }
      const action = repository.getPendingAction(this.sessionId);
      if (action) repository.resolvePendingAction(action.id, 'cancelled', null, now);
      repository.updateSession(
        this.sessionId,
        { status: reason === 'deleted' ? 'abandoned' : 'completed', endReason: reason, endedAt: now },
        now,
      );
    });
    const ended = repository.getSession(this.sessionId)!;
    this.broadcast({ type: 'state_update', payload: { state: this.state(ended) } });
    this.broadcast({ type: 'session_complete', payload: { summary: this.buildSummary(ended) } });
  }

  private buildSummary(session: SessionRecord): SessionSummary {
    const { repository } = this.deps;
    const checklist = repository.getChecklist(this.sessionId);
    const ended = session.endedAt ?? this.deps.clock.now();
    return {
      sessionId: session.id,
      type: session.type,
      status: session.status === 'abandoned' ? 'abandoned' : 'completed',
      reason: (session.endReason ?? 'ended_by_learner') as SessionSummary['reason'],
      turns: session.turn,
      recalledCount: checklist.filter((entry) => entry.status === 'recalled').length,
      totalPoints: checklist.length,
      durationSeconds: Math.max(0, Math.round((ended.getTime() - session.createdAt.getTime()) / 1000)),
      points: checklist.map((entry) => {
        const card = repository.getCard(session.learnerId, entry.pointId);
        return {
          id: entry.pointId,
          content: entry.content,
          recalled: entry.status === 'recalled',
          ...(card ? { nextDue: card.due.toISOString() } : {}),
        };
      }),
    };
  }
}

interface DraftReply {
  /** The whole text the model produced (leaks included, when there were any). */
  text: string;
  widget: { toolCallId: string; widget: WidgetRequest } | null;
  mode: { toolCallId: string; change: ModeChange } | null;
  /** What leaked; empty for a clean draft. */
  leaks: string[];
}

/** The instruction added to the turn's note when a draft leaked and is asked for again. */
function regenerationNote(feedback: string, leaks: string[]): string {
  const note = `Your previous draft of this reply mentioned internal details (${leaks.join(', ')}). Write the reply again, speaking to the learner directly, without any of them.`;
  return feedback.trim() ? `${feedback.trim()}\n${note}` : note;
}

/**
 * The session columns a mode change sets, whoever asked for it (the learner or the tutor):
 * leaving a rabbit hole starts the current point's cueing afresh.
 */
function modeChanges(change: ModeChange): SessionChanges {
  return change.mode === 'rabbithole'
    ? { mode: 'rabbithole', rabbitholeTopic: change.topic }
    : { mode: 'recall', rabbitholeTopic: null, probeAttempts: 0 };
}

/** A mode change applies only to recall sessions, and only when it changes something. */
function modeChangeApplies(input: TutorInput, change: ModeChange): boolean {
  if (change.mode === 'rabbithole') return input.mode === 'recall' && change.topic.trim().length > 0;
  return input.mode === 'rabbithole';
}

function toChecklistPoint(entry: ChecklistEntry): ChecklistPoint {
  return { id: entry.pointId, content: entry.content, context: entry.context };
}

/** The next pending checklist index after `from`, wrapping around; `from` if none is pending. */
function nextPendingIndex(checklist: ChecklistEntry[], from: number): number {
  for (let step = 1; step <= checklist.length; step += 1) {
    const index = (from + step) % checklist.length;
    if (checklist[index]!.status === 'pending') return index;
  }
  return from;
}
