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
import type { ClientMessage, HistoryMessage, SessionState, SessionSummary, WidgetAnswer } from '@tutorloop/shared';
import {
  creditFromTests,
  estimateAbilities,
  nextItem,
  randomForItem,
  scoreChoice,
  toResponseRecord,
  type AssessmentBlueprint,
  type Catalog,
  type GeneratedItem,
  type ResponseRecord,
} from '../assessment';
import type { Clock, IdGenerator, Logger } from '../ports';
import { RoomBase, type RoomBaseDeps, type SessionListener } from '../session/room-base';
import type { SessionRecord, SessionRepository } from '../session/session-repository';
import { checkWidgetAnswer, recordWidgetAnswer } from '../session/widget-answers';
import { buildHistory, buildState, isEnded, toolNameForKind, widgetForAction } from '../session/session-view';
import { deadlineOf, type AssessmentConfig, type AssessmentRepository, type StoredItem, type StoredResponse } from './assessment-repository';
import { buildResults, progressOf, sectionTitle, widgetForItem } from './assessment-view';
import { BackendToolRegistry, type BackendToolContext, type CompleteResult, type EvaluateInput, type EvaluateResult, type NextItemResult } from './backend-tools';

/** Runs learner code against tests (the sandbox adapter implements it). */
export interface CodeRunner {
  run(
    request: {
      language: 'python' | 'javascript';
      code: string;
      functionName: string;
      tests: Array<{ args: unknown[]; expected: unknown }>;
      /** Whose run it is: the sandbox queues per owner, so one learner's loops cannot starve others. */
      owner?: string;
    },
    signal?: AbortSignal,
  ): Promise<{ passed: number; total: number; error?: { kind: string; message: string } }>;
}

/** While the learner already has runs queued (`busy`), how long to wait before asking again, and how often. */
const busyRetryMs = 500;
const busyRetries = 40;

export interface AssessmentRoomDeps extends RoomBaseDeps {
  repository: SessionRepository;
  assessments: AssessmentRepository;
  catalog: Catalog;
  codeRunner: CodeRunner;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
}

/** What the learner hears when they chat during an assessment. */
export const assessmentChatReply =
  'During the assessment I can’t give hints or say whether an answer is right — you’ll see everything in your results at the end. Answer the item above whenever you’re ready.';

export class AssessmentRoom extends RoomBase {
  private deadlineTimer: NodeJS.Timeout | null = null;
  readonly tools: BackendToolRegistry;

  constructor(
    sessionId: string,
    private readonly deps: AssessmentRoomDeps,
    onIdle: () => void = () => {},
  ) {
    super(sessionId, deps, onIdle);
    this.tools = new BackendToolRegistry({
      nextItem: (context) => Promise.resolve(this.pickNextItem(context)),
      evaluate: (_context, input) => this.evaluate(input),
      complete: (context, reason) => Promise.resolve(this.finish(context, reason)),
    });
  }

  override attach(listener: SessionListener, terminate?: () => void): void {
    const session = this.deps.repository.getSession(this.sessionId);
    if (!session) return;
    const state = this.state();
    listener({ type: 'state_update', payload: { state } });
    if (state.status === 'awaiting_client_action') listener({ type: 'widget', payload: state.pendingWidget });
    listener({ type: 'history', payload: { messages: this.history() } });
    this.register(listener, terminate);
    this.resume();
  }

  override handle(message: ClientMessage, reply: SessionListener): Promise<void> {
    switch (message.type) {
      case 'chat':
        return this.enqueue(() => this.handleChat(message.payload.message, message.payload.clientMessageId ?? null, reply));
      case 'widget_response':
        return this.enqueue(() => this.handleAnswer(message.payload.widgetId, message.payload.response, reply));
      case 'rabbithole':
        this.fail(reply, 'invalid_payload', 'Rabbit holes belong to recall sessions; an assessment goes item by item.');
        return Promise.resolve();
      case 'end_session':
        // Not cancelled: an answer being scored is the learner's and counts; ending waits for it.
        return this.enqueue(async () => {
          const session = this.session();
          if (!session || isEnded(session.status)) return this.fail(reply, 'session_ended', 'This assessment has already ended.');
          await this.complete('ended_by_learner');
        });
      default: {
        const unreachable: never = message;
        throw new Error(`unhandled message ${JSON.stringify(unreachable)}`);
      }
    }
  }

  override resume(): void {
    const session = this.session();
    if (!session || isEnded(session.status)) return;
    void this.enqueue(() => this.advance());
  }

  override close(): void {
    this.clearDeadlineTimer();
    super.close();
  }

  override terminate(): void {
    this.clearDeadlineTimer();
    super.terminate();
  }

