/**
 * Checks a learner's answer against the widget it answers (SPEC §4.2: index in range, text
 * within its limit, language as asked) and renders it as the text stored as the tool result.
 * Shared by every session type.
 */
import type { Widget, WidgetAnswer } from '@tutorloop/shared';
import type { StoredMessage } from '../storage/messages';
import type { PendingActionRecord } from '../storage/pending-actions';
import type { StorageTx } from '../storage/storage';

export type CheckedAnswer = { ok: true; value: string } | { ok: false; error: string };

/** Validates an answer against the widget it answers and renders it as the tool result text. */
export function checkWidgetAnswer(widget: Widget, response: WidgetAnswer): CheckedAnswer {
  switch (widget.kind) {
    case 'multiple_choice': {
      if (!('selectedIndex' in response)) return { ok: false, error: 'This widget expects {"selectedIndex": n}.' };
      const option = widget.props.options[response.selectedIndex];
      if (option === undefined) {
        return { ok: false, error: `selectedIndex must be between 0 and ${widget.props.options.length - 1}.` };
      }
      return { ok: true, value: option };
    }
    case 'free_text': {
      if (!('text' in response)) return { ok: false, error: 'This widget expects {"text": "..."}.' };
      if (!response.text.trim()) return { ok: false, error: 'The answer is empty.' };
      if (response.text.length > widget.props.maxLength) {
        return { ok: false, error: `The answer is longer than ${widget.props.maxLength} characters.` };
      }
      return { ok: true, value: response.text };
    }
    case 'code_editor': {
      if (!('code' in response)) return { ok: false, error: 'This widget expects {"code": "...", "language": "..."}.' };
      if (response.language !== widget.props.language) {
        return { ok: false, error: `This widget asks for ${widget.props.language} code.` };
      }
      return { ok: true, value: response.code };
    }
    case 'rating': {
      const { min, max, labels } = widget.props;
      if (!('value' in response)) return { ok: false, error: 'This widget expects {"value": n}.' };
      if (response.value < min || response.value > max) return { ok: false, error: `value must be a whole number from ${min} to ${max}.` };
      const label = labels?.[String(response.value)];
      return { ok: true, value: `${response.value} of ${max}${label ? ` (${label})` : ''}` };
    }
    default: {
      const unreachable: never = widget;
      throw new Error(`unknown widget ${JSON.stringify(unreachable)}`);
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
