/**
 * The messages every session type appends: a learner's chat and a tutor's reply (with the
 * tool call it made, if any). Widget answers are appended by `recordWidgetAnswer`.
 */
import type { ToolCall } from '../provider';
import type { NewMessage } from '../storage/messages';

/** A learner's chat message; `clientMessageId` de-duplicates resends. */
export function learnerMessage(fields: { id: string; sessionId: string; content: string; clientMessageId: string | null; createdAt: Date }): NewMessage {
  return { ...fields, role: 'learner', toolCall: null, toolCallId: null, widgetAnswer: null };
}

/** A tutor's reply, and the tool it called in it (a widget or a mode change), if any. */
export function tutorMessage(fields: { id: string; sessionId: string; content: string; toolCall?: ToolCall | null; createdAt: Date }): NewMessage {
  return { toolCall: null, ...fields, role: 'tutor', toolCallId: null, widgetAnswer: null, clientMessageId: null };
}
