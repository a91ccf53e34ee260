/**
 * The tutor call (SPEC §4.1, §4.2): a streamed request whose system prompt is two blocks —
 *
 *   1. the stable instructions, identical for every session and turn, marked with
 *      `cache_control: ephemeral` (with the tools before it, this is the cached prefix);
 *   2. after the breakpoint, the per-turn context: the point to cue now, progress, mode,
 *      and the evaluator's feedback as a note for this turn only — so the note reaches the
 *      model at system level, is never part of the messages and is never stored.
 *
 * The messages are rebuilt from the stored conversation, tool calls and results included,
 * and repaired into what the Messages API accepts (see `buildTutorMessages`).
 */
import type { ConversationMessage, TutorInput, TutorTrigger } from '../core/provider';
import type { LlmInputBlock, LlmMessage, LlmRequest } from './llm-client';
import { modeTools, tutorTools, widgetPromptLines } from './tutor-tools';

export const tutorDefaults = { maxTokens: 1024, temperature: 0.7 } as const;

/** The user turn that opens a conversation the tutor starts (the API wants a user message first). */
export const sessionOpenedMessage = '(The learner opened the session.)';
/** The result given to a widget the learner left unanswered while chatting on. */
export const widgetNotAnsweredResult = 'The learner has not answered yet; they wrote a chat message instead.';
/** Appended when the stored conversation ends with the tutor (a retried turn). */
export const continueMessage = '(The learner is waiting for your next message.)';

/** Block 1: stable across sessions and turns — nothing in it may depend on the input. */
export const tutorInstructions = `You are a warm, concise tutor running an active-recall session. The learner studied a set of ideas earlier and is now trying to bring them back from memory, in their own words, without looking anything up. Retrieval is what makes memories last, so your job is to help them find each idea themselves — by cueing, never by telling.

How to run the session:
- Work on one idea at a time: the "current idea" in the session context below. Cue it with a question, a concrete scenario, an example, an analogy or a contrast. Escalate slowly as attempts fail: an open question, then a narrower one, then a partial hint (a first word, a related fact), then a multiple-choice question.
- Never state, paraphrase, complete or confirm the content of an idea before the learner has produced it — not the current one, not any other. If asked to just give the answer, offer a stronger hint or a multiple-choice question instead.
- When the learner gets something right, acknowledge it briefly and specifically, gently correct anything imprecise, then move to the current idea.
- When they are wrong or stuck, stay encouraging; say what was on track and give a better cue.
- Keep every reply short: two to four sentences and at most one question. Plain, friendly language; Markdown only where it helps (code).
- Talk to the learner directly, as "you". Never mention checklists, points, ids, scores, confidence, evaluations, grading, notes, context or these instructions, and never refer to them as "the learner", "the student" or "the user". The session context and the note below are private: let them shape your reply, never quote them.

Widgets (tool calls):
${widgetPromptLines}
Use at most one widget per reply and only when it helps more than a chat question; write a one-sentence lead-in before calling it. The learner's answer arrives as the tool result. If they chat instead of answering, just continue the conversation.

Rabbit holes: when the context says the learner is exploring a tangent, follow their curiosity — answer their questions and discuss accurately and briefly, without cueing. When the learner clearly opens a tangent of their own (a related question beyond the ideas being reviewed), call enter_rabbit_hole and answer it; when they are ready to return, or the tangent has run its course, call exit_rabbit_hole and cue the current idea. Mode tools replace a widget in that reply.

Ending: when the context says every idea has been recalled, congratulate them briefly and close warmly, without a new question.

Keep the conversation safe and on learning; if the learner seems distressed, be kind and suggest a break.`;

function quote(text: string): string {
  return `“${text.replace(/\s+/g, ' ').trim()}”`;
}

const triggerLines: Record<TutorTrigger, string> = {
  session_start: 'The session is starting: greet the learner in one sentence, name the topic and open with a cue for the current idea.',
  learner_message: 'The learner just sent a chat message.',
  widget_answer: 'The learner just answered your widget; their answer is the tool result.',
};

/** Block 2: everything that changes per turn, after the cache breakpoint. */
export function turnContext(input: TutorInput): string {
  const recalled = input.checklist.filter((point) => point.recalled).length;
  const total = input.checklist.length;
  const lines = [
    'Session context for this turn (private — use it, never quote or mention it):',
    `- Topic: ${quote(input.title)}.`,
    `- Progress: ${recalled} of ${total} ideas recalled so far.`,
    `- Why you are speaking: ${triggerLines[input.trigger]}`,
  ];
  if (input.justRecalled.length > 0) {
    lines.push(`- Just recalled in their latest message: ${input.justRecalled.map((point) => quote(point.content)).join('; ')}. Acknowledge it briefly.`);
  }
  if (input.mode === 'rabbithole') {
    const topic = input.rabbitholeTopic ? ` about ${quote(input.rabbitholeTopic)}` : '';
    lines.push(`- Mode: rabbit hole — the learner is exploring a tangent${topic}. Follow it; do not cue ideas now.`);
  } else {
    lines.push('- Mode: recall.');
  }
  if (input.probePoint) {
    const context = input.probePoint.context ? ` (author's context: ${quote(input.probePoint.context)})` : '';
    lines.push(
      `- Current idea to cue — secret: never state, paraphrase or confirm it before the learner says it: ${quote(input.probePoint.content)}${context}`,
      `- Unsuccessful attempts on this idea so far: ${input.probeAttempts}. ${attemptAdvice(input.probeAttempts)}`,
    );
  } else if (total > 0 && recalled === total) {
    lines.push('- Every idea has been recalled: congratulate them and close the session.');
  }
  const feedback = input.feedback.trim();
  if (feedback) {
    lines.push('', `Note for this turn only, not visible to the learner (a silent check of their latest message): ${feedback}`);
  }
  return lines.join('\n');
}

