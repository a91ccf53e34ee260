/**
 * One tutor turn, whatever the conversational session type (SPEC §4.1, §4.2, §4.5): `typing`
 * → safety gate ∥ the type's evaluation hook → the type commits what its evaluation decided →
 * the type's reply (its model input and call; the runner calls no model but the safety gate),
 * streamed through the leak guard (one regeneration, else stripped) where the type has one → a
 * widget from the reply's tool call (or from options written as text), checked by the widget
 * guard, where the type takes tools → one transaction: the reply, the learner message
 * answered, the pending widget or the mode change → `assistant`, `state_update`, `widget`.
 * `stop` and `retry` (SPEC §5) reach the reply it produces. Recall (recall/recall-turn.ts) and
 * thought (thought/thought-room.ts) run on it.
 *
 * The runner owns no state that matters: everything is committed before it is announced, and
 * what is in flight (the text streamed so far) is only for a listener that attaches mid-reply.
 */
import type { ServerEvent, SessionState } from '@tutorloop/shared';
import type { Clock, IdGenerator, Logger } from '../ports';
import type { ModeChange, ToolCall, TutorEvent, TutorProvider, TutorTrigger, WidgetRequest } from '../provider';
import type { StoredMessage } from '../storage/messages';
import type { PendingActionRecord } from '../storage/pending-actions';
import type { SessionSnapshot } from '../storage/session-snapshot';
import type { StoredSession } from '../storage/sessions';
import type { Storage, StorageTx } from '../storage/storage';
import { findPlainChoices } from './sanitize';
import { isEnded, toolNameForKind } from './session-view';
import { guardedReply, type DraftReply } from './tutor-draft';
import { guardWidget, type WidgetGuardInput } from './widget-guard';
import { tutorMessage } from './new-messages';
import type { RetryTarget } from './retry-target';

/** What the runner needs of its room: broadcasting, cancellation, and commit bookkeeping. */
export interface TurnRoom {
  readonly sessionId: string;
  broadcast(event: ServerEvent): void;
  /** The signal for this turn's model calls (aborted when the room cancels in-flight work). */
  freshSignal(): AbortSignal;
  /** Called right after each transaction the runner commits. */
  noteCommit(): void;
}

/** A reply the tutor is asked for, as the type's hooks read it. */
export interface TurnRequest<Evaluation> {
  /** The session as the reply finds it (for a retry: the conversation before the reply it replaces). */
  snapshot: SessionSnapshot;
  trigger: TutorTrigger;
  /** The learner message or widget answer it answers; null for an opening. */
  replyTo: StoredMessage | null;
  evaluation: Evaluation;
  /** Produced again (`retry`): the reply it replaces; null otherwise. */
  retryOf: StoredMessage | null;
}

/** A learner message's evaluation, to be committed once the safety gate let the message through. */
export interface EvaluationStep<Evaluation> {
  snapshot: SessionSnapshot;
  message: StoredMessage;
  evaluation: Evaluation;
  /** The turn's signal (aborted when the room cancels in-flight work). */
  signal: AbortSignal;
}

/** The tools a type's tutor may call: client tools (widgets) and server tools (mode changes). */
export interface TurnTools<Input> {
  /** What a widget is checked against (widget-guard.ts): the points still to recall, the one being cued. */
  widgetGuard(input: Input): Omit<WidgetGuardInput, 'widget'>;
  /** Whether a mode change the tutor asked for applies now. */
  modeChangeApplies(input: Input, change: ModeChange): boolean;
  /** The stored tool call of a mode change (its id is the model's). */
  modeToolCall(change: ModeChange): Omit<ToolCall, 'id'>;
  /** Writes a mode change in the reply's transaction; the session as now stored. */
  applyModeChange(tx: StorageTx, session: StoredSession, change: ModeChange, now: Date): Promise<StoredSession>;
  /** The stored result of the mode-change tool call (the model reads it next turn). */
  modeChangeResult(change: ModeChange): string;
}

/** The type's words for the replies and errors the runner writes itself (SPEC §5: outside clients show them as they come). */
export interface TurnWording {
  /** The reply to a message the safety gate stopped. */
  safetyRedirect: string;
  /** The `llm_unavailable` error's message when the model could not answer. */
  unavailable: string;
}

