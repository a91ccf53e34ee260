import type { HistoryMessage } from '@tutorloop/shared';

/** A chat message this tab sent (or tried to send) and has not yet seen in the server's history. */
export interface OutboxEntry {
  clientMessageId: string;
  message: string;
}

/**
 * The entries that a restored `history` does not contain, in their original order.
 *
 * A learner history message normally carries the `clientMessageId` it was sent with. A
 * server that does not echo it yet (no learner message in the history has one) is matched by
 * text instead, each history message confirming at most one entry, so a dropped "yes" is
 * still resent when an earlier "yes" is in the history only once.
 */
export function findUndelivered<T extends OutboxEntry>(entries: readonly T[], history: readonly HistoryMessage[]): T[] {
  const learnerMessages = history.filter((message) => message.role === 'learner');
  const serverEchoesIds = learnerMessages.some((message) => typeof message.clientMessageId === 'string');
  if (serverEchoesIds) {
    const delivered = new Set(learnerMessages.map((message) => message.clientMessageId));
    return entries.filter((entry) => !delivered.has(entry.clientMessageId));
  }
  const remaining = learnerMessages.map((message) => message.content.trim());
  return entries.filter((entry) => {
    const index = remaining.indexOf(entry.message.trim());
    if (index === -1) return true;
    remaining.splice(index, 1);
    return false;
  });
}
