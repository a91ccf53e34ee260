/**
 * The engine of an assessment session (SPEC §4.3): the backend picks each item (through the
 * backend tools), presents it as a widget, scores the answer on the server — exact match for
 * choices, tests in the sandbox for code — updates IRT-lite abilities, and moves on. No hint
 * and no correctness reaches the learner before the end; the time limit is the server's.
 *
 * No model is called here: the framing is the server's own short text, so the correct answer
 * cannot enter any model context. Every step is stored first, so a restart resumes exactly
 * (the pending item's widget included) and the same seed gives the same next item.
 */
import type { SessionState, SessionSummary, WidgetAnswer } from '@tutorloop/shared';
import { estimateAbilities, nextItem, randomForItem, scoreChoice, type AssessmentBlueprint, type Catalog, type EarlierItems, type GeneratedItem } from '../assessment';
import type { Clock, IdGenerator } from '../ports';
import { RoomBase, type RoomBaseDeps, type RoomFrames, type SessionListener } from '../session/room-base';
import { checkWidgetAnswer, itemAnswerFields, recordWidgetAnswer } from '../session/widget-answers';
import { isEnded, toolNameForKind, widgetForAction } from '../session/session-view';
import type { StoredItem, StoredResponse } from '../storage/assessments';
import type { SessionSnapshot } from '../storage/session-snapshot';
import type { StoredSession } from '../storage/sessions';
import type { Storage } from '../storage/storage';
import { deadlineOf, type AssessmentConfig } from './assessment-config';
import { assessmentOf, assessmentSetup, assessmentState, assessmentSummary, framingText, responseRecords, widgetForItem } from './assessment-view';
import { scoreCode, type CodeRunner } from '../assessment/code-scoring';
import { BackendToolRegistry, type BackendToolContext, type CompleteResult, type EvaluateInput, type EvaluateResult, type NextItemResult } from './backend-tools';
import { learnerMessage, tutorMessage } from '../session/new-messages';
import { earlierItems } from './earlier-attempts';

export interface AssessmentRoomDeps extends RoomBaseDeps {
  storage: Storage;
  catalog: Catalog;
  codeRunner: CodeRunner;
  clock: Clock;
  ids: IdGenerator;
}

/** What the learner hears when they chat during an assessment. */
export const assessmentChatReply =
  'During the assessment I can’t give hints or say whether an answer is right — you’ll see everything in your results at the end. Answer the item above whenever you’re ready.';

export class AssessmentRoom extends RoomBase<AssessmentRoomDeps> {
  private deadlineTimer: NodeJS.Timeout | null = null;
  /** The learner's earlier attempts' items, read once: they cannot change while this one runs. */
  private earlier: EarlierItems | null = null;
  readonly tools: BackendToolRegistry;

  constructor(
    sessionId: string,
    deps: AssessmentRoomDeps,
    onIdle: () => void = () => {},
  ) {
    super(sessionId, deps, onIdle);
    this.tools = new BackendToolRegistry({
      nextItem: () => this.pickNextItem(),
      evaluate: (_context, input) => this.evaluate(input),
      complete: (_context, reason) => this.finish(reason),
    });
  }

  /** Chat gets a fixed line; answers are scored on the server; no tangents, and no reply to stop or produce again. */
  protected override readonly frames: RoomFrames = {
    chat: (text, clientMessageId, reply) => this.enqueue(() => this.handleChat(text, clientMessageId, reply)),
    widgets: (widgetId, response, reply) => this.handleAnswer(widgetId, response, reply),
    tangents: 'Rabbit holes belong to recall sessions; an assessment goes item by item.',
    // No model writes an assessment's messages (the framing is the server's own text, sent
    // whole), so there is never a reply in flight to stop or one to produce again (SPEC §5).
    stop: 'There is no reply being written to stop.',
    retry: 'An assessment’s items are fixed; there is no reply to produce again.',
    // Not cancelled: an answer being scored is the learner's and counts; ending waits for it.
    end: {
      end: async (reply) => {
        const snapshot = await this.load();
        if (!snapshot || isEnded(snapshot.session.status)) return this.fail(reply, 'session_ended', 'This assessment has already ended.');
        await this.complete('ended_by_learner');
      },
      cancelsInFlight: false,
    },
  };

  override resume(): void {
    void this.enqueue(async () => {
      const snapshot = await this.load();
      if (!snapshot || isEnded(snapshot.session.status)) return;
      await this.advance();
    });
  }

  override close(): void {
    this.clearDeadlineTimer();
    super.close();
  }

  override terminate(): void {
    this.clearDeadlineTimer();
    super.terminate();
  }

  // -------------------------------------------------------------------------

