/**
 * The session engine for one thought session (SPEC §4.5): the learner drives, the model is a
 * Socratic partner — no checklist, no scoring. A turn: `typing` → safety gate → when enough
 * messages piled up past the window, the summariser folds the oldest into the stored summary
 * (its own transaction, with its agent log) → the partner's reply streamed as
 * `assistant_delta` → one transaction: the reply and the learner message answered →
 * `assistant`, `state_update`. The partner sees the summary and the window only
 * (thought-rules.ts), so its prompt stays bounded however long the conversation runs.
 * Ending (by the learner) writes the closing summary and sends `session_complete`.
 *
 * As in every room, everything that matters is in storage: a new process resumes the session
 * (an unanswered message is answered on attach).
 */
import type { SessionState, SessionSummary } from '@tutorloop/shared';
import type { ModelBudget } from '../limits/model-budget';
import type { Clock, IdGenerator } from '../ports';
import type { TutorProvider } from '../provider';
import { findRetryTarget } from '../session/retry-target';
import { tutorMessage } from '../session/new-messages';
import { ConversationRoom, noMessages } from '../session/conversation-room';
import type { InFlightReply, RoomBaseDeps, RoomFrames, SessionListener } from '../session/room-base';
import { stripLeaks } from '../session/sanitize';
import { buildState, isEnded } from '../session/session-view';
import type { NewAgentLog } from '../storage/agent-logs';
import type { StoredMessage } from '../storage/messages';
import type { SessionSnapshot } from '../storage/session-snapshot';
import { typeStateOf } from '../storage/session-type-state';
import type { ThoughtSessionState } from './thought-state';
import type { Storage } from '../storage/storage';
import { offlineThoughtSummary } from './offline-thought-partner';
import type { ThoughtSummaryInput } from './thought-port';
import { boundSummary, messagesToFold, thoughtSummary, toThoughtMessage, unsummarized, windowOf } from './thought-rules';

export interface ThoughtRoomDeps extends RoomBaseDeps {
  storage: Storage;
  provider: TutorProvider;
  clock: Clock;
  ids: IdGenerator;
  /** The learner's model budget: the opening, retries and summaries are charged here (turns at the adapters). */
  modelBudget: ModelBudget;
}

/**
 * How many of the latest messages a turn reads: enough for the window and a refresh, with room
 * for refreshes that failed (the prompt still takes at most window + refresh of them).
 */
const readWindow = 64;

const safetyRedirect =
  'I want to keep this a safe and useful space, so I won’t go into that. If you are going through something difficult, please reach out to someone you trust or a local support line. Whenever you’re ready, tell me what you’d like to think through.';
const emptyReplyFallback = 'Say more — what makes you see it that way?';

/** The state a learner sees: the topic; no checklist, no score. */
export function thoughtState(snapshot: Pick<SessionSnapshot, 'session' | 'pendingAction'>): SessionState {
  const state = typeStateOf(snapshot.session, 'thought');
  return { ...buildState(snapshot.session, { recalledCount: 0, totalPoints: 0 }, snapshot.pendingAction), thought: { topic: state.topic } };
}

export function thoughtSessionSummary(snapshot: Pick<SessionSnapshot, 'session'>, now: Date): SessionSummary {
  const { session } = snapshot;
  const state = typeStateOf(session, 'thought');
  const ended = session.endedAt ?? now;
  return {
    sessionId: session.id,
    type: 'thought',
    status: session.status === 'abandoned' ? 'abandoned' : 'completed',
    reason: (session.endReason ?? 'ended_by_learner') as SessionSummary['reason'],
    turns: session.turn,
    recalledCount: 0,
    totalPoints: 0,
    durationSeconds: Math.max(0, Math.round((ended.getTime() - session.createdAt.getTime()) / 1000)),
    points: [],
    thought: thoughtSummary(state, session.turn),
  };
}

export class ThoughtRoom extends ConversationRoom<ThoughtRoomDeps> {
  /** The reply being streamed (a listener attaching mid-reply catches up; `stop` keeps what was sent). */
  private streaming: { messageId: string; text: string; stopped: boolean } | null = null;

