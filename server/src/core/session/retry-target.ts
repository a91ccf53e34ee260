/**
 * Which reply a `retry` produces again (SPEC §5): only the last tutor reply of the current
 * conversation, and only while the learner has not answered it. Pure: the room reads the
 * snapshot, this decides.
 */
import type { StoredMessage } from '../storage/messages';
import type { PendingActionRecord } from '../storage/pending-actions';

/** The reply to produce again and what hangs on it. */
export interface RetryTarget {
  /** The reply being replaced (it stays stored, marked superseded). */
  previous: StoredMessage;
  /** What it answered: a learner message, a widget answer, or null for the tutor's opening. */
  replyTo: StoredMessage | null;
  /** Messages that belong to the reply and go with it: the stored result of its mode-change tool call. */
  followers: StoredMessage[];
  /** Its widget, still waiting for an answer: cancelled when the new reply is committed. */
  pendingAction: PendingActionRecord | null;
}

export type RetryTargetResult = { ok: true; value: RetryTarget } | { ok: false; error: string };

/** Finds the reply `messageId` names in the current conversation, if a retry may replace it. */
export function findRetryTarget(messages: readonly StoredMessage[], pendingAction: PendingActionRecord | null, messageId: string): RetryTargetResult {
  const index = messages.findLastIndex((message) => message.role === 'tutor');
  const previous = messages[index];
  if (!previous) return { ok: false, error: 'There is no tutor reply to produce again yet.' };
  if (previous.id !== messageId) {
    const known = messages.some((message) => message.id === messageId && message.role === 'tutor');
    return { ok: false, error: known ? 'Only the last tutor reply can be produced again.' : 'No tutor reply with that id in this conversation.' };
  }
  const after = messages.slice(index + 1);
  // Only the stored result of the reply's own mode-change call may follow it; anything else
  // (a learner message, a widget answer) means the learner already answered this reply.
  const followers = after.filter((message) => message.role === 'tool_result' && message.widgetAnswer === null && message.toolCallId !== null && message.toolCallId === previous.toolCall?.id);
  if (followers.length !== after.length) return { ok: false, error: 'You already answered this reply, so it can no longer be produced again.' };
  const before = messages[index - 1];
  const replyTo = before && (before.role === 'learner' || before.widgetAnswer !== null) ? before : null;
  const ownWidget = pendingAction && previous.toolCall && pendingAction.toolCallId === previous.toolCall.id ? pendingAction : null;
  return { ok: true, value: { previous, replyTo, followers, pendingAction: ownWidget } };
}