  /** The session without its conversation: state, items and responses. */
  private load(): Promise<SessionSnapshot | null> {
    return this.deps.storage.loadSessionSnapshot(this.sessionId, { lastMessages: 0 });
  }

  protected override summaryOf(snapshot: SessionSnapshot, now: Date): SessionSummary {
    return assessmentSummary(this.deps.catalog, snapshot, now);
  }

  protected override stateOf(snapshot: SessionSnapshot): SessionState {
    return assessmentState(this.deps.catalog, snapshot, this.deps.clock.now());
  }

  private setup(session: StoredSession): { blueprint: AssessmentBlueprint; config: AssessmentConfig } {
    return assessmentSetup(this.deps.catalog, session);
  }

  private context(): BackendToolContext {
    return { sessionId: this.sessionId, sessionType: 'assessment' };
  }

  private expired(config: AssessmentConfig, items: StoredItem[]): boolean {
    const deadline = deadlineOf(config, items);
    return deadline !== null && this.deps.clock.now().getTime() >= deadline.getTime();
  }

  /** Presents the next item, or ends the assessment when time is up or every item is answered. */
  private async advance(): Promise<void> {
    if (!(await this.scoreStoredAnswers())) return;
    let snapshot = await this.load();
    if (!snapshot || isEnded(snapshot.session.status)) return;
    const { config } = this.setup(snapshot.session);
    const { items, responses } = assessmentOf(snapshot);
    if (this.expired(config, items)) return this.complete('time_expired');
    if (snapshot.session.status === 'pending') {
      const session = await this.deps.storage.transaction((tx) => tx.sessions.update(this.sessionId, { status: 'active' }, this.deps.clock.now()));
      this.noteCommit();
      snapshot = { ...snapshot, session };
    }
    const answered = new Set(responses.map((response) => response.itemId));
    if (items.some((stored) => !answered.has(stored.id))) {
      this.armDeadline(config, items);
      return;
    }
    const next = await this.tools.call(this.tools.nextItem, this.context(), undefined);
    if (!next.result.item) return this.complete('all_answered');
    const presented = await this.present(snapshot, next.result.item, next.result.position);
    this.armDeadline(config, presented);
  }

  private async pickNextItem(): Promise<NextItemResult> {
    const snapshot = await this.load();
    if (!snapshot) throw new Error(`session ${this.sessionId} vanished`);
    const { blueprint, config } = this.setup(snapshot.session);
    const { items, responses } = assessmentOf(snapshot);
    const records = responseRecords(items, responses);
    const position = items.length + 1;
    this.earlier ??= await this.deps.storage.read((reader) => earlierItems(reader, snapshot.session, blueprint.id));
    const item = nextItem(this.deps.catalog, blueprint.id, records, randomForItem(config.seed, position), this.earlier);
    return { item, position, totalItems: blueprint.totalItems };
  }

  /** Stores the item, its framing message and its widget in one transaction, then shows it. Returns the items now presented. */
  private async present(snapshot: SessionSnapshot, item: GeneratedItem, position: number): Promise<StoredItem[]> {
    const { storage, clock, ids } = this.deps;
    const { blueprint, config } = this.setup(snapshot.session);
    const now = clock.now();
    const widget = widgetForItem(item, position, blueprint.totalItems);
    const widgetId = ids.next();
    const toolCallId = `item-${position}-${widgetId}`;
    const messageId = ids.next();
    const framing = framingText(blueprint, item, position, config);
    const stored: StoredItem = { id: ids.next(), sessionId: this.sessionId, position, item, widgetId, presentedAt: now };
    const { session, pendingAction } = await storage.transaction(async (tx) => {
      await tx.assessments.addItem(stored);
      await tx.messages.append(
        tutorMessage({ id: messageId, sessionId: this.sessionId, content: framing, toolCall: { id: toolCallId, name: toolNameForKind(widget.kind), input: { ...widget.props } }, createdAt: now }),
      );
      const pendingAction = await tx.pendingActions.create({ id: widgetId, sessionId: this.sessionId, toolCallId, kind: widget.kind, props: { ...widget.props }, createdAt: now });
      const session = await tx.sessions.update(this.sessionId, { status: 'awaiting_client_action' }, now);
      return { session, pendingAction };
    });
    this.noteCommit();
    // The learner will run or submit code soon: start the sandbox now rather than on their click.
    if (item.kind === 'code') this.deps.codeRunner.warm?.().catch((error: unknown) => this.deps.logger.warn({ err: error }, 'could not warm the sandbox'));
    const items = [...assessmentOf(snapshot).items, stored];
    this.broadcast({ type: 'typing', payload: {} });
    this.broadcast({ type: 'assistant', payload: { messageId, message: framing } });
    const state = this.stateOf({ ...snapshot, session, pendingAction, assessment: { items, responses: assessmentOf(snapshot).responses } });
    this.broadcast({ type: 'state_update', payload: { state } });
    if (state.status === 'awaiting_client_action') this.broadcast({ type: 'widget', payload: state.pendingWidget });
    return items;
  }

