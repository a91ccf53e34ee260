import { describe, expect, it } from 'vitest';
import type { ConversationMessage } from '../provider';
import { latestLearnerEvidence } from './learner-evidence';

describe('latestLearnerEvidence', () => {
  it('takes only the latest learner message, never a tutor message', () => {
    const messages: ConversationMessage[] = [
      { role: 'learner', content: 'first answer' },
      { role: 'tutor', content: 'a cue' },
      { role: 'learner', content: 'second answer' },
      { role: 'tutor', content: 'the tutor had the last word' },
    ];
    expect(latestLearnerEvidence(messages)).toEqual({ text: 'second answer', source: 'chat' });
    expect(latestLearnerEvidence([{ role: 'tutor', content: 'hello' }])).toBeNull();
  });

  it('resolves a multiple-choice pick to the option text', () => {
    const messages: ConversationMessage[] = [
      {
        role: 'tutor',
        content: 'Which of these?',
        toolCall: { id: 'offline-pt_1-2', name: 'present_choices', input: { prompt: 'Which?', options: ['Alpha', 'Beta'] } },
      },
      { role: 'tool_result', toolCallId: 'offline-pt_1-2', content: '{"selectedIndex":1}' },
    ];
    expect(latestLearnerEvidence(messages)).toEqual({ text: 'Beta', source: 'choice', toolCallId: 'offline-pt_1-2' });
  });

  it('reads free-text answers and plain tool results, and skips backend tool results', () => {
    expect(latestLearnerEvidence([{ role: 'tool_result', toolCallId: 't1', content: '{"text":"my words"}' }])).toMatchObject({
      text: 'my words',
      source: 'free_text',
    });
    expect(latestLearnerEvidence([{ role: 'tool_result', toolCallId: 't1', content: 'plain words' }])).toMatchObject({
      text: 'plain words',
    });
    const messages: ConversationMessage[] = [
      { role: 'learner', content: 'what I said' },
      { role: 'tutor', content: '', toolCall: { id: 'b1', name: 'get_next_item', input: {} } },
      { role: 'tool_result', toolCallId: 'b1', content: '{"text":"item text"}' },
    ];
    expect(latestLearnerEvidence(messages)?.text).toBe('what I said');
  });
});