/** The per-type parts of a turn. */
export interface TurnHooks<Evaluation, Input> {
  /** Runs beside the safety gate; a failure is the type's to absorb (return a neutral result). */
  evaluate(snapshot: SessionSnapshot, message: StoredMessage, signal: AbortSignal): Promise<Evaluation>;
  /** The neutral evaluation of a turn without a learner message (the opening turn). */
  readonly noEvaluation: Evaluation;
  /** Commits what the evaluation decided; the snapshot as it now is, or null when the turn was cancelled meanwhile. */
  applyEvaluation(step: EvaluationStep<Evaluation>): Promise<SessionSnapshot | null>;
  /** The model's input for this reply (handed back to `reply` and `tools`). */
  modelInput(request: TurnRequest<Evaluation>): Input;
  /** The type's model call, streamed; `leaked`: what the previous draft leaked when it is asked for again (else null). */
  reply(input: Input, leaked: string[] | null, signal: AbortSignal): AsyncIterable<TutorEvent>;
  /**
   * The leak guard (SPEC §4.1): words a reply must never contain besides the generic ones
   * (point ids and the like). 'none': the reply streams as written; `finalText` screens it whole.
   */
  readonly leakGuard: { markers(snapshot: SessionSnapshot): string[] } | 'none';
  /** The tools the tutor may call; 'none': text only (a tool call is ignored, options in text stay text). */
  readonly tools: TurnTools<Input> | 'none';
  /** The reply as stored from the text the model wrote (`stopped`: what was streamed before the learner stopped it). */
  finalText(text: string, stopped: boolean): string;
  readonly wording: TurnWording;
  /** The state a learner sees. */
  state(snapshot: SessionSnapshot): SessionState;
  /**
   * After the reply was committed and `assistant` sent: true when the type sent the rest
   * itself (it ended the session, or announced a state read afresh); else the runner sends
   * `state_update` (and `widget`).
   */
  afterReply(snapshot: SessionSnapshot): Promise<boolean>;
}

/** The safety gate every learner message passes (the provider's). */
export type SafetyGate = Pick<TutorProvider, 'checkSafety'>;

export interface TurnRunnerDeps {
  storage: Storage;
  safety: SafetyGate;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
}

export interface TurnRunnerOptions<Evaluation, Input> {
  deps: TurnRunnerDeps;
  room: TurnRoom;
  hooks: TurnHooks<Evaluation, Input>;
}

type ReplyWidget = { toolCallId: string; widget: WidgetRequest };

/**
 * A reply being produced, from the learner's message (or a retry) until the model call ends:
 * what `stop` reaches (SPEC §5). `stop` aborts only the tutor's call; the safety gate and the
 * evaluation run on, so what the learner recalled still counts.
 */
interface ReplyJob {
  readonly stop: AbortController;
  stopped: boolean;
  /** The model call ended: the reply is being committed, too late to stop. */
  produced: boolean;
}

/** A reply to commit: its text and id, what it answers, and what goes with it. */
interface ReplyCommit {
  /** The session as the reply found it. */
  snapshot: SessionSnapshot;
  /** The learner message or widget answer it answers (marked answered with it); null for an opening. */
  replyTo: StoredMessage | null;
  text: string;
  messageId: string;
  /** A client tool the tutor called: stored as the pending widget. */
  widget?: ReplyWidget | null;
  /** A server tool the tutor called: the mode change, stored with its tool result. */
  mode?: DraftReply['mode'];
  /** Cut off by the learner (SPEC §5 `stop`). */
  stopped?: boolean;
  /** Produced again (`retry`): the reply it supersedes. */
  replaces?: RetryTarget | undefined;
}

/** One tutor turn: why the tutor speaks, to what, with the type's evaluation, as the reply in flight. */
interface TutorTurn<Evaluation> {
  trigger: TutorTrigger;
  replyTo: StoredMessage | null;
  evaluation: Evaluation;
  snapshot: SessionSnapshot;
  job: ReplyJob;
  replaces?: RetryTarget | undefined;
}

export class TurnRunner<Evaluation, Input> {
  private inFlight: { messageId: string; text: string } | null = null;
  private job: ReplyJob | null = null;
  private readonly deps: TurnRunnerDeps;
  private readonly room: TurnRoom;
  private readonly hooks: TurnHooks<Evaluation, Input>;

  constructor({ deps, room, hooks }: TurnRunnerOptions<Evaluation, Input>) {
    [this.deps, this.room, this.hooks] = [deps, room, hooks];
  }

  /** The reply being streamed now, if any (a listener attaching mid-reply catches up with it). */
  get streaming(): { messageId: string; text: string } | null {
    return this.inFlight;
  }

  /** True while a reply is being produced (from the learner's message until the model call ends). */
  get replying(): boolean {
    return this.job !== null;
  }

