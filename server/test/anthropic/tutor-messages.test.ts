/**
 * SPEC §4.2 — the stored conversation rebuilt as Messages API turns the API accepts
 * (`buildTutorMessages`), edge cases the provider tests do not reach. Pure: no network.
 */
import { describe, expect, it } from 'vitest';
import type { ConversationMessage } from '../../src/core/provider';
import { buildTutorMessages, continueMessage, sessionOpenedMessage, widgetNotAnsweredResult } from '../../src/llm/tutor-request';

const call = (id: string) => ({ id, name: 'present_choices', input: { prompt: 'Which?', options: ['a', 'b'] } });

describe('buildTutorMessages', () => {
  it('starts an empty conversation with the opener', () => {
    expect(buildTutorMessages([])).toEqual([{ role: 'user', content: [{ type: 'text', text: sessionOpenedMessage }] }]);
  });

  it('merges consecutive learner messages into one user turn', () => {
    const conversation: ConversationMessage[] = [
      { role: 'learner', content: 'first' },
      { role: 'learner', content: 'second' },
    ];
    expect(buildTutorMessages(conversation)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'first' }, { type: 'text', text: 'second' }] },
    ]);
  });

  it('puts tool results before text in their user turn, however they were stored', () => {
    const conversation: ConversationMessage[] = [
      { role: 'learner', content: 'hi' },
      { role: 'tutor', content: 'Pick:', toolCall: call('toolu_1') },
      { role: 'learner', content: 'wait' },
      { role: 'tool_result', toolCallId: 'toolu_1', content: 'a' },
    ];
    expect(buildTutorMessages(conversation).at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', toolUseId: 'toolu_1', content: 'a' },
        { type: 'text', text: 'wait' },
      ],
    });
  });

  it('answers a widget left pending at the end of the conversation, so the request stays valid', () => {
    const conversation: ConversationMessage[] = [
      { role: 'learner', content: 'hi' },
      { role: 'tutor', content: '', toolCall: call('toolu_1') },
    ];
    expect(buildTutorMessages(conversation)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'present_choices', input: { prompt: 'Which?', options: ['a', 'b'] } }] },
      { role: 'user', content: [{ type: 'tool_result', toolUseId: 'toolu_1', content: widgetNotAnsweredResult }] },
    ]);
  });

  it('ends with a user turn when the tutor spoke last, and skips empty tutor messages', () => {
    const conversation: ConversationMessage[] = [
      { role: 'learner', content: 'hi' },
      { role: 'tutor', content: '   ' },
      { role: 'tutor', content: 'Hello!' },
    ];
    expect(buildTutorMessages(conversation)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Hello!' }] },
      { role: 'user', content: [{ type: 'text', text: continueMessage }] },
    ]);
  });

  it('keeps a result whose call is not in the turn before as text (the API would reject it)', () => {
    const conversation: ConversationMessage[] = [
      { role: 'learner', content: 'hi' },
      { role: 'tutor', content: 'Hello!' },
      { role: 'tool_result', toolCallId: 'toolu_gone', content: 'b' },
    ];
    expect(buildTutorMessages(conversation).at(-1)).toEqual({ role: 'user', content: [{ type: 'text', text: '(Answer to an earlier question) b' }] });
  });
});