  /** No widgets and no tangents: the learner drives; a streamed reply can be stopped or produced again. */
  protected override readonly frames: RoomFrames = {
    chat: (text, clientMessageId, reply) => this.takeChat({ text, clientMessageId }, reply, 'This thought session has ended; start a new one to keep thinking.', { activates: true }),
    widgets: 'Thought sessions have no widgets: just write your reply.',
    tangents: 'A thought session goes wherever you take it: no need for a tangent, just say where you want to go.',
    stop: { stop: () => this.stopReply(), idle: 'No reply is being written just now.' },
    retry: { retry: (messageId, reply) => this.handleRetry(messageId, reply), busy: () => this.streaming !== null },
    // Ending must not wait behind a slow reply.
    end: { end: (reply) => this.endSession(reply), cancelsInFlight: true },
  };

  protected override inFlightReply(): InFlightReply | null {
    return this.streaming;
  }

  /** Cuts the reply being streamed: what was sent so far is kept (partnerReply commits it). */
  private stopReply(): boolean {
    if (!this.streaming) return false;
    this.streaming.stopped = true;
    this.cancelInFlight();
    return true;
  }

  protected override stateOf(snapshot: SessionSnapshot): SessionState {
    return thoughtState(snapshot);
  }

  protected override summaryOf(snapshot: SessionSnapshot, now: Date): SessionSummary {
    return thoughtSessionSummary(snapshot, now);
  }

  // -------------------------------------------------------------------------

  /** The partner opens: an invitation to say what to think about (or about the topic given). */
  protected override async openSession(snapshot: SessionSnapshot): Promise<void> {
    const session = await this.beginOpening(snapshot, this.deps.modelBudget);
    if (!session) return;
    const state = typeStateOf(session, 'thought');
    await this.partnerReply({ topic: state.topic, summary: '', recentMessages: [] }, null);
  }

  protected override async processUnanswered(): Promise<void> {
    for (;;) {
      const snapshot = await this.deps.storage.loadSessionSnapshot(this.sessionId, { lastMessages: readWindow });
      if (!snapshot || isEnded(snapshot.session.status)) return;
      const next = snapshot.oldestUnanswered;
      if (!next) return;
      if (!(await this.learnerTurn(snapshot, next))) return;
    }
  }

  /** One turn; false when it was cancelled or the partner could not answer. */
  private async learnerTurn(snapshot: SessionSnapshot, message: StoredMessage): Promise<boolean> {
    const { provider, logger } = this.deps;
    const signal = this.freshSignal();
    this.broadcast({ type: 'typing', payload: {} });
    const verdict = await provider.checkSafety(message.content, signal).catch((error: unknown) => {
      logger.warn({ err: error, sessionId: this.sessionId }, 'safety gate failed; treating message as safe');
      return { safe: true } as const;
    });
    if (signal.aborted) return false;
    if (!verdict.safe) {
      logger.warn({ sessionId: this.sessionId, reason: verdict.reason }, 'unsafe learner message redirected');
      await this.commitReply({ messageId: this.deps.ids.next(), text: safetyRedirect, replyTo: message });
      return true;
    }
    let state = typeStateOf(snapshot.session, 'thought');
    const upToMessage = snapshot.messages.filter((stored) => stored.seq <= message.seq);
    const fold = messagesToFold(unsummarized(upToMessage, state));
    if (fold.length > 0) {
      state = await this.refreshSummary(snapshot, state, fold, signal);
      if (signal.aborted) return false;
    }
    return this.partnerReply({ topic: state.topic, summary: state.summary, recentMessages: windowOf(unsummarized(upToMessage, state)) }, message);
  }

  /** Folds the oldest messages into the stored summary (SPEC §4.5 "refreshed every few turns and stored"). */
  private async refreshSummary(snapshot: SessionSnapshot, state: ThoughtSessionState, fold: StoredMessage[], signal: AbortSignal): Promise<ThoughtSessionState> {
    // Over budget, the summary waits for a later turn: the window still bounds the prompt.
    const charged = await this.deps.modelBudget.charge(snapshot.session.learnerId, 'summary');
    if (!charged.ok) {
      this.deps.logger.info({ sessionId: this.sessionId, budget: charged.budget }, 'rolling summary postponed: the learner’s model budget is spent');
      return state;
    }
    const input: ThoughtSummaryInput = { sessionId: this.sessionId, topic: state.topic, previousSummary: state.summary, messages: fold.map(toThoughtMessage), final: false };
    const outcome = await this.summarize(snapshot, input, signal);
    if (!outcome.text) {
      // The summariser failed: the window still bounds the prompt; the next turn tries again.
      await this.saveLog(outcome.log);
      return state;
    }
    const next: ThoughtSessionState = { ...state, summary: outcome.text, summarizedThrough: fold.at(-1)!.seq, refreshes: state.refreshes + 1 };
    await this.deps.storage.transaction(async (tx) => {
      await tx.sessions.update(this.sessionId, { typeState: next }, this.deps.clock.now());
      await tx.agentLogs.append(outcome.log);
    });
    this.noteCommit();
    return next;
  }