  /**
   * Stops the reply being produced (SPEC §5 `stop`): its model call is cancelled and the text
   * streamed so far is committed as the reply, marked stopped; the turn then ends as usual.
   * False when no reply is in flight (or it is already stopping).
   */
  stop(): boolean {
    if (!this.job || this.job.stopped || this.job.produced) return false;
    this.job.stopped = true;
    this.job.stop.abort();
    return true;
  }

  /** One learner turn: safety ∥ evaluation → the type's commit → the tutor's reply. False if the tutor failed or was cancelled. */
  learnerTurn(snapshot: SessionSnapshot, message: StoredMessage): Promise<boolean> {
    return this.producing((job) => this.runLearnerTurn(snapshot, message, job));
  }

  /**
   * Produces the last reply again (SPEC §5 `retry`): from the conversation as it stood before
   * it, without evaluating the learner's message a second time (its evaluation is applied and
   * stays). The safety gate runs again on a chat message, so a redirect is never undone by
   * asking twice. The new reply supersedes the old (kept in storage) and its tool result, and
   * takes over from its widget if one was still waiting.
   */
  retryTurn(snapshot: SessionSnapshot, target: RetryTarget): Promise<boolean> {
    return this.producing(async (job) => {
      const { safety, logger } = this.deps;
      const { previous, replyTo, pendingAction } = target;
      const before: SessionSnapshot = {
        ...snapshot,
        messages: snapshot.messages.filter((message) => message.seq < previous.seq),
        // The widget the old reply handed out goes with it: the new reply may hand out its own.
        pendingAction: pendingAction ? null : snapshot.pendingAction,
        session: pendingAction ? { ...snapshot.session, status: 'active' } : snapshot.session,
      };
      this.room.broadcast({ type: 'typing', payload: {} });
      if (replyTo?.role === 'learner') {
        const signal = this.room.freshSignal();
        const verdict = await safety.checkSafety(replyTo.content, signal).catch(() => ({ safe: true }) as const);
        if (signal.aborted) return false;
        if (!verdict.safe) {
          logger.warn({ sessionId: this.room.sessionId, messageId: replyTo.id }, 'retried reply to an unsafe message redirected again');
          await this.commitReply({ snapshot: before, replyTo, text: this.hooks.wording.safetyRedirect, messageId: this.deps.ids.next(), replaces: target });
          return true;
        }
      }
      const trigger: TutorTrigger = replyTo === null ? 'session_start' : replyTo.role === 'tool_result' ? 'widget_answer' : 'learner_message';
      return this.tutorTurn({ trigger, replyTo, evaluation: this.hooks.noEvaluation, snapshot: before, job, replaces: target });
    });
  }

  /** The opening turn of a new session: the tutor speaks first. */
  openingTurn(snapshot: SessionSnapshot): Promise<boolean> {
    return this.producing((job) => this.tutorTurn({ trigger: 'session_start', replyTo: null, evaluation: this.hooks.noEvaluation, snapshot, job }));
  }

  /** Runs `work` as the reply in flight, the one `stop` reaches. */
  private async producing(work: (job: ReplyJob) => Promise<boolean>): Promise<boolean> {
    const job: ReplyJob = { stop: new AbortController(), stopped: false, produced: false };
    this.job = job;
    try {
      return await work(job);
    } finally {
      if (this.job === job) this.job = null;
    }
  }

  private async runLearnerTurn(snapshot: SessionSnapshot, message: StoredMessage, job: ReplyJob): Promise<boolean> {
    const { safety, logger } = this.deps;
    const signal = this.room.freshSignal();
    this.room.broadcast({ type: 'typing', payload: {} });
    const [verdict, evaluation] = await Promise.all([
      // A failed or erroring safety check counts as safe: the gate must not take the tutor down with it.
      safety.checkSafety(message.content, signal).catch((error: unknown) => {
        logger.warn({ err: error, sessionId: this.room.sessionId }, 'safety gate failed; treating message as safe');
        return { safe: true } as const;
      }),
      this.hooks.evaluate(snapshot, message, signal),
    ]);
    if (signal.aborted) return false;
    if (!verdict.safe) {
      logger.warn({ sessionId: this.room.sessionId, messageId: message.id, reason: verdict.reason }, 'unsafe learner message redirected');
      await this.commitReply({ snapshot, replyTo: message, text: this.hooks.wording.safetyRedirect, messageId: this.deps.ids.next() });
      return true;
    }
    const evaluated = await this.hooks.applyEvaluation({ snapshot, message, evaluation, signal });
    if (!evaluated) return false;
    this.room.noteCommit();
    const trigger: TutorTrigger = message.role === 'tool_result' ? 'widget_answer' : 'learner_message';
    return this.tutorTurn({ trigger, replyTo: message, evaluation, snapshot: evaluated, job });
  }