  private async handleAnswer(widgetId: string, response: WidgetAnswer, reply: SessionListener): Promise<void> {
    const { storage, clock, ids } = this.deps;
    const snapshot = await this.load();
    if (!snapshot) return;
    if (isEnded(snapshot.session.status)) return this.fail(reply, 'session_ended', 'This assessment has ended; your results are ready.');
    const { config } = this.setup(snapshot.session);
    if (this.expired(config, assessmentOf(snapshot).items)) {
      await this.complete('time_expired');
      return this.fail(reply, 'session_ended', 'Time is up: answers given before the limit are scored.');
    }
    // The pending item is read in the transaction that answers it. The answer is stored before
    // it is scored (SPEC §8): a crash or a cancelled run while the sandbox works loses nothing,
    // and `advance` scores it when the session resumes.
    const now = clock.now();
    const refusal = await storage.transaction(async (tx) => {
      const action = await tx.pendingActions.getPending(this.sessionId);
      if (!action || action.id !== widgetId) {
        const known = (await tx.pendingActions.list(this.sessionId)).some((candidate) => candidate.id === widgetId);
        return { code: 'widget_not_pending', message: known ? 'That item was already answered.' : 'No item with that id is waiting for an answer.' } as const;
      }
      const checked = checkWidgetAnswer(widgetForAction(action), response);
      if (!checked.ok) return { code: 'invalid_payload', message: checked.error } as const;
      if (!assessmentOf(snapshot).items.some((candidate) => candidate.widgetId === widgetId)) throw new Error(`pending widget ${widgetId} has no item`);
      await recordWidgetAnswer(tx, { id: ids.next(), action, response, text: checked.value, at: now });
      await tx.sessions.update(this.sessionId, { status: 'active' }, now);
      return null;
    });
    if (refusal) return this.fail(reply, refusal.code, refusal.message);
    this.noteCommit();
    await this.advance();
  }

  /**
   * Scores every stored answer that has no score yet — the one just given, or one a crash
   * or a cancellation left — in order. False if a run was cancelled (left for the next resume).
   */
  private async scoreStoredAnswers(): Promise<boolean> {
    const { storage, clock } = this.deps;
    const first = await this.load();
    if (!first?.assessment) return true;
    const scored = new Set(first.assessment.responses.map((response) => response.itemId));
    const unscored = first.assessment.items.filter((stored) => !scored.has(stored.id));
    if (unscored.length === 0) return true;
    const snapshot = (await storage.loadSessionSnapshot(this.sessionId))!;
    const { blueprint } = this.setup(snapshot.session);
    const answers = new Map(
      snapshot.messages.flatMap((message) => (message.role === 'tool_result' && message.widgetAnswer && message.answeredAt === null ? [[message.widgetAnswer.widgetId, message] as const] : [])),
    );
    let session = snapshot.session;
    const items = assessmentOf(snapshot).items;
    const responses = [...assessmentOf(snapshot).responses];
    for (const stored of unscored) {
      const message = answers.get(stored.widgetId);
      if (!message?.widgetAnswer) continue;
      const response = message.widgetAnswer.response;
      const input: EvaluateInput = {
        item: stored.item,
        answerText: message.content,
        ...itemAnswerFields(response),
        owner: session.learnerId,
      };
      const signal = this.freshSignal();
      let result: EvaluateResult;
      try {
        result = (await this.tools.call(this.tools.evaluate, this.context(), { ...input, signal })).result;
      } catch (error) {
        // Shutdown or nobody left listening stopped a code run: the answer stays stored and is
        // scored on the next resume.
        if (signal.aborted) return false;
        throw error;
      }
      const now = clock.now();
      const answeredAt = message.createdAt;
      const answer: StoredResponse = {
        itemId: stored.id,
        answerText: message.content,
        credit: result.credit,
        testsPassed: result.testsPassed,
        testsTotal: result.testsTotal,
        note: result.note,
        ...(result.outcomes ? { testOutcomes: result.outcomes } : {}),
        // Timed to when the learner answered, not to when scoring finished.
        responseSeconds: Math.max(0, (answeredAt.getTime() - stored.presentedAt.getTime()) / 1000),
        answeredAt,
      };
      responses.push(answer);
      const abilities = estimateAbilities(this.deps.catalog, blueprint.id, responseRecords(items, responses));
      const turn = session.turn + 1;
      session = await storage.transaction(async (tx) => {
        await tx.messages.markAnswered(message.id, now);
        await tx.assessments.addResponse(this.sessionId, answer);
        await tx.assessments.saveAbilities(this.sessionId, session.learnerId, abilities, now);
        return tx.sessions.update(this.sessionId, { turn }, now);
      });
      this.noteCommit();
      this.broadcast({ type: 'state_update', payload: { state: this.stateOf({ ...snapshot, session, assessment: { items, responses: [...responses] } }) } });
    }
    return true;
  }

