/**
 * The session engine for one cloze drill (SPEC §4.6): each point shown with its blank in a
 * free-text widget, graded by the server, and finished as one FSRS review, through the durable
 * loop of §4.2. An answer is stored in one transaction — the widget resolved, the tool result
 * appended (the shared inbox), the grade and (for a finished point) the review written — and
 * the feedback line with the next widget in another. A crash between the two leaves an unanswered tool result
 * that the next process picks up, so a restart mid-drill resumes at the same point and a review
 * is never recorded twice. A model, when there is one, only adds a sentence to the fixed line.
 */
import type { SessionState, SessionSummary } from '@tutorloop/shared';
import type { Clock, IdGenerator } from '../ports';
import type { TutorProvider } from '../provider';
import { recordReview } from '../scheduler/record-review';
import { ConversationRoom, noMessages } from '../session/conversation-room';
import { tutorMessage } from '../session/new-messages';
import type { RoomBaseDeps, RoomFrames, SessionListener } from '../session/room-base';
import type { AnswerConsequence } from '../session/inbox';
import { isEnded, toolNameForKind } from '../session/session-view';
import type { StoredMessage } from '../storage/messages';
import type { SessionSnapshot } from '../storage/session-snapshot';
import { typeStateOf } from '../storage/session-type-state';
import type { Storage, StorageTx } from '../storage/storage';
import { clozeFeedbackWriter, type ClozeFeedbackWriter } from './cloze-feedback';
import { isRightAnswer } from './cloze-grade';
import { chatRedirect, closingLine, clozeToolCallId, feedbackLine, openingLine, pointWidget, ratingOf } from './cloze-rules';
import type { ClozeSessionState } from './cloze-state';
import { clozeSessionSummary, clozeState } from './cloze-views';

export interface ClozeRoomDeps extends RoomBaseDeps {
  storage: Storage;
  clock: Clock;
  ids: IdGenerator;
  /** Its models (if any) may add a sentence of feedback; offline, the fixed lines stand alone. */
  provider: TutorProvider;
  /** Replaces the writer the provider implies (tests). */
  clozeFeedback?: ClozeFeedbackWriter;
}

const widgetKind = 'free_text' as const;

export class ClozeRoom extends ConversationRoom<ClozeRoomDeps> {
  private readonly writeFeedback: ClozeFeedbackWriter;

  constructor(sessionId: string, deps: ClozeRoomDeps, onIdle?: () => void) {
    super(sessionId, deps, onIdle);
    this.writeFeedback = deps.clozeFeedback ?? clozeFeedbackWriter(deps.provider.models);
  }

  /** Answers through each point's widget; no tangents; nothing streamed to stop or produce again. */
  protected override readonly frames: RoomFrames = {
    // A chat message is stored at once, like every learner message; it answers nothing: the box does.
    chat: (text, clientMessageId, reply) => this.takeChat({ text, clientMessageId }, reply, 'This drill has ended.'),
    widgets: (widgetId, response, reply) => this.takeWidgetAnswer(widgetId, response, reply, this.gradeAnswer),
    tangents: 'A cloze drill has no tangents: type the missing word, or end the drill.',
    stop: 'Nothing is being written: each point and its feedback arrive whole.',
    retry: 'Cloze feedback is fixed by your answer; there is nothing to produce again.',
    // Ending need not wait for a model's sentence: cancelled, the fixed line stands.
    end: { end: (reply) => this.endByLearner(reply, 'This drill has already ended.'), cancelsInFlight: true },
  };

  protected override stateOf(snapshot: SessionSnapshot): SessionState {
    return clozeState(snapshot);
  }

  protected override summaryOf(snapshot: SessionSnapshot, now: Date): SessionSummary {
    return clozeSessionSummary(snapshot, now);
  }

  // -------------------------------------------------------------------------

  /** The opening line and the first point, in one transaction. */
  protected override async openSession(snapshot: SessionSnapshot): Promise<void> {
    const { storage, clock, ids } = this.deps;
    const state = typeStateOf(snapshot.session, 'cloze');
    const text = openingLine(snapshot.session.title, state.items.length);
    const committed = await storage.transaction(async (tx) => {
      if ((await tx.messages.count(this.sessionId)) > 0) {
        // Opened already (another process got there first): only the status may lag.
        if (snapshot.session.status === 'pending') await tx.sessions.update(this.sessionId, { status: 'active' }, clock.now());
        return null;
      }
      const messageId = ids.next();
      await this.present(tx, { messageId, text, state, replyTo: null });
      return { messageId, snapshot: await tx.loadSessionSnapshot(this.sessionId, noMessages) };
    });
    this.noteCommit();
    if (committed?.snapshot) this.announceLine(committed.messageId, text, committed.snapshot);
  }

