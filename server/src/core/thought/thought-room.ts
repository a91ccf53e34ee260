/**
 * The session engine for one thought session (SPEC §4.5): the learner drives, the model is a
 * Socratic partner — no checklist, no scoring. A turn runs on the shared turn runner
 * (session/turn-runner.ts; streaming, stop, retry, the safety gate) with this room's hooks:
 * `typing` → safety gate → when enough messages piled up past the window, the summariser
 * folds the oldest into the stored summary (its own transaction, with its agent log) → the
 * partner's reply streamed as `assistant_delta`, as written (no widgets, no tools; the whole
 * reply is screened for internal language once it is done) → one transaction: the reply and
 * the learner message answered → `assistant`, `state_update`. The partner sees the summary and
 * the window only (thought-rules.ts), so its prompt stays bounded however long the
 * conversation runs. Ending (by the learner) writes the closing summary and sends `session_complete`.
 *
 * As in every room, everything that matters is in storage: a new process resumes the session
 * (an unanswered message is answered on attach).
 */
import type { SessionState, SessionSummary } from '@tutorloop/shared';
import type { ModelBudget } from '../limits/model-budget';
import type { Clock, IdGenerator } from '../ports';
import type { TutorProvider } from '../provider';
import { findRetryTarget } from '../session/retry-target';
import { ConversationRoom, noMessages } from '../session/conversation-room';
import type { InFlightReply, RoomBaseDeps, RoomFrames, SessionListener } from '../session/room-base';
import { stripLeaks } from '../session/sanitize';
import { buildState, isEnded } from '../session/session-view';
import { TurnRunner, type EvaluationStep, type TurnHooks, type TurnWording } from '../session/turn-runner';
import type { NewAgentLog } from '../storage/agent-logs';
import type { StoredMessage } from '../storage/messages';
import type { StoredSession } from '../storage/sessions';
import type { SessionSnapshot } from '../storage/session-snapshot';
import { typeStateOf } from '../storage/session-type-state';
import type { ThoughtSessionState } from './thought-state';
import type { Storage } from '../storage/storage';
import { offlineThoughtSummary } from './offline-thought-partner';
import type { ThoughtPartner, ThoughtReplyInput, ThoughtSummaryInput } from './thought-port';
import { boundSummary, messagesToFold, partnerInput, thoughtSummary, toThoughtMessage, unsummarized, windowOf } from './thought-rules';

export interface ThoughtRoomDeps extends RoomBaseDeps {
  storage: Storage;
  /** The safety gate. */
  provider: TutorProvider;
  /** The Socratic partner and summariser (thought-model.ts: `thoughtPartnerFor`). */
  thoughtPartner: ThoughtPartner;
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

/** The words of the replies and errors the turn runner writes for a thought session. */
const wording: TurnWording = {
  safetyRedirect:
    'I want to keep this a safe and useful space, so I won’t go into that. If you are going through something difficult, please reach out to someone you trust or a local support line. Whenever you’re ready, tell me what you’d like to think through.',
  unavailable: 'Your thinking partner could not answer just now. Your message is saved — send it again to retry.',
};
const emptyReplyFallback = 'Say more — what makes you see it that way?';

/** The partner's text pieces as the turn runner reads a reply. */
async function* asTextEvents(pieces: AsyncIterable<string>) {
  for await (const text of pieces) yield { type: 'text_delta' as const, text };
}

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
  /** Produces every reply: the opening, one per learner message, retries (a thought session has no evaluation). */
  private readonly runner: TurnRunner<null, ThoughtReplyInput>;

  constructor(sessionId: string, deps: ThoughtRoomDeps, onIdle?: () => void) {
    super(sessionId, deps, onIdle);
    this.runner = new TurnRunner({
      deps: { storage: deps.storage, safety: deps.provider, clock: deps.clock, ids: deps.ids, logger: deps.logger },
      room: { sessionId, broadcast: (event) => this.broadcast(event), freshSignal: () => this.freshSignal(), noteCommit: () => this.noteCommit() },
      hooks: this.turnHooks(),
    });
  }

  /** The Socratic partner and summariser. */
  private get partner(): ThoughtPartner {
    return this.deps.thoughtPartner;
  }

  /** No widgets and no tangents: the learner drives; a streamed reply can be stopped or produced again. */
  protected override readonly frames: RoomFrames = {
    chat: (text, clientMessageId, reply) => this.takeChat({ text, clientMessageId }, reply, 'This thought session has ended; start a new one to keep thinking.', { activates: true }),
    widgets: 'Thought sessions have no widgets: just write your reply.',
    tangents: 'A thought session goes wherever you take it: no need for a tangent, just say where you want to go.',
    stop: { stop: () => this.runner.stop(), idle: 'No reply is being written just now.' },
    retry: { retry: (messageId, reply) => this.handleRetry(messageId, reply), busy: () => this.runner.replying },
    // Ending must not wait behind a slow reply.
    end: { end: (reply) => this.endSession(reply), cancelsInFlight: true },
  };

  protected override inFlightReply(): InFlightReply | null {
    return this.runner.streaming;
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
    if (session) await this.runner.openingTurn({ ...snapshot, session });
  }

  protected override async processUnanswered(): Promise<void> {
    for (;;) {
      const snapshot = await this.deps.storage.loadSessionSnapshot(this.sessionId, { lastMessages: readWindow });
      if (!snapshot || isEnded(snapshot.session.status)) return;
      const next = snapshot.oldestUnanswered;
      if (!next) return;
      if (!(await this.runner.learnerTurn(snapshot, next))) return;
    }
  }

