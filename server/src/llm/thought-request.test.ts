/** The thought partner's request (SPEC §4.5): a retry asks for the replaced reply in other words. */
import { describe, expect, it } from 'vitest';
import { buildThoughtReplyRequest } from './thought-request';

const base = {
  sessionId: 's1',
  topic: 'sleep',
  summary: '',
  recentMessages: [
    { role: 'partner' as const, content: 'What do you already believe about sleep?' },
    { role: 'learner' as const, content: 'I think sleep is when memories settle' },
  ],
};

describe('buildThoughtReplyRequest', () => {
  it('sends the window as alternating messages, the learner last, with no retry note', () => {
    const request = buildThoughtReplyRequest(base, 'model-a');
    expect(request.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(request.messages.at(-1)?.content).toBe('I think sleep is when memories settle');
    expect(JSON.stringify(request.messages)).not.toContain('asked for your reply again');
  });

  it('on a retry, quotes the replaced reply after the learner’s words and asks for another way', () => {
    const request = buildThoughtReplyRequest({ ...base, replacing: 'You said “memories settle”. Why at night?' }, 'model-a');
    expect(request.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    const last = request.messages.at(-1)?.content as string;
    expect(last.startsWith('I think sleep is when memories settle')).toBe(true);
    expect(last).toContain('You said before: "You said “memories settle”. Why at night?" Say it another way.');
  });

  it('on a retried opening, the note follows the opening instruction', () => {
    const request = buildThoughtReplyRequest({ ...base, recentMessages: [], replacing: 'What do you already believe about sleep?' }, 'model-a');
    expect(request.messages).toHaveLength(1);
    expect(request.messages[0]?.content).toMatch(/^\(Open the session: .*sleep.*\)\n\n\(I asked for your reply again\./s);
  });
});
