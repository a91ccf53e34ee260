/**
 * The session engine for one survey session (SPEC §4.5): the survey's questions presented
 * verbatim as widgets, in order, following the skip rules, through the durable loop of §4.2 —
 * an answer is stored (the widget resolved, the tool result appended, the response recorded)
 * in one transaction, then the next question is presented in another. A crash between the two
 * leaves an unanswered tool result that the next process picks up, so a restart mid-survey
 * resumes at the same question. No model is called: the transitions are fixed polite lines,
 * so no correct answer or feedback can creep in.
 */
import type { SessionState, SessionSummary, WidgetAnswer } from '@tutorloop/shared';
import type { Clock, IdGenerator } from '../ports';
import { tutorMessage } from '../session/new-messages';
import { ConversationRoom, noMessages } from '../session/conversation-room';
import type { RoomBaseDeps, RoomFrames, SessionListener } from '../session/room-base';
import { buildState, isEnded, toolNameForKind, widgetForAction } from '../session/session-view';
import { checkWidgetAnswer, recordWidgetAnswer } from '../session/widget-answers';
import type { StoredMessage } from '../storage/messages';
import type { SessionSnapshot } from '../storage/session-snapshot';
import { typeStateOf } from '../storage/session-type-state';
import type { SurveyAnswerRecord, SurveySessionState } from './survey-state';
import type { Storage, StorageTx } from '../storage/storage';
import {
  chatRedirect,
  closingLine,
  isSkipCommand,
  nextQuestionId,
  openingLine,
  questionOf,
  questionToolCallId,
  questionWidget,
  surveyProgress,
  surveySummary,
  transitionLine,
} from './survey-rules';

export interface SurveyRoomDeps extends RoomBaseDeps {
  storage: Storage;
  clock: Clock;
  ids: IdGenerator;
}

/** The state a respondent sees: question n of N (as `recalledCount` of `totalPoints`: questions done). */
export function surveyState(snapshot: Pick<SessionSnapshot, 'session' | 'pendingAction'>): SessionState {
  const state = typeStateOf(snapshot.session, 'survey');
  const progress = surveyProgress(state);
  return { ...buildState(snapshot.session, { recalledCount: state.answers.length, totalPoints: progress.totalQuestions }, snapshot.pendingAction), survey: progress };
}

/** The summary of a survey session: the respondent's own answers. */
export function surveySessionSummary(snapshot: Pick<SessionSnapshot, 'session'>, now: Date): SessionSummary {
  const { session } = snapshot;
  const state = typeStateOf(session, 'survey');
  const reason = (session.endReason ?? 'ended_by_learner') as SessionSummary['reason'];
  const ended = session.endedAt ?? now;
  return {
    sessionId: session.id,
    type: 'survey',
    status: session.status === 'abandoned' ? 'abandoned' : 'completed',
    reason,
    turns: session.turn,
    recalledCount: state.answers.length,
    totalPoints: state.survey.questions.length,
    durationSeconds: Math.max(0, Math.round((ended.getTime() - session.createdAt.getTime()) / 1000)),
    points: [],
    survey: surveySummary(state, isEnded(session.status) ? reason : null),
  };
}

export class SurveyRoom extends ConversationRoom<SurveyRoomDeps> {
  /** Answers through each question's widget; no tangents. */
  protected override readonly frames: RoomFrames = {
    // A chat message is stored at once, like every learner message. It answers nothing: the
    // question's widget does (an optional question may be skipped with `skip`).
    chat: (text, clientMessageId, reply) => this.takeChat({ text, clientMessageId }, reply, 'This survey has ended.'),
    widgets: (widgetId, response, reply) => this.handleWidgetResponse(widgetId, response, reply),
    tangents: 'Surveys have no tangents: answer the question shown, or end the survey.',
    // Nothing is ever produced by a model here: there is no reply to stop or to produce again.
    stop: 'Nothing is being written: survey questions arrive whole.',
    retry: 'Survey questions are fixed; there is nothing to produce again.',
    end: { end: (reply) => this.endByLearner(reply, 'This survey has already ended.'), cancelsInFlight: false },
  };