  /** This room's part of a turn: no evaluation, the summary folded first, the partner's reply; no tools, no leak guard while streaming. */
  private turnHooks(): TurnHooks<null, ThoughtReplyInput> {
    return {
      noEvaluation: null,
      evaluate: async () => null,
      applyEvaluation: (step) => this.foldOlderMessages(step),
      modelInput: ({ snapshot, replyTo, retryOf }) =>
        partnerInput({ sessionId: this.sessionId, state: typeStateOf(snapshot.session, 'thought'), messages: snapshot.messages, replyTo, retryOf }),
      reply: (input, _leaked, signal) => asTextEvents(this.partner.reply(input, signal)),
      leakGuard: 'none',
      tools: 'none',
      // A stopped reply keeps what was sent; a finished one is screened for internal language.
      finalText: (text, stopped) => (stopped ? text.trim() : stripLeaks(text.trim()) || emptyReplyFallback),
      wording,
      state: thoughtState,
      // The state announced is read afresh: another message may have been stored meanwhile.
      afterReply: async () => {
        const after = await this.deps.storage.loadSessionSnapshot(this.sessionId, noMessages);
        if (after) this.broadcast({ type: 'state_update', payload: { state: thoughtState(after) } });
        return true;
      },
    };
  }

  /**
   * Before the partner answers `message`: once enough messages piled up past the window, the
   * oldest are folded into the stored summary. The snapshot as it now is; null when the turn
   * was cancelled meanwhile.
   */
  private async foldOlderMessages({ snapshot, message, signal }: EvaluationStep<null>): Promise<SessionSnapshot | null> {
    const state = typeStateOf(snapshot.session, 'thought');
    const fold = messagesToFold(unsummarized(snapshot.messages.filter((stored) => stored.seq <= message.seq), state));
    if (fold.length === 0) return snapshot;
    const session = await this.refreshSummary(snapshot, state, fold, signal);
    return signal.aborted ? null : { ...snapshot, session };
  }

  /** Folds the oldest messages into the stored summary (SPEC §4.5 "refreshed every few turns and stored"). */
  private async refreshSummary(snapshot: SessionSnapshot, state: ThoughtSessionState, fold: StoredMessage[], signal: AbortSignal): Promise<StoredSession> {
    // Over budget, the summary waits for a later turn: the window still bounds the prompt.
    const charged = await this.deps.modelBudget.charge(snapshot.session.learnerId, 'summary');
    if (!charged.ok) {
      this.deps.logger.info({ sessionId: this.sessionId, budget: charged.budget }, 'rolling summary postponed: the learner’s model budget is spent');
      return snapshot.session;
    }
    const input: ThoughtSummaryInput = { sessionId: this.sessionId, topic: state.topic, previousSummary: state.summary, messages: fold.map(toThoughtMessage), final: false };
    const outcome = await this.summarize(snapshot, input, signal);
    if (!outcome.text) {
      // The summariser failed: the window still bounds the prompt; the next turn tries again.
      await this.saveLog(outcome.log);
      return snapshot.session;
    }
    const next: ThoughtSessionState = { ...state, summary: outcome.text, summarizedThrough: fold.at(-1)!.seq, refreshes: state.refreshes + 1 };
    const session = await this.deps.storage.transaction(async (tx) => {
      const updated = await tx.sessions.update(this.sessionId, { typeState: next }, this.deps.clock.now());
      await tx.agentLogs.append(outcome.log);
      return updated;
    });
    this.noteCommit();
    return session;
  }

  /** One summariser call and its agent log; `text` null when it failed. */
  private async summarize(snapshot: SessionSnapshot, input: ThoughtSummaryInput, signal: AbortSignal): Promise<{ text: string | null; log: NewAgentLog }> {
    const started = this.deps.clock.now().getTime();
    const what = `${input.final ? 'closing summary' : 'rolling summary'}: ${input.messages.length} message(s) folded into ${input.previousSummary.length} characters`;
    try {
      const call = await this.partner.summarize(input, signal);
      const text = boundSummary(call.output);
      return { text: text || null, log: this.agentLog({ agent: 'summary', at: { learnerId: snapshot.session.learnerId, turn: snapshot.session.turn }, inputSummary: what, output: call.output, startedAt: started, call, outcome: text ? 'ok' : 'fallback' }) };
    } catch (error) {
      if (!signal.aborted) this.deps.logger.warn({ err: error, sessionId: this.sessionId }, 'thought summary failed');
      return { text: null, log: this.agentLog({ agent: 'summary', at: { learnerId: snapshot.session.learnerId, turn: snapshot.session.turn }, inputSummary: what, output: { error: String(error) }, startedAt: started, call: null, outcome: 'error' }) };
    }
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
    await this.runner.retryTurn(snapshot, target.value);
  }

  /** The learner ends it: the closing summary (the model's, or a plain one if it fails), then `session_complete`. */
  private async endSession(reply: SessionListener): Promise<void> {
    const { storage } = this.deps;
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
    await this.finishSession('ended_by_learner', {
      closing: async (tx) => {
        if (outcome.log) await tx.agentLogs.append(outcome.log);
        return { typeState: { ...state, finalSummary } };
      },
    });
  }

  private async saveLog(log: NewAgentLog): Promise<void> {
    await this.deps.storage.transaction((tx) => tx.agentLogs.append(log));
    this.noteCommit();
  }
}
