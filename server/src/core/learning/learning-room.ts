/**
 * The session engine for one learning session (SPEC §4.4): the welcome, every learner turn
 * (post-completion reply | safety gate → master tutor → validation, one retry, fallback →
 * sanitization → state updates in one transaction → the reply streamed, `state_update`, a
 * practice widget), practice answers scored on the server, ending. Operations run one at a
 * time in arrival order (RoomBase); all state lives in storage, so a new process resumes any
 * session from the database alone, a pending practice item included.
 */
import type { SessionState, SessionSummary } from '@tutorloop/shared';
import type { Catalog, CodeRunner, GeneratedItem } from '../assessment';
import type { ModelBudget } from '../limits/model-budget';
import type { Clock, IdGenerator } from '../ports';
import type { TutorProvider } from '../provider';
import { tutorMessage } from '../session/new-messages';
import { ConversationRoom, noMessages } from '../session/conversation-room';
import type { RoomBaseDeps, RoomFrames, SessionListener } from '../session/room-base';
import { stripLeaks } from '../session/sanitize';
import { isEnded } from '../session/session-view';
import type { NewAgentLog } from '../storage/agent-logs';
import type { StoredMessage } from '../storage/messages';
import type { SessionSnapshot } from '../storage/session-snapshot';
import { typeStateOf } from '../storage/session-type-state';
import type { LearningSessionState } from './learning-state';
import type { Storage } from '../storage/storage';
import type { LearningCall, LearningTutor, PracticeView } from './learning-port';
import { applyTurn, masteryLevel, meanMastery, planConcepts, practiceOwed, stepOf } from './learning-rules';
import { learningSessionSummary, learningState, recentOf, recentWindow, type StoredItemRef } from './learning-view';
import { generatePracticeItem, practiceView, scorePracticeAnswer } from './practice';
import { answersToKeep, chunks, fallbackReply, replyLeaks, safetyRedirect, stripAnswer } from './reply-guard';
import { commitLearningTurn, type LearningTurnCommit } from './learning-commit';
import { describeInput, masterTurnInput } from './turn-input';
import { normalizeTutorTurn, type TutorTurn } from './tutor-turn';

export interface LearningRoomDeps extends RoomBaseDeps {
  storage: Storage;
  /** The safety gate. */
  provider: TutorProvider;
  /** The master tutor, welcome and post-completion calls (learning-model.ts: `learningTutorFor`). */
  learningTutor: LearningTutor;
  clock: Clock;
  ids: IdGenerator;
  catalog: Catalog;
  codeRunner: CodeRunner;
  /** The learner's model budget: the welcome is charged here (turns at the adapters). */
  modelBudget: ModelBudget;
}

export class LearningRoom extends ConversationRoom<LearningRoomDeps> {
  /** Chat and practice answers; no tangents, and a reply can be neither stopped nor produced again. */
  protected override readonly frames: RoomFrames = {
    // After a completed plan the session still takes messages: they get post-completion replies.
    chat: (text, clientMessageId, reply) =>
      this.takeChat({ text, clientMessageId }, reply, 'This session has ended; start a new one to keep learning.', { acceptsWhenEnded: (session) => session.endReason === 'plan_completed' }),
    widgets: (widgetId, response, reply) => this.takeWidgetAnswer(widgetId, response, reply),
    tangents: 'Learning sessions follow their study plan: tangents are not available here — just ask your question in the chat.',
    // A study-plan reply comes out of one structured call and is sent only once it is
    // committed with what it decided (mastery, question, step), so no part of it is ever in
    // flight to stop, and producing it again would decide the turn twice (SPEC §5, §4.4).
    stop: 'Study-plan replies are written in one piece and cannot be stopped part-way; this one will arrive in a moment.',
    retry: 'Study-plan replies move the plan forward, so they cannot be produced again; ask the tutor to rephrase instead.',
    end: {
      // Ending during the extra challenges of an aced plan is not ending early: the plan was done.
      end: (reply) => this.endByLearner(reply, 'This session has already ended.', { reason: (session) => (typeStateOf(session, 'learning').planComplete ? 'plan_completed' : 'ended_by_learner') }),
      cancelsInFlight: true,
    },
  };