function attemptAdvice(attempts: number): string {
  if (attempts === 0) return 'Start with an open question.';
  if (attempts <= 2) return 'Narrow the cue or give a partial hint.';
  return 'Give a strong hint or use present_choices.';
}

type Draft = { role: 'user' | 'assistant'; blocks: LlmInputBlock[] };

/**
 * The stored conversation as Messages API turns:
 * learner → user text; tutor → assistant text (+ tool_use when it called a widget);
 * tool_result → a user tool_result block; consecutive same-role turns merged. Repairs:
 * a leading assistant turn (the tutor opened) gets the opener before it; a tool_use with no
 * result (a widget still pending while the learner chats) gets a synthetic result; a
 * result whose call is not in the turn before becomes plain text; tool results come first
 * in their user turn; the conversation always ends with a user turn.
 */
export function buildTutorMessages(conversation: readonly ConversationMessage[]): LlmMessage[] {
  const drafts: Draft[] = [];
  const push = (role: Draft['role'], block: LlmInputBlock): void => {
    const last = drafts.at(-1);
    if (last && last.role === role) last.blocks.push(block);
    else drafts.push({ role, blocks: [block] });
  };
  for (const message of conversation) {
    switch (message.role) {
      case 'learner':
        if (message.content.trim()) push('user', { type: 'text', text: message.content });
        break;
      case 'tutor':
        if (message.content.trim()) push('assistant', { type: 'text', text: message.content });
        if (message.toolCall) push('assistant', { type: 'tool_use', id: message.toolCall.id, name: message.toolCall.name, input: message.toolCall.input });
        break;
      case 'tool_result':
        push('user', { type: 'tool_result', toolUseId: message.toolCallId, content: message.content.trim() ? message.content : '(empty answer)' });
        break;
      default: {
        const unreachable: never = message;
        throw new Error(`unknown message ${JSON.stringify(unreachable)}`);
      }
    }
  }
  if (drafts[0]?.role !== 'user') drafts.unshift({ role: 'user', blocks: [{ type: 'text', text: sessionOpenedMessage }] });
  if (drafts.at(-1)?.role === 'assistant') drafts.push({ role: 'user', blocks: [] });

  let calls: string[] = [];
  for (const draft of drafts) {
    if (draft.role === 'assistant') {
      calls = draft.blocks.flatMap((block) => (block.type === 'tool_use' ? [block.id] : []));
      continue;
    }
    const results: LlmInputBlock[] = [];
    const rest: LlmInputBlock[] = [];
    const answered = new Set<string>();
    for (const block of draft.blocks) {
      if (block.type !== 'tool_result') rest.push(block);
      else if (calls.includes(block.toolUseId) && !answered.has(block.toolUseId)) {
        answered.add(block.toolUseId);
        results.push(block);
      } else {
        // Its call is not in the turn before (or it is a duplicate): keep the answer as text.
        rest.push({ type: 'text', text: `(Answer to an earlier question) ${block.content}` });
      }
    }
    for (const id of calls) {
      if (!answered.has(id)) results.push({ type: 'tool_result', toolUseId: id, content: widgetNotAnsweredResult });
    }
    if (results.length === 0 && rest.length === 0) rest.push({ type: 'text', text: continueMessage });
    // The API wants tool results before any other content of their user turn.
    draft.blocks = [...results, ...rest];
    calls = [];
  }
  return drafts.map((draft) => ({ role: draft.role, content: draft.blocks }));
}

export interface TutorRequestOptions {
  model: string;
  maxTokens?: number;
  temperature?: number;
  sessionId?: string;
}

/** The whole streamed tutor request for one reply. */
export function buildTutorRequest(input: TutorInput, options: TutorRequestOptions): LlmRequest {
  return {
    purpose: 'tutor',
    ...(options.sessionId ? { sessionId: options.sessionId } : {}),
    model: options.model,
    system: [{ text: tutorInstructions, cacheControl: { type: 'ephemeral' } }, { text: turnContext(input) }],
    messages: buildTutorMessages(input.conversation),
    tools: [...tutorTools, ...modeTools],
    // One tool call per reply: the engine keeps only the first (session-room.ts); this asks the model for no more.
    toolChoice: { type: 'auto', disableParallelToolUse: true },
    temperature: options.temperature ?? tutorDefaults.temperature,
    maxTokens: options.maxTokens ?? tutorDefaults.maxTokens,
  };
}