  protected override stateOf(snapshot: SessionSnapshot): SessionState {
    return surveyState(snapshot);
  }

  protected override summaryOf(snapshot: SessionSnapshot, now: Date): SessionSummary {
    return surveySessionSummary(snapshot, now);
  }

  // -------------------------------------------------------------------------

  /** The opening line and the first question, in one transaction. */
  protected override async openSession(snapshot: SessionSnapshot): Promise<void> {
    const { storage, clock, ids } = this.deps;
    const state = typeStateOf(snapshot.session, 'survey');
    const committed = await storage.transaction(async (tx) => {
      if ((await tx.messages.count(this.sessionId)) > 0) {
        // Opened already (another process got there first): only the status may lag.
        if (snapshot.session.status === 'pending') await tx.sessions.update(this.sessionId, { status: 'active' }, clock.now());
        return null;
      }
      const messageId = ids.next();
      await this.present(tx, { messageId, text: openingLine(state.survey), questionId: state.current!, state, replyTo: null });
      return { messageId, snapshot: await tx.loadSessionSnapshot(this.sessionId, noMessages) };
    });
    this.noteCommit();
    if (committed?.snapshot) this.announceLine(committed.messageId, openingLine(state.survey), committed.snapshot);
  }

  /** Stores the answer, the tool result and the response row in one transaction; then the next question. */
  private async handleWidgetResponse(widgetId: string, response: WidgetAnswer, reply: SessionListener): Promise<void> {
    const { storage, clock, ids } = this.deps;
    const now = clock.now();
    const outcome = await storage.transaction(async (tx) => {
      const session = await tx.sessions.get(this.sessionId);
      if (!session) return { ok: false, error: null } as const;
      if (isEnded(session.status)) return { ok: false, error: { code: 'session_ended', message: 'This survey has ended.' } } as const;
      const action = await tx.pendingActions.getPending(this.sessionId);
      if (!action || action.id !== widgetId) {
        const known = (await tx.pendingActions.list(this.sessionId)).some((candidate) => candidate.id === widgetId);
        return { ok: false, error: { code: 'widget_not_pending', message: known ? 'That question was already answered.' : 'No question with that id is waiting for an answer.' } } as const;
      }
      const checked = checkWidgetAnswer(widgetForAction(action), response);
      if (!checked.ok) return { ok: false, error: { code: 'invalid_payload', message: checked.error } } as const;
      const state = typeStateOf(session, 'survey');
      const questionId = state.current;
      if (questionId === null) return { ok: false, error: { code: 'widget_not_pending', message: 'The survey has no question waiting.' } } as const;
      await recordWidgetAnswer(tx, { id: ids.next(), action, response, text: checked.value, at: now });
      await tx.surveys.addResponse({ id: ids.next(), surveyId: state.surveyId, sessionId: this.sessionId, learnerId: session.learnerId, questionId, answer: response, answerText: checked.value, answeredAt: now });
      const answers: SurveyAnswerRecord[] = [...state.answers, { questionId, answer: response, text: checked.value }];
      await tx.sessions.update(this.sessionId, { status: 'active', turn: session.turn + 1, typeState: { ...state, answers } }, now);
      return { ok: true } as const;
    });
    if (!outcome.ok) {
      if (outcome.error) this.fail(reply, outcome.error.code, outcome.error.message);
      return;
    }
    this.noteCommit();
    await this.processUnanswered();
  }

  /** Answers every stored learner message or widget answer without a reply, in order. */
  protected override async processUnanswered(): Promise<void> {
    for (;;) {
      const snapshot = await this.deps.storage.loadSessionSnapshot(this.sessionId, noMessages);
      if (!snapshot || isEnded(snapshot.session.status)) return;
      const next = snapshot.oldestUnanswered;
      if (!next) return;
      await this.advance(snapshot, next);
    }
  }

