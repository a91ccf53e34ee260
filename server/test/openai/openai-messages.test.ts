/**
 * SPEC §4.2, §7 — the stored conversation, rebuilt by `buildTutorMessages`, as Chat
 * Completions messages any compatible server accepts (`toChatParams`), and which tool schemas
 * may be sent strict: the edge cases the provider tests do not reach. Pure: no network.
 * The counterpart of anthropic/tutor-messages.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { ConversationMessage } from '../../src/core/provider';
import { evaluationTool } from '../../src/llm/evaluator-request';
import type { LlmRequest } from '../../src/llm/llm-client';
import { safetyTool } from '../../src/llm/safety-request';
import { buildTutorMessages, continueMessage, sessionOpenedMessage, widgetNotAnsweredResult } from '../../src/llm/tutor-request';
import { modeTools, tutorTools } from '../../src/llm/tutor-tools';
import { isStrictSchema, toChatParams } from '../../src/llm/transports/openai';

const call = (id: string) => ({ id, name: 'present_choices', input: { prompt: 'Which?', options: ['a', 'b'] } });
const callArguments = JSON.stringify({ prompt: 'Which?', options: ['a', 'b'] });

function chat(conversation: ConversationMessage[]) {
  const request: LlmRequest = { purpose: 'tutor', model: 'm', system: [{ text: 'Rules.', cacheControl: { type: 'ephemeral' } }, { text: 'Context.' }], messages: buildTutorMessages(conversation), maxTokens: 10 };
  const { messages } = toChatParams(request);
  expect(messages[0]).toEqual({ role: 'system', content: 'Rules.\n\nContext.' });
  return messages.slice(1);
}

describe('the conversation as Chat Completions messages', () => {
  it('starts an empty conversation with the opener', () => {
    expect(chat([])).toEqual([{ role: 'user', content: sessionOpenedMessage }]);
  });

  it('merges consecutive learner messages into one user message', () => {
    expect(
      chat([
        { role: 'learner', content: 'first' },
        { role: 'learner', content: 'second' },
      ]),
    ).toEqual([{ role: 'user', content: 'first\n\nsecond' }]);
  });

  it('puts the tool message right after its call, before the learner text of the same turn', () => {
    expect(
      chat([
        { role: 'learner', content: 'hi' },
        { role: 'tutor', content: 'Pick:', toolCall: call('call_1') },
        { role: 'learner', content: 'wait' },
        { role: 'tool_result', toolCallId: 'call_1', content: 'a' },
      ]).slice(1),
    ).toEqual([
      { role: 'assistant', content: 'Pick:', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'present_choices', arguments: callArguments } }] },
      { role: 'tool', tool_call_id: 'call_1', content: 'a' },
      { role: 'user', content: 'wait' },
    ]);
  });

  it('answers a widget left pending at the end, with a null content for a call without text', () => {
    expect(
      chat([
        { role: 'learner', content: 'hi' },
        { role: 'tutor', content: '', toolCall: call('call_1') },
      ]),
    ).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'present_choices', arguments: callArguments } }] },
      { role: 'tool', tool_call_id: 'call_1', content: widgetNotAnsweredResult },
    ]);
  });

  it('ends with a user message when the tutor spoke last', () => {
    expect(
      chat([
        { role: 'learner', content: 'hi' },
        { role: 'tutor', content: 'Hello!' },
      ]),
    ).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'Hello!' },
      { role: 'user', content: continueMessage },
    ]);
  });

  it('keeps a result whose call is not in the turn before as text (a tool message there would be rejected)', () => {
    expect(
      chat([
        { role: 'learner', content: 'hi' },
        { role: 'tutor', content: 'Hello!' },
        { role: 'tool_result', toolCallId: 'call_gone', content: 'b' },
      ]).at(-1),
    ).toEqual({ role: 'user', content: '(Answer to an earlier question) b' });
  });

  it('marks an error result and sends no tool fields without tools', () => {
    const params = toChatParams({
      purpose: 'other',
      model: 'm',
      system: [],
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'call_x', name: 'run', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', toolUseId: 'call_x', content: 'boom', isError: true }] },
      ],
      toolChoice: { type: 'auto', disableParallelToolUse: true },
      maxTokens: 5,
    });
    expect(params.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_x', content: 'Error: boom' });
    expect(params).not.toHaveProperty('tools');
    expect(params).not.toHaveProperty('tool_choice');
    expect(params).not.toHaveProperty('parallel_tool_calls');
    expect(params.messages[0]).toEqual({ role: 'user', content: 'go' });
  });
});

describe('strict schemas', () => {
  it('are the ones with every property required and no extra properties', () => {
    expect(isStrictSchema(evaluationTool(['p1', 'p2']).inputSchema)).toBe(true);
    expect(isStrictSchema(safetyTool.inputSchema)).toBe(true);
    expect(modeTools.map((tool) => isStrictSchema(tool.inputSchema))).toEqual([true, true]);
    // Widgets have optional fields (context, placeholder…): strict mode would force them.
    expect(tutorTools.map((tool) => isStrictSchema(tool.inputSchema))).toEqual([false, false, false]);
    expect(isStrictSchema({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] })).toBe(false);
    expect(isStrictSchema({ type: 'object', properties: { a: { type: 'string', default: 'x' } }, required: ['a'], additionalProperties: false })).toBe(false);
  });

  it('fall back to a plain forced tool when a structured request names no offered tool', () => {
    const params = toChatParams({
      purpose: 'other',
      model: 'm',
      system: [],
      messages: [{ role: 'user', content: 'go' }],
      tools: [safetyTool],
      toolChoice: { type: 'tool', name: 'missing' },
      structuredOutput: true,
      maxTokens: 5,
    });
    expect(params).not.toHaveProperty('response_format');
    expect(params.tool_choice).toEqual({ type: 'function', function: { name: 'missing' } });
  });
});