  protected override stateOf(snapshot: SessionSnapshot): SessionState {
    return this.viewState(snapshot);
  }

  protected override summaryOf(snapshot: SessionSnapshot, now: Date): SessionSummary {
    return learningSessionSummary(snapshot, now);
  }

  // -------------------------------------------------------------------------

  private viewState(snapshot: Pick<SessionSnapshot, 'session' | 'pendingAction'>): SessionState {
    return learningState(snapshot);
  }

  /** Ended by the learner, deleted or abandoned: nothing more happens. A completed plan still gets post-completion replies. */
  protected override closedForGood(snapshot: SessionSnapshot): boolean {
    return isEnded(snapshot.session.status) && snapshot.session.endReason !== 'plan_completed';
  }

  /** The welcome (seed 002): 2–3 sentences and one simple question. */
  protected override async openSession(snapshot: SessionSnapshot): Promise<void> {
    const { storage, clock, ids } = this.deps;
    const session = await this.beginOpening(snapshot, this.deps.modelBudget);
    if (!session) return;
    const state = typeStateOf(session, 'learning');
    const signal = this.freshSignal();
    this.broadcast({ type: 'typing', payload: {} });
    const started = clock.now().getTime();
    let text: string;
    let log: NewAgentLog;
    try {
      const call = await this.deps.learningTutor.welcome({ sessionId: this.sessionId, plan: state.plan, step: stepOf(state) }, signal);
      text = stripLeaks(call.output.trim() || `Welcome! Today we’re learning ${state.plan.topic}. What do you already know about it?`);
      log = this.agentLog({ agent: 'welcome', at: { learnerId: session.learnerId, turn: 0 }, inputSummary: `welcome for "${state.plan.title}"`, output: call.output, startedAt: started, call, outcome: 'ok' });
    } catch (error) {
      if (signal.aborted) return;
      this.deps.logger.warn({ err: error, sessionId: this.sessionId }, 'welcome call failed; a plain welcome is sent');
      text = `Welcome! Today we’re learning ${state.plan.topic}. To start: what do you already know about ${stepOf(state).concept}?`;
      log = this.agentLog({ agent: 'welcome', at: { learnerId: session.learnerId, turn: 0 }, inputSummary: `welcome for "${state.plan.title}"`, output: { error: String(error) }, startedAt: started, call: null, outcome: 'fallback' });
    }
    if (signal.aborted) return;
    const messageId = ids.next();
    await storage.transaction(async (tx) => {
      await tx.messages.append(tutorMessage({ id: messageId, sessionId: this.sessionId, content: text, createdAt: clock.now() }));
      await tx.agentLogs.append(log);
    });
    this.noteCommit();
    this.announce(messageId, text);
    const after = await storage.loadSessionSnapshot(this.sessionId, noMessages);
    if (after) this.broadcast({ type: 'state_update', payload: { state: this.viewState(after) } });
  }

  /** Answers every stored learner message or practice answer without a reply, in order. */
  protected override async processUnanswered(): Promise<void> {
    const { storage } = this.deps;
    for (;;) {
      const snapshot = await storage.loadSessionSnapshot(this.sessionId, { lastMessages: recentWindow + 1 });
      if (!snapshot || this.closedForGood(snapshot)) return;
      const next = snapshot.oldestUnanswered;
      if (!next) return;
      const answered = isEnded(snapshot.session.status) ? await this.postCompletionTurn(snapshot, next) : await this.learnerTurn(snapshot, next);
      if (!answered) return;
    }
  }

