/**
 * A learning turn's one transaction (SPEC §4.4 step 6): the reply (with the practice widget's
 * tool call), the learner message answered, a practice response, a new practice item and its
 * pending widget, a stale one withdrawn, the agent logs, and the session's state, status and
 * end. Everything a turn decided is committed together or not at all.
 */
import type { GeneratedItem } from '../assessment';
import type { Clock, IdGenerator } from '../ports';
import { tutorMessage } from '../session/new-messages';
import { toolNameForKind } from '../session/session-view';
import type { NewAgentLog } from '../storage/agent-logs';
import type { StoredMessage } from '../storage/messages';
import type { SessionSnapshot } from '../storage/session-snapshot';
import { typeStateOf } from '../storage/session-type-state';
import type { LearningSessionState } from './learning-state';
import type { Storage, StorageTx } from '../storage/storage';
import type { StoredItemRef } from './learning-view';
import { practiceWidget } from './practice';

/** What a turn commits. */
export interface LearningTurnCommit {
  text: string;
  state: LearningSessionState;
  logs: NewAgentLog[];
  /** The practice answer this turn scored. */
  practice: { item: StoredItemRef; credit: number; answerText: string; note: string | null; testsPassed: number | null; testsTotal: number | null } | null;
  /** A new practice item presented with the reply. */
  item: { item: GeneratedItem; position: number } | null;
  complete: boolean;
}

export async function commitLearningTurn(
  deps: { storage: Storage; clock: Clock; ids: IdGenerator },
  sessionId: string,
  snapshot: SessionSnapshot,
  message: StoredMessage,
  turn: LearningTurnCommit,
): Promise<{ now: Date; messageId: string; committed: SessionSnapshot | null }> {
  const { storage, clock, ids } = deps;
  const now = clock.now();
  const messageId = ids.next();
  const widgetId = turn.item ? ids.next() : null;
  const toolCallId = turn.item ? `practice-${ids.next()}` : null;
  const widget = turn.item ? practiceWidget(turn.item.item) : null;
  const committed = await storage.transaction(async (tx: StorageTx) => {
    // A practice item left behind by a step change (or by the end of the plan) is withdrawn.
    const before = typeStateOf(snapshot.session, 'learning');
    const stale = snapshot.pendingAction && (turn.complete || turn.state.currentStep !== before.currentStep) ? snapshot.pendingAction : null;
    if (stale) await tx.pendingActions.resolve(stale.id, 'cancelled', null, now);
    await tx.messages.append(
      tutorMessage({ id: messageId, sessionId, content: turn.text, toolCall: widget && toolCallId ? { id: toolCallId, name: toolNameForKind(widget.kind), input: { ...widget.props } } : null, createdAt: now }),
    );
    await tx.messages.markAnswered(message.id, now);
    if (turn.practice) {
      const presentedAt = turn.practice.item.presentedAt;
      await tx.assessments.addResponse(sessionId, {
        itemId: turn.practice.item.id,
        answerText: turn.practice.answerText,
        credit: turn.practice.credit,
        testsPassed: turn.practice.testsPassed,
        testsTotal: turn.practice.testsTotal,
        note: turn.practice.note,
        responseSeconds: Math.max(0, Math.round((message.createdAt.getTime() - presentedAt.getTime()) / 1000)),
        answeredAt: message.createdAt,
      });
    }
    if (turn.item && widget && widgetId && toolCallId) {
      await tx.pendingActions.create({ id: widgetId, sessionId, toolCallId, kind: widget.kind, props: { ...widget.props }, createdAt: now });
      await tx.assessments.addItem({ id: ids.next(), sessionId, position: turn.item.position, item: turn.item.item, widgetId, presentedAt: now });
    }
    for (const log of turn.logs) await tx.agentLogs.append(log);
    // The status changes only with a new widget, a withdrawn one or the end: a chat while a
    // practice item waits leaves it waiting.
    const status = turn.complete ? null : widget ? ('awaiting_client_action' as const) : stale ? ('active' as const) : null;
    await tx.sessions.update(
      sessionId,
      {
        typeState: turn.state,
        ...(turn.complete ? { status: 'completed' as const, endReason: 'plan_completed', endedAt: now } : status ? { status } : {}),
      },
      now,
    );
    return tx.loadSessionSnapshot(sessionId, { lastMessages: 0 });
  });
  return { now, messageId, committed };
}