  override state(): SessionState {
    const session = this.session();
    if (!session) throw new Error(`session ${this.sessionId} vanished`);
    const { blueprint, config } = this.setup();
    const progress = progressOf(blueprint, config, this.deps.assessments.listItems(this.sessionId), this.deps.assessments.listResponses(this.sessionId), isEnded(session.status), this.deps.clock.now());
    return buildState(session, { recalledCount: progress.answered, totalPoints: progress.totalItems, assessment: progress }, this.deps.repository.getPendingAction(this.sessionId));
  }

  override history(): HistoryMessage[] {
    return buildHistory(this.deps.repository.listMessages(this.sessionId), this.deps.repository.listActions(this.sessionId));
  }

  override summary(): SessionSummary | null {
    const session = this.session();
    if (!session || !isEnded(session.status)) return null;
    return this.buildSummary(session);
  }

  // -------------------------------------------------------------------------

  private session(): SessionRecord | null {
    return this.deps.repository.getSession(this.sessionId);
  }

  private setup(): { blueprint: AssessmentBlueprint; config: AssessmentConfig } {
    const config = this.deps.assessments.getConfig(this.sessionId);
    if (!config) throw new Error(`session ${this.sessionId} has no assessment configuration`);
    const blueprint = this.deps.catalog.getAssessment(config.blueprintId);
    if (!blueprint) throw new Error(`assessment blueprint ${config.blueprintId} is no longer available`);
    return { blueprint, config };
  }

  private context(): BackendToolContext {
    return { sessionId: this.sessionId, sessionType: 'assessment' };
  }

  private responseRecords(items: StoredItem[], responses: StoredResponse[]): ResponseRecord[] {
    const byItem = new Map(items.map((stored) => [stored.id, stored]));
    return responses.flatMap((response) => {
      const stored = byItem.get(response.itemId);
      return stored ? [toResponseRecord(stored.item, { position: stored.position, credit: response.credit, responseSeconds: response.responseSeconds })] : [];
    });
  }

  /** The server's deadline, once the first item was presented. */
  private deadline(config: AssessmentConfig): Date | null {
    return deadlineOf(config, this.deps.assessments.listItems(this.sessionId));
  }

  private expired(config: AssessmentConfig): boolean {
    const deadline = this.deadline(config);
    return deadline !== null && this.deps.clock.now().getTime() >= deadline.getTime();
  }

  /** Presents the next item, or ends the assessment when time is up or every item is answered. */
  private async advance(): Promise<void> {
    if (!(await this.scoreStoredAnswers())) return;
    const session = this.session();
    if (!session || isEnded(session.status)) return;
    const { config } = this.setup();
    if (this.expired(config)) return this.complete('time_expired');
    if (session.status === 'pending') this.deps.repository.updateSession(this.sessionId, { status: 'active' }, this.deps.clock.now());
    const items = this.deps.assessments.listItems(this.sessionId);
    const answered = new Set(this.deps.assessments.listResponses(this.sessionId).map((response) => response.itemId));
    if (items.some((stored) => !answered.has(stored.id))) {
      this.armDeadline();
      return;
    }
    const next = await this.tools.call(this.tools.nextItem, this.context(), undefined);
    if (!next.result.item) return this.complete('all_answered');
    this.present(next.result.item, next.result.position);
    this.armDeadline();
  }

  private pickNextItem(_context: BackendToolContext): NextItemResult {
    const { blueprint, config } = this.setup();
    const items = this.deps.assessments.listItems(this.sessionId);
    const records = this.responseRecords(items, this.deps.assessments.listResponses(this.sessionId));
    const position = items.length + 1;
    const item = nextItem(this.deps.catalog, blueprint.id, records, randomForItem(config.seed, position));
    return { item, position, totalItems: blueprint.totalItems };
  }

  /** Stores the item, its framing message and its widget in one transaction, then shows it. */
  private present(item: GeneratedItem, position: number): void {
    const { repository, assessments, clock, ids } = this.deps;
    const { blueprint, config } = this.setup();
    const now = clock.now();
    const widget = widgetForItem(item, position, blueprint.totalItems);
    const widgetId = ids.next();
    const toolCallId = `item-${position}-${widgetId}`;
    const messageId = ids.next();
    const framing = framingText(blueprint, item, position, config);
    repository.transaction(() => {
      assessments.addItem({ id: ids.next(), sessionId: this.sessionId, position, item, widgetId, presentedAt: now });
      repository.appendMessage({
        id: messageId,
        sessionId: this.sessionId,
        role: 'tutor',
        content: framing,
        toolCall: { id: toolCallId, name: toolNameForKind(widget.kind), input: { ...widget.props } },
        toolCallId: null,
        widgetAnswer: null,
        clientMessageId: null,
        createdAt: now,
      });
      repository.createPendingAction({ id: widgetId, sessionId: this.sessionId, toolCallId, kind: widget.kind, props: { ...widget.props }, createdAt: now });
      repository.updateSession(this.sessionId, { status: 'awaiting_client_action' }, now);
    });
    this.broadcast({ type: 'typing', payload: {} });
    this.broadcast({ type: 'assistant', payload: { messageId, message: framing } });
    const state = this.state();
    this.broadcast({ type: 'state_update', payload: { state } });
    if (state.status === 'awaiting_client_action') this.broadcast({ type: 'widget', payload: state.pendingWidget });
  }

