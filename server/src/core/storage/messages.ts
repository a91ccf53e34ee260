/**
 * The conversation port (SPEC §3, §4.2): every message of a session in order, tool calls and
 * tool results included. `seq` is assigned by storage: 1, 2, 3… per session, never reused.
 */
import type { WidgetAnswer } from '@tutorloop/shared';
import type { ToolCall } from '../provider';

export type MessageRole = 'learner' | 'tutor' | 'tool_result';

/** One stored message: a learner message, a tutor reply (with its tool call) or a tool result. */
export interface StoredMessage {
  id: string;
  sessionId: string;
  seq: number;
  role: MessageRole;
  content: string;
  toolCall: ToolCall | null;
  toolCallId: string | null;
  widgetAnswer: { widgetId: string; response: WidgetAnswer } | null;
  clientMessageId: string | null;
  answeredAt: Date | null;
  createdAt: Date;
  /** A tutor reply the learner stopped: `content` is what was sent before the stop (SPEC §5). */
  stopped: boolean;
  /** The reply that replaced this one when the learner asked for it again (SPEC §5 `retry`); null while current. */
  supersededBy: string | null;
}

/** A message to append: storage assigns `seq`; it starts unanswered and current. */
export type NewMessage = Omit<StoredMessage, 'seq' | 'answeredAt' | 'stopped' | 'supersededBy'> & { stopped?: boolean };

/** What `list` returns. */
export interface MessageListOptions {
  /** Only the last N (still in order). */
  last?: number;
  /** Include replies replaced by a retry (and their tool results); by default only the current conversation. */
  includeSuperseded?: boolean;
}

/** Reads conversations. */
export interface MessageReader {
  /**
   * The session's current conversation by `seq` — what the learner sees and the models read:
   * messages superseded by a retry are left out unless asked for. With `last`, only the last
   * `last` of them (still in order).
   */
  list(sessionId: string, options?: MessageListOptions): Promise<StoredMessage[]>;
  count(sessionId: string): Promise<number>;
  /** The message a client sent with this id, if any (resends are recognised by it). */
  findByClientId(sessionId: string, clientMessageId: string): Promise<StoredMessage | null>;
  /** The first learner message or tool result still without a reply, by `seq`; tutor messages never count. */
  findOldestUnanswered(sessionId: string): Promise<StoredMessage | null>;
}

/** Reads and writes conversations (inside a transaction). */
export interface MessageRepository extends MessageReader {
  /**
   * Appends a message at the session's next `seq` and returns it as stored. Throws
   * `conflict` when its `clientMessageId` is already used in this session (null ids never
   * conflict) or its id is taken, `missing_reference` for an unknown session.
   */
  append(message: NewMessage): Promise<StoredMessage>;
  /** Records when the reply to a learner message or tool result was committed; throws `not_found` for an unknown id. */
  markAnswered(messageId: string, at: Date): Promise<void>;
  /** Marks a message as replaced by another (a retried reply, or its tool result); throws `not_found` for an unknown id. */
  markSuperseded(messageId: string, byMessageId: string): Promise<void>;
}