  /** Asks the tutor to speak, streams its reply, sanitizes, commits. Returns false on failure. */
  private async tutorTurn(turn: TutorTurn<Evaluation>): Promise<boolean> {
    const { trigger, replyTo, evaluation, snapshot, job, replaces } = turn;
    const { ids, logger } = this.deps;
    const { hooks } = this;
    if (isEnded(snapshot.session.status)) return false;
    const roomSignal = this.room.freshSignal();
    // Stopped before the tutor was asked (during the evaluation): an empty stopped reply ends the turn.
    if (job.stopped) {
      await this.commitReply({ snapshot, replyTo, text: '', messageId: ids.next(), stopped: true, replaces });
      return true;
    }
    const signal = AbortSignal.any([roomSignal, job.stop.signal]);
    const input = hooks.modelInput({ snapshot, trigger, replyTo, evaluation, retryOf: replaces?.previous ?? null });
    const { tools } = hooks;
    // A widget already pending stays the only one: the tutor cannot stack another on it.
    const widgetPending = snapshot.pendingAction !== null;
    const messageId = ids.next();
    if (trigger === 'session_start') this.room.broadcast({ type: 'typing', payload: {} });
    const streaming = { messageId, text: '' };
    this.inFlight = streaming;
    let reply: DraftReply;
    try {
      reply = await guardedReply({
        sessionId: this.room.sessionId,
        reply: (leaked, callSignal) => hooks.reply(input, leaked, callSignal),
        leakMarkers: hooks.leakGuard === 'none' ? null : hooks.leakGuard.markers(snapshot),
        widgetPending: tools === 'none' || widgetPending,
        modeChangeApplies: (change) => tools !== 'none' && tools.modeChangeApplies(input, change),
        signal,
        forward: (text) => {
          streaming.text += text;
          this.room.broadcast({ type: 'assistant_delta', payload: { messageId, delta: text } });
        },
        logger,
      });
    } catch (error) {
      this.inFlight = null;
      job.produced = true;
      if (job.stopped && !roomSignal.aborted) return this.commitStopped({ snapshot, replyTo, streamed: streaming, replaces });
      if (signal.aborted) return false;
      logger.error({ err: error, sessionId: this.room.sessionId }, 'tutor call failed');
      this.room.broadcast({ type: 'error', payload: { code: 'llm_unavailable', message: hooks.wording.unavailable } });
      return false;
    }
    this.inFlight = null;
    job.produced = true;
    if (job.stopped && !roomSignal.aborted) return this.commitStopped({ snapshot, replyTo, streamed: streaming, replaces });
    if (signal.aborted) return false;

    let text = hooks.finalText(reply.text, false);
    let widget = reply.widget;
    if (tools !== 'none' && !widget && !reply.mode && !widgetPending) {
      // Options written as text instead of a present_choices call: issue the widget properly.
      const choices = findPlainChoices(text);
      if (choices) {
        logger.info({ sessionId: this.room.sessionId, options: choices.options.length }, 'options in plain text issued as a multiple-choice widget');
        text = choices.remainder;
        widget = { toolCallId: `auto-${ids.next()}`, widget: { kind: 'multiple_choice', props: { prompt: choices.prompt, options: choices.options } } };
      }
    }
    if (widget && tools !== 'none') widget = this.guardWidget(tools.widgetGuard(input), widget);
    await this.commitReply({ snapshot, replyTo, text, messageId, widget, mode: reply.mode, replaces });
    return true;
  }

  /**
   * Commits what was streamed before the learner stopped the reply, marked stopped (SPEC §5);
   * a widget or mode change the cut-off reply was about to make is dropped with the rest.
   */
  private async commitStopped(stopped: { snapshot: SessionSnapshot; replyTo: StoredMessage | null; streamed: { messageId: string; text: string }; replaces: RetryTarget | undefined }): Promise<boolean> {
    const { snapshot, replyTo, streamed, replaces } = stopped;
    this.deps.logger.info({ sessionId: this.room.sessionId, messageId: streamed.messageId, characters: streamed.text.length }, 'reply stopped by the learner');
    await this.commitReply({ snapshot, replyTo, text: this.hooks.finalText(streamed.text, true), messageId: streamed.messageId, stopped: true, replaces });
    return true;
  }