  /** Scores an answer on the server: exact match for a choice, the tests in the sandbox for code. */
  private async evaluate(input: EvaluateInput): Promise<EvaluateResult> {
    const { item } = input;
    if (item.kind !== 'code' || !item.code) {
      return { credit: scoreChoice(item, input.selectedIndex ?? -1), testsPassed: null, testsTotal: null, note: null };
    }
    return scoreCode(this.deps.codeRunner, item.code, { code: input.code ?? '', ...(input.owner ? { owner: input.owner } : {}) }, input.signal);
  }

  private async handleChat(text: string, clientMessageId: string | null, reply: SessionListener): Promise<void> {
    const { storage, clock, ids } = this.deps;
    const now = clock.now();
    const messageId = ids.next();
    const outcome = await storage.transaction(async (tx) => {
      const session = await tx.sessions.get(this.sessionId);
      if (!session) return 'missing' as const;
      if (isEnded(session.status)) return 'ended' as const;
      if (clientMessageId && (await tx.messages.findByClientId(this.sessionId, clientMessageId))) return 'duplicate' as const;
      const learner = await tx.messages.append(learnerMessage({ id: ids.next(), sessionId: this.sessionId, content: text, clientMessageId, createdAt: now }));
      await tx.messages.append(tutorMessage({ id: messageId, sessionId: this.sessionId, content: assessmentChatReply, createdAt: now }));
      await tx.messages.markAnswered(learner.id, now);
      return tx.loadSessionSnapshot(this.sessionId, { lastMessages: 0 });
    });
    if (outcome === 'missing' || outcome === 'duplicate' || outcome === null) return;
    if (outcome === 'ended') return this.fail(reply, 'session_ended', 'This assessment has ended; your results are ready.');
    this.noteCommit();
    this.broadcast({ type: 'typing', payload: {} });
    this.broadcast({ type: 'assistant', payload: { messageId, message: assessmentChatReply } });
    this.broadcast({ type: 'state_update', payload: { state: this.stateOf(outcome) } });
  }

  private async complete(reason: 'all_answered' | 'ended_by_learner' | 'time_expired'): Promise<void> {
    await this.tools.call(this.tools.complete, this.context(), reason);
    const ended = await this.load();
    if (!ended) return;
    this.broadcast({ type: 'state_update', payload: { state: this.stateOf(ended) } });
    this.broadcast({ type: 'session_complete', payload: { summary: this.summaryOf(ended, this.deps.clock.now()) } });
  }

  private async finish(reason: string): Promise<CompleteResult> {
    const { storage, clock } = this.deps;
    const now = clock.now();
    this.clearDeadlineTimer();
    const snapshot = await storage.transaction(async (tx) => {
      const action = await tx.pendingActions.getPending(this.sessionId);
      if (action) await tx.pendingActions.resolve(action.id, 'cancelled', null, now);
      await tx.sessions.update(this.sessionId, { status: 'completed', endReason: reason, endedAt: now }, now);
      return tx.loadSessionSnapshot(this.sessionId, { lastMessages: 0 });
    });
    if (!snapshot) throw new Error(`session ${this.sessionId} vanished`);
    this.noteCommit();
    const { responses } = assessmentOf(snapshot);
    return {
      reason,
      answered: responses.length,
      totalItems: this.setup(snapshot.session).blueprint.totalItems,
      score: responses.reduce((sum, response) => sum + response.credit, 0),
    };
  }

  /** Ends the session at its deadline while the room is alive (otherwise on the next visit). */
  private armDeadline(config: AssessmentConfig, items: StoredItem[]): void {
    const deadline = deadlineOf(config, items);
    if (!deadline || this.deadlineTimer) return;
    const delay = Math.max(0, deadline.getTime() - this.deps.clock.now().getTime());
    // setTimeout holds at most ~24.8 days; a longer limit is checked on the next action.
    if (delay > 2 ** 31 - 1) return;
    this.deadlineTimer = setTimeout(() => {
      this.deadlineTimer = null;
      void this.enqueue(() => this.advance());
    }, delay);
    this.deadlineTimer.unref();
  }

  private clearDeadlineTimer(): void {
    if (this.deadlineTimer) clearTimeout(this.deadlineTimer);
    this.deadlineTimer = null;
  }
}

