/**
 * A room whose sessions are a conversation (recall, learning, thought and survey rooms):
 * resuming after an interruption means the opening turn (nothing said yet) or the oldest
 * unanswered input, and a chat message or a widget answer is stored by the inbox first, then
 * answered in turn. The assessment room, driven by its items and clock, stays on RoomBase.
 */
import type { AgentLogOutcome, AgentName, WidgetAnswer } from '@tutorloop/shared';
import type { ModelBudget } from '../limits/model-budget';
import type { IdGenerator } from '../ports';
import type { NewAgentLog } from '../storage/agent-logs';
import type { SessionSnapshot } from '../storage/session-snapshot';
import type { StoredSession } from '../storage/sessions';
import { storeChat, storeWidgetAnswer, type AnswerConsequence, type ChatPolicy } from './inbox';
import { noMessages, RoomBase, type RoomBaseDeps, type SessionListener } from './room-base';

export { noMessages } from './room-base';

export interface ConversationRoomDeps extends RoomBaseDeps {
  ids: IdGenerator;
}

/** One model call, to be logged (`agent_logs`, SPEC §4.4). */
export interface AgentCall {
  agent: AgentName;
  /** Whose turn it was. */
  at: { learnerId: string; turn: number };
  /** What went in, in a few words (cut to 500 characters). */
  inputSummary: string;
  output: unknown;
  /** When the call started (ms since the epoch, from the room's clock). */
  startedAt: number;
  /** The call as answered (its token usage), or null when it failed. */
  call: { usage: { inputTokens: number; outputTokens: number } | null } | null;
  outcome: AgentLogOutcome;
}

export abstract class ConversationRoom<Deps extends ConversationRoomDeps = ConversationRoomDeps> extends RoomBase<Deps> {
  /** The session's first turn (nothing has been said yet). */
  protected abstract openSession(snapshot: SessionSnapshot): Promise<void>;
  /** Answers every stored input that has no reply yet, in order. */
  protected abstract processUnanswered(): Promise<void>;

  /**
   * The first steps of an opening a model writes: it is charged to the learner's budget before
   * anything is written (refused, the session stays as it was and opens on the next attach, or
   * when the learner just writes), and a pending session becomes active. The session as now
   * stored, or null when nothing is to be said (refused, or it has messages already and only
   * its status lagged).
   */
  protected async beginOpening(snapshot: SessionSnapshot, budget: ModelBudget): Promise<StoredSession | null> {
    if (snapshot.messageCount === 0 && !(await this.admit(budget, snapshot.session.learnerId, 'opening'))) return null;
    let session = snapshot.session;
    if (session.status === 'pending') {
      session = await this.deps.storage.transaction((tx) => tx.sessions.update(this.sessionId, { status: 'active' }, this.deps.clock.now()));
      this.noteCommit();
    }
    return snapshot.messageCount > 0 ? null : session;
  }

  /** Resumes an interrupted session: the opening turn, or an unanswered learner input. */
  override resume(): void {
    void this.enqueue(async () => {
      const snapshot = await this.deps.storage.loadSessionSnapshot(this.sessionId, noMessages);
      if (!snapshot || this.closedForGood(snapshot)) return;
      if (snapshot.session.status === 'pending' || snapshot.messageCount === 0) await this.openSession(snapshot);
      else if (snapshot.oldestUnanswered) await this.processUnanswered();
    });
  }

  /**
   * Stores a chat message at once (before queueing, so a crash while an earlier turn runs
   * loses nothing), then queues its processing. A resend with a known clientMessageId is not
   * stored twice; if it was never answered (a failed or interrupted turn) it is retried. An
   * ended session refuses with `endedMessage`.
   */
  protected async takeChat(message: { text: string; clientMessageId: string | null }, reply: SessionListener, endedMessage: string, policy?: ChatPolicy): Promise<void> {
    const outcome = await storeChat(this.deps, this.sessionId, message, policy);
    return this.followChat(outcome, reply, endedMessage, () => this.processUnanswered());
  }

  /**
   * Checks and stores a widget answer as the widget's tool result (inbox.ts) — with the type's
   * `consequence` of it in the same transaction, if any — then answers it.
   */
  protected async takeWidgetAnswer(widgetId: string, response: WidgetAnswer, reply: SessionListener, consequence?: AnswerConsequence): Promise<void> {
    const outcome = await storeWidgetAnswer(this.deps, this.sessionId, widgetId, response, consequence);
    if (!outcome.ok) {
      if (outcome.error) this.fail(reply, outcome.error.code, outcome.error.message);
      return;
    }
    this.noteCommit();
    await this.processUnanswered();
  }

  /**
   * A fixed line (one delta, then whole), then `state_update` and — unless `widget` is false — the
   * pending widget: how the rooms that write their own lines (survey, cloze) speak.
   */
  protected announceLine(messageId: string, text: string, snapshot: SessionSnapshot, options: { widget: boolean } = { widget: true }): void {
    this.broadcast({ type: 'assistant_delta', payload: { messageId, delta: text } });
    this.broadcast({ type: 'assistant', payload: { messageId, message: text } });
    const state = this.stateOf(snapshot);
    this.broadcast({ type: 'state_update', payload: { state } });
    if (options.widget && state.status === 'awaiting_client_action') this.broadcast({ type: 'widget', payload: state.pendingWidget });
  }

  /** The `agent_logs` row of a model call, timed until now. */
  protected agentLog(entry: AgentCall): NewAgentLog {
    const now = this.deps.clock.now();
    return {
      id: this.deps.ids.next(),
      sessionId: this.sessionId,
      learnerId: entry.at.learnerId,
      turn: entry.at.turn,
      agent: entry.agent,
      inputSummary: entry.inputSummary.slice(0, 500),
      output: entry.output ?? null,
      latencyMs: Math.max(0, now.getTime() - entry.startedAt),
      tokensIn: entry.call?.usage?.inputTokens ?? null,
      tokensOut: entry.call?.usage?.outputTokens ?? null,
      outcome: entry.outcome,
      createdAt: now,
    };
  }
}