  /** No widget gives a point still to recall away (widget-guard.ts): repaired or refused, and logged. */
  private guardWidget(context: Omit<WidgetGuardInput, 'widget'>, widget: ReplyWidget): ReplyWidget | null {
    const guarded = guardWidget({ ...context, widget: widget.widget });
    if (guarded.outcome === 'kept') return widget;
    const { sessionId } = this.room;
    if (guarded.outcome === 'refused') {
      this.deps.logger.warn({ sessionId, kind: widget.widget.kind, reasons: guarded.reasons }, 'widget refused: it gave away a point still to recall');
      return null;
    }
    this.deps.logger.warn({ sessionId, kind: widget.widget.kind, repairedKind: guarded.widget.kind, reasons: guarded.reasons }, 'widget repaired: it gave away a point still to recall');
    return { toolCallId: widget.toolCallId, widget: guarded.widget };
  }

  /** Persists the reply (and its widget or mode change) and marks the learner message answered, in one transaction; then tells everyone. */
  private async commitReply(reply: ReplyCommit): Promise<void> {
    const { storage, clock, ids } = this.deps;
    const { snapshot, replyTo, text, messageId, widget = null, stopped = false, replaces } = reply;
    const { tools } = this.hooks;
    // Only a type with tools takes a mode change (the draft keeps none otherwise).
    const mode = reply.mode && tools !== 'none' ? { ...reply.mode, tools } : null;
    const sessionId = this.room.sessionId;
    const now = clock.now();
    const widgetId = widget ? ids.next() : null;
    const committed = await storage.transaction(async (tx) => {
      let session = snapshot.session;
      let pendingAction: PendingActionRecord | null = snapshot.pendingAction;
      const toolCall = widget
        ? { id: widget.toolCallId, name: toolNameForKind(widget.widget.kind), input: { ...widget.widget.props } }
        : mode
          ? { id: mode.toolCallId, ...mode.tools.modeToolCall(mode.change) }
          : null;
      if (replaces) {
        // The old reply stays stored, marked superseded, with its tool result; its widget, if
        // still waiting, is cancelled before the new reply may hand out its own.
        for (const old of [replaces.previous, ...replaces.followers]) await tx.messages.markSuperseded(old.id, messageId);
        if (replaces.pendingAction) {
          await tx.pendingActions.resolve(replaces.pendingAction.id, 'cancelled', null, now);
          if (!widget) session = await tx.sessions.update(sessionId, { status: 'active' }, now);
        }
      }
      await tx.messages.append({ ...tutorMessage({ id: messageId, sessionId, content: text, toolCall, createdAt: now }), ...(stopped ? { stopped } : {}) });
      // A retried reply answers a message that is already answered.
      if (replyTo && !replaces) await tx.messages.markAnswered(replyTo.id, now);
      if (mode) {
        // The server tool's result, stored (already answered) so the conversation stays a
        // valid tool_use → tool_result sequence for the next model call.
        const content = mode.tools.modeChangeResult(mode.change);
        const result = await tx.messages.append({ id: ids.next(), sessionId, role: 'tool_result', content, toolCall: null, toolCallId: mode.toolCallId, widgetAnswer: null, clientMessageId: null, createdAt: now });
        await tx.messages.markAnswered(result.id, now);
        session = await mode.tools.applyModeChange(tx, session, mode.change, now);
      }
      if (widget && widgetId) {
        pendingAction = await tx.pendingActions.create({ id: widgetId, sessionId, toolCallId: widget.toolCallId, kind: widget.widget.kind, props: { ...widget.widget.props }, createdAt: now });
        session = await tx.sessions.update(sessionId, { status: 'awaiting_client_action' }, now);
      }
      return { session, pendingAction };
    });
    this.room.noteCommit();
    if (mode) this.deps.logger.info({ sessionId, mode: mode.change.mode }, 'tutor changed the session mode');
    this.room.broadcast({
      type: 'assistant',
      payload: { messageId, message: text, ...(stopped ? { stopped: true as const } : {}), ...(replaces ? { replaces: replaces.previous.id } : {}) },
    });
    const after: SessionSnapshot = { ...snapshot, ...committed };
    if (await this.hooks.afterReply(after)) return;
    const state = this.hooks.state(after);
    this.room.broadcast({ type: 'state_update', payload: { state } });
    if (widget && state.status === 'awaiting_client_action') this.room.broadcast({ type: 'widget', payload: state.pendingWidget });
  }
}