  /**
   * One step after a stored message: a widget answer (already recorded) moves to the next
   * question; `skip` on an optional question records the skip and moves on; any other chat
   * gets the fixed redirect and the question stays.
   */
  private async advance(snapshot: SessionSnapshot, message: StoredMessage): Promise<void> {
    const { storage, clock, ids } = this.deps;
    const state = typeStateOf(snapshot.session, 'survey');
    const now = clock.now();
    const messageId = ids.next();
    const current = state.current === null ? null : questionOf(state.survey, state.current).question;
    let text: string;
    let nextState: SurveySessionState;
    let skipped = false;
    if (message.role === 'tool_result' && current) {
      const record = state.answers.find((candidate) => candidate.questionId === current.id);
      nextState = { ...state, current: nextQuestionId(state.survey, current.id, record?.answer ?? null) };
    } else if (message.role === 'learner' && current && !current.required && isSkipCommand(message.content)) {
      skipped = true;
      nextState = { ...state, current: nextQuestionId(state.survey, current.id, null), answers: [...state.answers, { questionId: current.id, answer: null, text: null }] };
    } else {
      // A chat that answers nothing: the question on screen stays.
      text = current ? chatRedirect(current) : closingLine;
      const committed = await storage.transaction(async (tx) => {
        await tx.messages.append(tutorMessage({ id: messageId, sessionId: this.sessionId, content: text, createdAt: now }));
        await tx.messages.markAnswered(message.id, now);
        return tx.loadSessionSnapshot(this.sessionId, noMessages);
      });
      this.noteCommit();
      if (committed) this.announceLine(messageId, text, committed, { widget: false });
      return;
    }
    const finished = nextState.current === null;
    const ahead = surveyProgress(nextState);
    text = finished ? closingLine : transitionLine(ahead.question, ahead.totalQuestions, skipped);
    const committed = await storage.transaction(async (tx) => {
      if (skipped && current) {
        const pending = await tx.pendingActions.getPending(this.sessionId);
        if (pending) await tx.pendingActions.resolve(pending.id, 'cancelled', null, now);
        await tx.surveys.addResponse({ id: ids.next(), surveyId: state.surveyId, sessionId: this.sessionId, learnerId: snapshot.session.learnerId, questionId: current.id, answer: null, answerText: null, answeredAt: now });
      }
      if (finished) {
        await tx.messages.append(tutorMessage({ id: messageId, sessionId: this.sessionId, content: text, createdAt: now }));
        await tx.messages.markAnswered(message.id, now);
        await tx.sessions.update(this.sessionId, { typeState: nextState, status: 'completed', endReason: 'all_answered', endedAt: now }, now);
      } else {
        await this.present(tx, { messageId, text, questionId: nextState.current!, state: nextState, replyTo: message });
      }
      return tx.loadSessionSnapshot(this.sessionId, noMessages);
    });
    this.noteCommit();
    if (!committed) return;
    this.announceLine(messageId, text, committed);
    if (finished) this.broadcast({ type: 'session_complete', payload: { summary: surveySessionSummary(committed, now) } });
  }

  /** Inside a transaction: the line and the question's widget as one tutor message, the pending widget, the state. */
  private async present(tx: StorageTx, step: { messageId: string; text: string; questionId: string; state: SurveySessionState; replyTo: StoredMessage | null }): Promise<void> {
    const now = this.deps.clock.now();
    const { question } = questionOf(step.state.survey, step.questionId);
    const widget = questionWidget(question);
    const toolCallId = questionToolCallId(question.id);
    await tx.messages.append(tutorMessage({ id: step.messageId, sessionId: this.sessionId, content: step.text, toolCall: { id: toolCallId, name: toolNameForKind(widget.kind), input: { ...widget.props } }, createdAt: now }));
    if (step.replyTo) await tx.messages.markAnswered(step.replyTo.id, now);
    await tx.pendingActions.create({ id: this.deps.ids.next(), sessionId: this.sessionId, toolCallId, kind: widget.kind, props: { ...widget.props }, createdAt: now });
    await tx.sessions.update(this.sessionId, { status: 'awaiting_client_action', typeState: { ...step.state, current: step.questionId } }, now);
  }
}