  /** After the plan is complete: a short, context-aware reply; nothing else changes (SPEC §4.4 step 1). */
  private async postCompletionTurn(snapshot: SessionSnapshot, message: StoredMessage): Promise<boolean> {
    const { clock } = this.deps;
    const state = typeStateOf(snapshot.session, 'learning');
    const signal = this.freshSignal();
    this.broadcast({ type: 'typing', payload: {} });
    const started = clock.now().getTime();
    let text: string;
    let log: NewAgentLog;
    const input = { sessionId: this.sessionId, plan: state.plan, learnerMessage: message.content, recentMessages: recentOf(snapshot.messages, message), concepts: planConcepts(state.plan).map((concept) => ({ concept, level: masteryLevel(state.mastery[concept]) })) };
    try {
      const call = await this.deps.learningTutor.postCompletion(input, signal);
      text = stripLeaks(call.output.trim() || 'We’ve finished this plan — start a new session whenever you like.');
      log = this.agentLog({ agent: 'post_completion', at: { learnerId: snapshot.session.learnerId, turn: snapshot.session.turn }, inputSummary: `after completion: "${message.content.slice(0, 80)}"`, output: call.output, startedAt: started, call, outcome: 'ok' });
    } catch (error) {
      if (signal.aborted) return false;
      text = 'We’ve finished this plan — start a new session whenever you like, or pick another study plan.';
      log = this.agentLog({ agent: 'post_completion', at: { learnerId: snapshot.session.learnerId, turn: snapshot.session.turn }, inputSummary: `after completion: "${message.content.slice(0, 80)}"`, output: { error: String(error) }, startedAt: started, call: null, outcome: 'fallback' });
    }
    if (signal.aborted) return false;
    const messageId = this.deps.ids.next();
    await this.deps.storage.transaction(async (tx) => {
      await tx.messages.append(tutorMessage({ id: messageId, sessionId: this.sessionId, content: text, createdAt: clock.now() }));
      await tx.messages.markAnswered(message.id, clock.now());
      await tx.agentLogs.append(log);
    });
    this.noteCommit();
    this.announce(messageId, text);
    this.broadcast({ type: 'state_update', payload: { state: this.viewState(snapshot) } });
    return true;
  }