  /**
   * Grades an accepted answer in the transaction that stores it (with its tool result), and
   * records the review of a point it finishes there too; the feedback comes in the next step.
   */
  private readonly gradeAnswer: AnswerConsequence = async (tx, { session, text, now }) => {
    const state = typeStateOf(session, 'cloze');
    const item = state.items[state.position];
    // A widget is pending only while a point is on screen.
    if (!item) throw new Error(`cloze session ${session.id} has a pending widget but no point on screen`);
    const given = [...state.given, text];
    const right = isRightAnswer(text, item);
    if (!right && state.attempt === 1) return { typeState: { ...state, attempt: 2, given, lastGrade: { position: state.position, verdict: 'retry', attempt: 1 } } };
    const rating = ratingOf(right, state.attempt);
    await recordReview(tx, this.deps.ids, { sessionId: session.id, learnerId: session.learnerId, pointId: item.pointId, rating, confidence: null, now });
    const typeState: ClozeSessionState = {
      ...state,
      position: state.position + 1,
      attempt: 1,
      given: [],
      results: [...state.results, { pointId: item.pointId, prompt: item.prompt, answer: item.answer, given, rating }],
      lastGrade: { position: state.position, verdict: right ? 'right' : 'wrong', attempt: state.attempt },
    };
    return { typeState };
  };

  /** Answers every stored learner message or graded answer without a reply, in order. */
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
   * One step after a stored message: a graded answer gets its feedback line with the next
   * point's widget (or the closing line and the end); a chat gets the fixed pointer to the box
   * and the point on screen stays.
   */
  private async advance(snapshot: SessionSnapshot, message: StoredMessage): Promise<void> {
    const { storage, clock, ids } = this.deps;
    const state = typeStateOf(snapshot.session, 'cloze');
    const grade = state.lastGrade;
    const messageId = ids.next();
    if (message.role !== 'tool_result' || !grade) {
      const now = clock.now();
      const committed = await storage.transaction(async (tx) => {
        await tx.messages.append(tutorMessage({ id: messageId, sessionId: this.sessionId, content: chatRedirect, createdAt: now }));
        await tx.messages.markAnswered(message.id, now);
        return tx.loadSessionSnapshot(this.sessionId, noMessages);
      });
      this.noteCommit();
      if (committed) this.announceLine(messageId, chatRedirect, committed, { widget: false });
      return;
    }
    const item = state.items[grade.position]!;
    let text = feedbackLine(grade, item);
    if (grade.verdict !== 'retry') {
      const result = state.results.find((candidate) => candidate.pointId === item.pointId);
      const sentence = await this.writeFeedback({ item, given: result?.given ?? [], right: grade.verdict === 'right' }, this.sessionId, this.freshSignal());
      if (sentence) text = `${text} ${sentence}`;
    }
    const finished = state.position >= state.items.length;
    if (finished) text = `${text} ${closingLine(state)}`;
    const now = clock.now();
    const committed = await storage.transaction(async (tx) => {
      if (finished) {
        await tx.messages.append(tutorMessage({ id: messageId, sessionId: this.sessionId, content: text, createdAt: now }));
        await tx.messages.markAnswered(message.id, now);
        await tx.sessions.update(this.sessionId, { status: 'completed', endReason: 'all_answered', endedAt: now }, now);
      } else {
        await this.present(tx, { messageId, text, state, replyTo: message });
      }
      return tx.loadSessionSnapshot(this.sessionId, noMessages);
    });
    this.noteCommit();
    if (!committed) return;
    this.announceLine(messageId, text, committed);
    if (finished) this.broadcast({ type: 'session_complete', payload: { summary: clozeSessionSummary(committed, now) } });
  }

  /** Inside a transaction: the line and the point's widget as one tutor message, the pending widget, the state. */
  private async present(tx: StorageTx, step: { messageId: string; text: string; state: ClozeSessionState; replyTo: StoredMessage | null }): Promise<void> {
    const now = this.deps.clock.now();
    const props = pointWidget(step.state);
    const toolCallId = clozeToolCallId(step.state.position, step.state.attempt);
    await tx.messages.append(tutorMessage({ id: step.messageId, sessionId: this.sessionId, content: step.text, toolCall: { id: toolCallId, name: toolNameForKind(widgetKind), input: { ...props } }, createdAt: now }));
    if (step.replyTo) await tx.messages.markAnswered(step.replyTo.id, now);
    await tx.pendingActions.create({ id: this.deps.ids.next(), sessionId: this.sessionId, toolCallId, kind: widgetKind, props: { ...props }, createdAt: now });
    await tx.sessions.update(this.sessionId, { status: 'awaiting_client_action' }, now);
  }
}
