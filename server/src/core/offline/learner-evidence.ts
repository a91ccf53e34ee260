/**
 * Which text counts as the learner's evidence for one evaluation.
 *
 * Only the LATEST learner-authored message counts: a chat message, or a widget answer (a
 * `tool_result`). Tutor messages never count — a tutor's cue deliberately contains an
 * anchor term and its hints contain masked key terms, and a later recap may name whole
 * points; counting them would let the tutor "recall" on the learner's behalf. Earlier
 * learner messages were evaluated on their own turn already (anything they recalled is
 * checked off and no longer sent), so re-reading them would only re-count stale evidence.
 *
 * Widget answers are stored as tool results. The engine stores them as plain text (the
 * chosen option, the text, the code), whose kind comes from the widget tool that asked.
 * JSON content is parsed defensively: `{"text": …}` (free text) and `{"code": …}` are used
 * as written; `{"selectedIndex": n}` is resolved to the option text through the matching
 * tutor tool call in the window. Tool results of calls that are clearly not client
 * widgets (a backend tool) are skipped.
 */
import type { ConversationMessage, ToolCall } from '../provider';

export type EvidenceSource = 'chat' | 'free_text' | 'code' | 'choice' | 'widget';

export interface LearnerEvidence {
  text: string;
  source: EvidenceSource;
  /** Set for widget answers. */
  toolCallId?: string;
}

const CLIENT_TOOL_NAMES = new Set([
  'present_choices',
  'request_free_text',
  'present_code_editor',
  'multiple_choice',
  'free_text',
  'code_editor',
]);

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function optionsOf(input: Record<string, unknown>): unknown[] | null {
  if (Array.isArray(input.options)) return input.options;
  const props = input.props;
  if (isRecord(props) && Array.isArray(props.options)) return props.options;
  return null;
}

function findToolCall(messages: readonly ConversationMessage[], toolCallId: string): ToolCall | undefined {
  for (const m of messages) if (m.role === 'tutor' && m.toolCall?.id === toolCallId) return m.toolCall;
  return undefined;
}

/** The kind of answer a plain-text result is, from the widget tool that asked for it. */
function sourceOfCall(call: ToolCall | undefined): EvidenceSource {
  switch (call?.name) {
    case 'present_choices':
    case 'multiple_choice':
      return 'choice';
    case 'request_free_text':
    case 'free_text':
      return 'free_text';
    case 'present_code_editor':
    case 'code_editor':
      return 'code';
    default:
      return 'widget';
  }
}

function parseWidgetAnswer(content: string, toolCallId: string, call: ToolCall | undefined): LearnerEvidence | null {
  const base = { toolCallId };
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    // The engine stores answers as plain text: the chosen option, the text, or the code.
    return content.trim() ? { ...base, text: content, source: sourceOfCall(call) } : null;
  }
  if (typeof parsed === 'string') return parsed.trim() ? { ...base, text: parsed, source: sourceOfCall(call) } : null;
  // A number, or an array: code that happens to be valid JSON ("42"), kept as written.
  if (!isRecord(parsed)) return content.trim() ? { ...base, text: content, source: sourceOfCall(call) } : null;
  if (typeof parsed.text === 'string') return { ...base, text: parsed.text, source: 'free_text' };
  if (typeof parsed.code === 'string') return { ...base, text: parsed.code, source: 'code' };
  if (typeof parsed.selectedIndex === 'number' && call) {
    const option = optionsOf(call.input)?.[parsed.selectedIndex];
    return typeof option === 'string' ? { ...base, text: option, source: 'choice' } : null;
  }
  for (const key of ['selectedOption', 'selected', 'option', 'answer']) {
    const v = parsed[key];
    if (typeof v === 'string') return { ...base, text: v, source: 'choice' };
  }
  return null;
}

/** The latest learner-authored message as evidence, or null when it holds nothing usable. */
export function latestLearnerEvidence(messages: readonly ConversationMessage[]): LearnerEvidence | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const msg = messages[i];
    if (msg?.role === 'learner') return { text: msg.content, source: 'chat' };
    if (msg?.role === 'tool_result') {
      const call = findToolCall(messages, msg.toolCallId);
      // A backend tool's result is not the learner's: keep looking.
      if (call && !CLIENT_TOOL_NAMES.has(call.name)) continue;
      return parseWidgetAnswer(msg.content, msg.toolCallId, call);
    }
  }
  return null;
}