  private async handleAnswer(widgetId: string, response: WidgetAnswer, reply: SessionListener): Promise<void> {
    const { repository, assessments, clock, ids } = this.deps;
    const session = this.session();
    if (!session) return;
    if (isEnded(session.status)) return this.fail(reply, 'session_ended', 'This assessment has ended; your results are ready.');
    const { config } = this.setup();
    if (this.expired(config)) {
      await this.complete('time_expired');
      return this.fail(reply, 'session_ended', 'Time is up: answers given before the limit are scored.');
    }
    const action = repository.getPendingAction(this.sessionId);
    if (!action || action.id !== widgetId) {
      const known = repository.listActions(this.sessionId).some((candidate) => candidate.id === widgetId);
      return this.fail(reply, 'widget_not_pending', known ? 'That item was already answered.' : 'No item with that id is waiting for an answer.');
    }
    const checked = checkWidgetAnswer(widgetForAction(action), response);
    if (!checked.ok) return this.fail(reply, 'invalid_payload', checked.error);
    const stored = assessments.listItems(this.sessionId).find((candidate) => candidate.widgetId === widgetId);
    if (!stored) throw new Error(`pending widget ${widgetId} has no item`);

    // The answer is stored before it is scored (SPEC §8): a crash or a cancelled run while
    // the sandbox works loses nothing, and `advance` scores it when the session resumes.
    const now = clock.now();
    repository.transaction(() => {
      recordWidgetAnswer(repository, { id: ids.next(), action, response, text: checked.value, at: now });
      repository.updateSession(this.sessionId, { status: 'active' }, now);
    });
    await this.advance();
  }

  /**
   * Scores every stored answer that has no score yet — the one just given, or one a crash
   * or a cancellation left — in order. False if a run was cancelled (left for the next resume).
   */
  private async scoreStoredAnswers(): Promise<boolean> {
    const { repository, assessments, clock } = this.deps;
    const items = assessments.listItems(this.sessionId);
    const scored = new Set(assessments.listResponses(this.sessionId).map((response) => response.itemId));
    const unscored = items.filter((stored) => !scored.has(stored.id));
    if (unscored.length === 0) return true;
    const answers = new Map(
      repository
        .listMessages(this.sessionId)
        .flatMap((message) => (message.role === 'tool_result' && message.widgetAnswer && message.answeredAt === null ? [[message.widgetAnswer.widgetId, message] as const] : [])),
    );
    for (const stored of unscored) {
      const message = answers.get(stored.widgetId);
      if (!message?.widgetAnswer) continue;
      const response = message.widgetAnswer.response;
      const input: EvaluateInput = {
        item: stored.item,
        answerText: message.content,
        ...('selectedIndex' in response ? { selectedIndex: response.selectedIndex } : {}),
        ...('code' in response ? { code: response.code } : {}),
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
        // Timed to when the learner answered, not to when scoring finished.
        responseSeconds: Math.max(0, (answeredAt.getTime() - stored.presentedAt.getTime()) / 1000),
        answeredAt,
      };
      repository.transaction(() => {
        const session = this.session()!;
        repository.markAnswered(message.id, now);
        assessments.addResponse(this.sessionId, answer);
        const records = this.responseRecords(assessments.listItems(this.sessionId), assessments.listResponses(this.sessionId));
        assessments.saveAbilities(this.sessionId, session.learnerId, estimateAbilities(this.deps.catalog, this.setup().blueprint.id, records), now);
        repository.updateSession(this.sessionId, { turn: session.turn + 1 }, now);
      });
      this.broadcast({ type: 'state_update', payload: { state: this.state() } });
    }
    return true;
  }