  /** One learner turn (SPEC §4.4 steps 2–8). False when it was cancelled or the model was unreachable. */
  private async learnerTurn(snapshot: SessionSnapshot, message: StoredMessage): Promise<boolean> {
    const { provider, clock, logger } = this.deps;
    const session = snapshot.session;
    let state = typeStateOf(session, 'learning');
    const turn = session.turn;
    const at = { learnerId: session.learnerId, turn };
    const signal = this.freshSignal();
    const logs: NewAgentLog[] = [];
    this.broadcast({ type: 'typing', payload: {} });

    // Step 3: the safety gate (chat messages only; a practice answer is scored, not screened).
    if (message.role === 'learner') {
      const started = clock.now().getTime();
      const verdict = await provider.checkSafety(message.content, signal).catch((error: unknown) => {
        logger.warn({ err: error, sessionId: this.sessionId }, 'safety gate failed; treating message as safe');
        return { safe: true, failed: true } as const;
      });
      if (signal.aborted) return false;
      logs.push(this.agentLog({ agent: 'safety', at, inputSummary: `learner message (${message.content.length} chars)`, output: verdict, startedAt: started, call: null, outcome: verdict.safe ? ('failed' in verdict ? 'error' : 'ok') : 'refused' }));
      if (!verdict.safe) {
        logger.warn({ sessionId: this.sessionId, reason: verdict.reason }, 'unsafe learner message redirected');
        const flagged: LearningSessionState = { ...state, safetyFlags: state.safetyFlags + 1, timeline: [...state.timeline, { turn, step: state.currentStep, intent: 'unsafe', correct: null, summary: `safety: ${verdict.reason}`, meanMastery: meanMastery(state.plan, state.mastery) }] };
        await this.commitTurn(snapshot, message, { text: safetyRedirect, state: flagged, logs, practice: null, item: null, complete: false });
        return true;
      }
    }

    // A practice answer: scored on the server before the tutor hears of it.
    let scored: { item: StoredItemRef; credit: number; answerText: string; note: string | null; testsPassed: number | null; testsTotal: number | null } | null = null;
    if (message.role === 'tool_result' && message.widgetAnswer) {
      const itemRef = snapshot.assessment?.items.find((candidate) => candidate.widgetId === message.widgetAnswer!.widgetId) ?? null;
      if (itemRef && !snapshot.assessment!.responses.some((response) => response.itemId === itemRef.id)) {
        try {
          const result = await scorePracticeAnswer(this.deps.codeRunner, itemRef.item, message.widgetAnswer.response, session.learnerId, signal);
          scored = { item: itemRef, credit: result.credit, answerText: message.content, note: result.note, testsPassed: result.testsPassed, testsTotal: result.testsTotal };
        } catch (error) {
          if (signal.aborted) return false;
          logger.warn({ err: error, sessionId: this.sessionId }, 'practice answer could not be scored now; it stays stored');
          this.broadcast({ type: 'error', payload: { code: 'llm_unavailable', message: 'Your answer is saved, but it could not be checked just now. It will be checked when you reconnect.' } });
          return false;
        }
        const current = state.practice && state.practice.step === state.currentStep ? state.practice : { step: state.currentStep, presented: 1, answered: 0 };
        state = { ...state, practice: { ...current, answered: current.answered + 1 } };
      }
    }
    const step = stepOf(state);
    const practice: PracticeView | null = practiceView(state, scored?.item.item ?? snapshot.assessment?.items.at(-1)?.item ?? null, scored);

    // Step 4: the master tutor — one retry on a malformed output, then a safe fallback.
    const input = masterTurnInput(this.sessionId, snapshot, state, message, practice);
    let validTurn: TutorTurn | null = null;
    let notes: string[] = [];
    let retryNote: string | undefined;
    for (let attempt = 1; attempt <= 2 && !validTurn; attempt++) {
      const started = clock.now().getTime();
      let call: LearningCall<unknown>;
      try {
        call = await this.deps.learningTutor.masterTurn(retryNote ? { ...input, retryNote } : input, signal);
      } catch (error) {
        if (signal.aborted) return false;
        logs.push(this.agentLog({ agent: 'master_tutor', at, inputSummary: describeInput(input), output: { error: String(error) }, startedAt: started, call: null, outcome: 'error' }));
        logger.error({ err: error, sessionId: this.sessionId }, 'master tutor call failed');
        await this.saveLogs(logs);
        this.broadcast({ type: 'error', payload: { code: 'llm_unavailable', message: 'The tutor could not answer just now. Your message is saved — send it again to retry.' } });
        return false;
      }
      if (signal.aborted) return false;
      const normalized = normalizeTutorTurn(call.output, { concepts: planConcepts(state.plan), stepConcept: step.concept, totalSteps: state.plan.steps.length });
      if (normalized.ok) {
        validTurn = normalized.turn;
        notes = normalized.notes;
        logs.push(this.agentLog({ agent: 'master_tutor', at, inputSummary: describeInput(input), output: call.output, startedAt: started, call, outcome: 'ok' }));
      } else {
        retryNote = normalized.error;
        logs.push(this.agentLog({ agent: 'master_tutor', at, inputSummary: describeInput(input), output: { malformed: normalized.error, raw: typeof call.output === 'string' ? call.output.slice(0, 2000) : call.output }, startedAt: started, call, outcome: attempt === 1 ? 'retried' : 'fallback' }));
        logger.warn({ sessionId: this.sessionId, attempt, error: normalized.error }, 'master tutor output malformed');
      }
    }
    if (!validTurn) {
      // Nothing advances; the learner's message is answered and kept.
      const fallbackState: LearningSessionState = { ...state, timeline: [...state.timeline, { turn, step: state.currentStep, intent: 'other', correct: null, summary: 'fallback reply (malformed tutor output)', meanMastery: meanMastery(state.plan, state.mastery) }] };
      await this.commitTurn(snapshot, message, { text: fallbackReply(state), state: fallbackState, logs, practice: scored, item: null, complete: false });
      return true;
    }

    // Step 6 (decided before sanitizing, so the guard knows which answers are still to be found).
    let applied = applyTurn(state, validTurn, { turn, learnerMessage: message.role === 'learner' ? message.content : null, practiceCredit: scored?.credit ?? null });
    if (notes.length > 0 || applied.refused.length > 0) logger.info({ sessionId: this.sessionId, notes, refused: applied.refused }, 'master tutor output adjusted');

    // Step 5: sanitization — one regeneration, else the leaking sentences are stripped.
    let text = validTurn.response;
    let leaks = replyLeaks(text, applied);
    if (leaks.length > 0) {
      const started = clock.now().getTime();
      const note = `the response leaked (${leaks.join(', ')}): never mention internals, and never state an answer the learner has still to find`;
      try {
        const call = await this.deps.learningTutor.masterTurn({ ...input, retryNote: note }, signal);
        const again = normalizeTutorTurn(call.output, { concepts: planConcepts(state.plan), stepConcept: step.concept, totalSteps: state.plan.steps.length });
        logs.push(this.agentLog({ agent: 'master_tutor', at, inputSummary: `regeneration: ${note}`, output: call.output, startedAt: started, call, outcome: again.ok ? 'ok' : 'fallback' }));
        if (again.ok) {
          const reapplied = applyTurn(state, again.turn, { turn, learnerMessage: message.role === 'learner' ? message.content : null, practiceCredit: scored?.credit ?? null });
          const stillLeaks = replyLeaks(again.turn.response, reapplied);
          if (stillLeaks.length === 0) {
            validTurn = again.turn;
            applied = reapplied;
            text = again.turn.response;
            leaks = [];
          }
        }
      } catch (error) {
        if (signal.aborted) return false;
        logger.warn({ err: error, sessionId: this.sessionId }, 'regeneration failed; stripping the leak');
      }
      if (leaks.length > 0) {
        text = stripAnswer(text, answersToKeep(applied)) || fallbackReply(applied.state);
        logger.warn({ sessionId: this.sessionId, leaks }, 'leaking sentences stripped from the tutor reply');
      }
    }

    // A practice item goes with the reply when the (possibly new) step owes one.
    let item: { item: GeneratedItem; position: number } | null = null;
    let nextState = applied.state;
    if (!applied.completeSession && practiceOwed(nextState)) {
      const current = stepOf(nextState);
      if (current.type === 'practice') {
        const items = snapshot.assessment?.items ?? [];
        const position = items.length + 1;
        item = {
          position,
          item: generatePracticeItem(this.deps.catalog, { skillId: current.skillBlueprintId, sessionId: this.sessionId, position, mastery: nextState.mastery[current.concept], exclude: new Set(items.map((stored) => stored.item.fingerprint)) }),
        };
        const progress = nextState.practice && nextState.practice.step === current.number ? nextState.practice : { step: current.number, presented: 0, answered: 0 };
        nextState = { ...nextState, practice: { ...progress, presented: progress.presented + 1 } };
      }
    }
    await this.commitTurn(snapshot, message, { text, state: nextState, logs, practice: scored, item, complete: applied.completeSession });
    return true;
  }