  /** One summariser call and its agent log; `text` null when it failed. */
  private async summarize(snapshot: SessionSnapshot, input: ThoughtSummaryInput, signal: AbortSignal): Promise<{ text: string | null; log: NewAgentLog }> {
    const started = this.deps.clock.now().getTime();
    const what = `${input.final ? 'closing summary' : 'rolling summary'}: ${input.messages.length} message(s) folded into ${input.previousSummary.length} characters`;
    try {
      const call = await this.deps.provider.thought.summarize(input, signal);
      const text = boundSummary(call.output);
      return { text: text || null, log: this.agentLog({ agent: 'summary', at: { learnerId: snapshot.session.learnerId, turn: snapshot.session.turn }, inputSummary: what, output: call.output, startedAt: started, call, outcome: text ? 'ok' : 'fallback' }) };
    } catch (error) {
      if (!signal.aborted) this.deps.logger.warn({ err: error, sessionId: this.sessionId }, 'thought summary failed');
      return { text: null, log: this.agentLog({ agent: 'summary', at: { learnerId: snapshot.session.learnerId, turn: snapshot.session.turn }, inputSummary: what, output: { error: String(error) }, startedAt: started, call: null, outcome: 'error' }) };
    }
  }

  /** Streams the partner's reply, then commits it (and the learner message answered). */
  private async partnerReply(
    input: { topic: string | null; summary: string; recentMessages: ReturnType<typeof windowOf>; replacing?: string },
    replyTo: StoredMessage | null,
    replaces: StoredMessage | null = null,
  ): Promise<boolean> {
    const { provider, ids, logger } = this.deps;
    const signal = this.freshSignal();
    const messageId = ids.next();
    const streaming = { messageId, text: '', stopped: false };
    this.streaming = streaming;
    if (!replyTo || replaces) this.broadcast({ type: 'typing', payload: {} });
    try {
      for await (const piece of provider.thought.reply({ sessionId: this.sessionId, ...input }, signal)) {
        if (signal.aborted) break;
        streaming.text += piece;
        this.broadcast({ type: 'assistant_delta', payload: { messageId, delta: piece } });
      }
    } catch (error) {
      if (!signal.aborted) {
        this.streaming = null;
        logger.error({ err: error, sessionId: this.sessionId }, 'thought partner call failed');
        this.broadcast({ type: 'error', payload: { code: 'llm_unavailable', message: 'Your thinking partner could not answer just now. Your message is saved — send it again to retry.' } });
        return false;
      }
    }
    this.streaming = null;
    if (signal.aborted && !streaming.stopped) return false;
    // A stopped reply keeps what was sent (SPEC §5); a finished one is screened for internal language.
    const text = streaming.stopped ? streaming.text.trim() : stripLeaks(streaming.text.trim()) || emptyReplyFallback;
    await this.commitReply({ messageId, text, replyTo, stopped: streaming.stopped, replaces });
    return true;
  }

  /** Stores the reply; a retried one supersedes the reply it replaces (kept in storage) and answers nothing new. */
  private async commitReply(reply: { messageId: string; text: string; replyTo: StoredMessage | null; stopped?: boolean; replaces?: StoredMessage | null }): Promise<void> {
    const { messageId, text, replyTo, stopped = false, replaces = null } = reply;
    const { storage, clock } = this.deps;
    const now = clock.now();
    const after = await storage.transaction(async (tx) => {
      if (replaces) await tx.messages.markSuperseded(replaces.id, messageId);
      await tx.messages.append({ ...tutorMessage({ id: messageId, sessionId: this.sessionId, content: text, createdAt: now }), ...(stopped ? { stopped: true } : {}) });
      if (replyTo && !replaces) await tx.messages.markAnswered(replyTo.id, now);
      return tx.loadSessionSnapshot(this.sessionId, noMessages);
    });
    this.noteCommit();
    this.broadcast({
      type: 'assistant',
      payload: { messageId, message: text, ...(stopped ? { stopped: true as const } : {}), ...(replaces ? { replaces: replaces.id } : {}) },
    });
    if (after) this.broadcast({ type: 'state_update', payload: { state: thoughtState(after) } });
  }

