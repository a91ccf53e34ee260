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
}

/** A message to append: storage assigns `seq`; it starts unanswered. */
export type NewMessage = Omit<StoredMessage, 'seq' | 'answeredAt'>;

/** Reads conversations. */
export interface MessageReader {
  /** The session's messages by `seq`; with `last`, only the last `last` of them (still in order). */
  list(sessionId: string, options?: { last?: number }): Promise<StoredMessage[]>;
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
}