  /** Step 6 + 7: the turn committed in one transaction (learning-commit.ts), then the events. */
  private async commitTurn(snapshot: SessionSnapshot, message: StoredMessage, turn: LearningTurnCommit): Promise<void> {
    const { now, messageId, committed } = await commitLearningTurn(this.deps, this.sessionId, snapshot, message, turn);
    this.noteCommit();
    this.announce(messageId, turn.text);
    if (!committed) return;
    const state = this.viewState(committed);
    this.broadcast({ type: 'state_update', payload: { state } });
    if (state.status === 'awaiting_client_action') this.broadcast({ type: 'widget', payload: state.pendingWidget });
    if (turn.complete) this.broadcast({ type: 'session_complete', payload: { summary: learningSessionSummary(committed, now) } });
  }

  private async saveLogs(logs: NewAgentLog[]): Promise<void> {
    if (logs.length === 0) return;
    await this.deps.storage.transaction(async (tx) => {
      for (const log of logs) await tx.agentLogs.append(log);
    });
  }

  /** The reply, streamed in pieces, then whole (SPEC §4.4 step 7). */
  private announce(messageId: string, text: string): void {
    for (const delta of chunks(text)) this.broadcast({ type: 'assistant_delta', payload: { messageId, delta } });
    this.broadcast({ type: 'assistant', payload: { messageId, message: text } });
  }
}
