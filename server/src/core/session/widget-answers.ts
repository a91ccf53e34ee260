/**
 * Checks a learner's answer against the widget it answers (SPEC §4.2: index in range, text
 * within its limit, language as asked) and renders it as the text stored as the tool result.
 * Shared by every session type.
 */
import { answerForKind, kindOfAnswer, widgetSchemas, type Widget, type WidgetAnswer } from '@tutorloop/shared';
import type { StoredMessage } from '../storage/messages';
import type { PendingActionRecord } from '../storage/pending-actions';
import type { StorageTx } from '../storage/storage';

export type CheckedAnswer = { ok: true; value: string } | { ok: false; error: string };

function wrongShape(widget: Widget): CheckedAnswer {
  return { ok: false, error: `This widget expects ${widgetSchemas[widget.kind].expects}.` };
}

/** Validates an answer against the widget it answers and renders it as the tool result text. */
export function checkWidgetAnswer(widget: Widget, response: WidgetAnswer): CheckedAnswer {
  switch (widget.kind) {
    case 'multiple_choice': {
      const picked = answerForKind(widget.kind, response);
      if (!picked) return wrongShape(widget);
      const option = widget.props.options[picked.answer.selectedIndex];
      if (option === undefined) {
        return { ok: false, error: `selectedIndex must be between 0 and ${widget.props.options.length - 1}.` };
      }
      return { ok: true, value: option };
    }
    case 'free_text': {
      const written = answerForKind(widget.kind, response);
      if (!written) return wrongShape(widget);
      const { text } = written.answer;
      if (!text.trim()) return { ok: false, error: 'The answer is empty.' };
      if (text.length > widget.props.maxLength) {
        return { ok: false, error: `The answer is longer than ${widget.props.maxLength} characters.` };
      }
      return { ok: true, value: text };
    }
    case 'code_editor': {
      const code = answerForKind(widget.kind, response);
      if (!code) return wrongShape(widget);
      if (code.answer.language !== widget.props.language) {
        return { ok: false, error: `This widget asks for ${widget.props.language} code.` };
      }
      return { ok: true, value: code.answer.code };
    }
    case 'rating': {
      const { min, max, labels } = widget.props;
      const rated = answerForKind(widget.kind, response);
      if (!rated) return wrongShape(widget);
      const { value } = rated.answer;
      if (value < min || value > max) return { ok: false, error: `value must be a whole number from ${min} to ${max}.` };
      const label = labels?.[String(value)];
      return { ok: true, value: `${value} of ${max}${label ? ` (${label})` : ''}` };
    }
    default: {
      const unreachable: never = widget;
      throw new Error(`unknown widget ${JSON.stringify(unreachable)}`);
    }
  }
}

/**
 * What an item scorer (assessment, practice) reads from a stored answer: the option picked or
 * the code written; nothing for the kinds an item is never asked as.
 */
export function itemAnswerFields(response: WidgetAnswer): { selectedIndex?: number; code?: string } {
  const answer = kindOfAnswer(response);
  if (!answer) return {};
  switch (answer.kind) {
    case 'multiple_choice':
      return { selectedIndex: answer.answer.selectedIndex };
    case 'code_editor':
      return { code: answer.answer.code };
    case 'free_text':
    case 'rating':
      return {};
    default: {
      const unreachable: never = answer;
      throw new Error(`unknown answer ${JSON.stringify(unreachable)}`);
    }
  }
}

/**
 * Stores an accepted answer (call inside a transaction): the pending action is resolved and
 * the answer is appended as the tool result of the call that asked for it, so the stored
 * conversation holds tool_use → tool_result in order.
 */
export async function recordWidgetAnswer(
  tx: StorageTx,
  answer: { id: string; action: PendingActionRecord; response: WidgetAnswer; text: string; at: Date },
): Promise<StoredMessage> {
  const { action, response, at } = answer;
  await tx.pendingActions.resolve(action.id, 'answered', response, at);
  return tx.messages.append({
    id: answer.id,
    sessionId: action.sessionId,
    role: 'tool_result',
    content: answer.text,
    toolCall: null,
    toolCallId: action.toolCallId,
    widgetAnswer: { widgetId: action.id, response },
    clientMessageId: null,
    createdAt: at,
  });
}