  /** Scores an answer on the server: exact match for a choice, the tests in the sandbox for code. */
  private async evaluate(input: EvaluateInput): Promise<EvaluateResult> {
    const { item } = input;
    if (item.kind !== 'code' || !item.code) {
      return { credit: scoreChoice(item, input.selectedIndex ?? -1), testsPassed: null, testsTotal: null, note: null };
    }
    const task = item.code;
    const owner = this.session()?.learnerId;
    const request = { language: task.language, code: input.code ?? '', functionName: task.functionName, tests: task.tests, ...(owner ? { owner } : {}) };
    let run = await this.deps.codeRunner.run(request, input.signal);
    // `busy`: this learner's earlier runs (other sessions) still fill their place in the queue.
    // The answer is stored already; wait for a place rather than score it 0.
    for (let attempt = 0; run.error?.kind === 'busy' && attempt < busyRetries; attempt += 1) {
      await waitFor(busyRetryMs, input.signal);
      run = await this.deps.codeRunner.run(request, input.signal);
    }
    if (run.error?.kind === 'busy') throw new Error(`the sandbox stayed busy for learner ${owner ?? 'unknown'}; the answer stays stored and is scored on resume`);
    return {
      credit: creditFromTests(run.passed, run.total, task.partialCredit),
      testsPassed: run.passed,
      testsTotal: run.total,
      note: run.error ? `${run.error.kind}: ${run.error.message}`.slice(0, 300) : null,
    };
  }

  private async handleChat(text: string, clientMessageId: string | null, reply: SessionListener): Promise<void> {
    const { repository, clock, ids } = this.deps;
    const session = this.session();
    if (!session) return;
    if (isEnded(session.status)) return this.fail(reply, 'session_ended', 'This assessment has ended; your results are ready.');
    if (clientMessageId && repository.findMessageByClientId(this.sessionId, clientMessageId)) return;
    const now = clock.now();
    const messageId = ids.next();
    repository.transaction(() => {
      const learner = repository.appendMessage({
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
      repository.appendMessage({
        id: messageId,
        sessionId: this.sessionId,
        role: 'tutor',
        content: assessmentChatReply,
        toolCall: null,
        toolCallId: null,
        widgetAnswer: null,
        clientMessageId: null,
        createdAt: now,
      });
      repository.markAnswered(learner.id, now);
    });
    this.broadcast({ type: 'typing', payload: {} });
    this.broadcast({ type: 'assistant', payload: { messageId, message: assessmentChatReply } });
    const state = this.state();
    this.broadcast({ type: 'state_update', payload: { state } });
  }

  private async complete(reason: 'all_answered' | 'ended_by_learner' | 'time_expired'): Promise<void> {
    await this.tools.call(this.tools.complete, this.context(), reason);
    const ended = this.session()!;
    this.broadcast({ type: 'state_update', payload: { state: this.state() } });
    this.broadcast({ type: 'session_complete', payload: { summary: this.buildSummary(ended) } });
  }

  private finish(_context: BackendToolContext, reason: string): CompleteResult {
    const { repository, assessments, clock } = this.deps;
    const now = clock.now();
    this.clearDeadlineTimer();
    repository.transaction(() => {
      const action = repository.getPendingAction(this.sessionId);
      if (action) repository.resolvePendingAction(action.id, 'cancelled', null, now);
      repository.updateSession(this.sessionId, { status: 'completed', endReason: reason, endedAt: now }, now);
    });
    const responses = assessments.listResponses(this.sessionId);
    return {
      reason,
      answered: responses.length,
      totalItems: this.setup().blueprint.totalItems,
      score: responses.reduce((sum, response) => sum + response.credit, 0),
    };
  }

  private buildSummary(session: SessionRecord): SessionSummary {
    const { blueprint } = this.setup();
    const items = this.deps.assessments.listItems(this.sessionId);
    const responses = this.deps.assessments.listResponses(this.sessionId);
    const abilities = estimateAbilities(this.deps.catalog, blueprint.id, this.responseRecords(items, responses));
    const ended = session.endedAt ?? this.deps.clock.now();
    return {
      sessionId: session.id,
      type: 'assessment',
      status: session.status === 'abandoned' ? 'abandoned' : 'completed',
      reason: (session.endReason ?? 'ended_by_learner') as SessionSummary['reason'],
      turns: session.turn,
      recalledCount: responses.length,
      totalPoints: blueprint.totalItems,
      durationSeconds: Math.max(0, Math.round((ended.getTime() - session.createdAt.getTime()) / 1000)),
      points: [],
      assessment: buildResults(blueprint, items, responses, abilities),
    };
  }

  /** Ends the session at its deadline while the room is alive (otherwise on the next visit). */
  private armDeadline(): void {
    const config = this.deps.assessments.getConfig(this.sessionId);
    const deadline = config ? this.deadline(config) : null;
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

/** The server's framing of an item: where the learner is, and the rules on the first item. */
function framingText(blueprint: AssessmentBlueprint, item: GeneratedItem, position: number, config: AssessmentConfig): string {
  const where = `**Item ${position} of ${blueprint.totalItems}** · ${sectionTitle(blueprint, item.sectionId)}`;
  if (position > 1) return where;
  const minutes = Math.round(config.timeLimitSeconds / 60);
  return `Welcome to “${blueprint.title}”: ${blueprint.totalItems} items, ${minutes} minutes. There are no hints or feedback until the end — your results come once you finish or time runs out.\n\n${where}`;
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
function waitFor(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