  /**
   * Produces the partner's last reply again (SPEC §5 `retry`), from the conversation as it stood
   * before it, in other words; only while the learner has not answered it. The safety gate runs
   * again on the learner's message, so a redirect is never undone by asking twice.
   */
  private async handleRetry(messageId: string, reply: SessionListener): Promise<void> {
    const snapshot = await this.deps.storage.loadSessionSnapshot(this.sessionId, { lastMessages: readWindow });
    if (!snapshot) return;
    if (isEnded(snapshot.session.status)) return this.fail(reply, 'session_ended', 'This thought session has ended.');
    if (snapshot.oldestUnanswered) return this.fail(reply, 'turn_in_progress', 'Your last message is still waiting for its reply.');
    const target = findRetryTarget(snapshot.messages, null, messageId);
    if (!target.ok) return this.fail(reply, 'nothing_to_retry', target.error);
    // Refused, nothing changes: the old reply stays.
    if (!(await this.admit(this.deps.modelBudget, snapshot.session.learnerId, 'retry', reply))) return;
    const { previous, replyTo } = target.value;
    if (replyTo?.role === 'learner') {
      const signal = this.freshSignal();
      const verdict = await this.deps.provider.checkSafety(replyTo.content, signal).catch(() => ({ safe: true }) as const);
      if (signal.aborted) return;
      if (!verdict.safe) return this.commitReply({ messageId: this.deps.ids.next(), text: safetyRedirect, replyTo, replaces: previous });
    }
    const state = typeStateOf(snapshot.session, 'thought');
    const before = snapshot.messages.filter((stored) => stored.seq < previous.seq);
    await this.partnerReply({ topic: state.topic, summary: state.summary, recentMessages: windowOf(unsummarized(before, state)), replacing: previous.content }, replyTo, previous);
  }

  /** The learner ends it: the closing summary (the model's, or a plain one if it fails), then `session_complete`. */
  private async endSession(reply: SessionListener): Promise<void> {
    const { storage, clock } = this.deps;
    const snapshot = await storage.loadSessionSnapshot(this.sessionId, { lastMessages: readWindow });
    if (!snapshot) return;
    if (isEnded(snapshot.session.status)) return this.fail(reply, 'session_ended', 'This thought session has already ended.');
    const state = typeStateOf(snapshot.session, 'thought');
    const input: ThoughtSummaryInput = { sessionId: this.sessionId, topic: state.topic, previousSummary: state.summary, messages: windowOf(unsummarized(snapshot.messages, state)), final: true };
    // Ending never waits for the budget: over it, the closing summary is the plain one, written without the model.
    const charged = await this.deps.modelBudget.charge(snapshot.session.learnerId, 'summary');
    if (!charged.ok) this.deps.logger.info({ sessionId: this.sessionId, budget: charged.budget }, 'closing summary written without the model: the learner’s model budget is spent');
    this.broadcast({ type: 'typing', payload: {} });
    const outcome = charged.ok ? await this.summarize(snapshot, input, this.freshSignal()) : { text: null, log: null };
    const finalSummary = outcome.text ?? boundSummary(offlineThoughtSummary(input));
    const now = clock.now();
    const ended = await storage.transaction(async (tx) => {
      if (outcome.log) await tx.agentLogs.append(outcome.log);
      await tx.sessions.update(this.sessionId, { status: 'completed', endReason: 'ended_by_learner', endedAt: now, typeState: { ...state, finalSummary } }, now);
      return tx.loadSessionSnapshot(this.sessionId, noMessages);
    });
    this.noteCommit();
    if (!ended) return;
    this.broadcast({ type: 'state_update', payload: { state: thoughtState(ended) } });
    this.broadcast({ type: 'session_complete', payload: { summary: thoughtSessionSummary(ended, now) } });
  }

  private async saveLog(log: NewAgentLog): Promise<void> {
    await this.deps.storage.transaction((tx) => tx.agentLogs.append(log));
    this.noteCommit();
  }
}
