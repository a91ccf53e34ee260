import { describe, expect, it } from 'vitest';
import type { ConversationMessage } from '../provider';
import { tangentSignal } from './offline-tangent';

function said(text: string, mode: 'recall' | 'rabbithole' = 'recall') {
  const conversation: ConversationMessage[] = [
    { role: 'tutor', content: 'What do you remember about the light reactions?' },
    { role: 'learner', content: text },
  ];
  return tangentSignal({ trigger: 'learner_message', mode, conversation });
}

describe('tangentSignal', () => {
  it('enters a rabbit hole on explicit tangent phrasing, with the topic from the learner’s words', () => {
    expect(said('By the way, how do cacti photosynthesize at night?')).toEqual({
      mode: 'rabbithole',
      topic: 'how do cacti photosynthesize at night',
    });
    expect(said("Side question: what's chlorophyll b for?")).toEqual({ mode: 'rabbithole', topic: "what's chlorophyll b for" });
    expect(said("I'm curious about C4 plants")).toEqual({ mode: 'rabbithole', topic: 'C4 plants' });
  });

  it('leaves ordinary answers and questions alone', () => {
    expect(said('Light is absorbed by chlorophyll in the thylakoids.')).toBeNull();
    expect(said('Can you give me a hint?')).toBeNull();
  });

  it('exits only from a rabbit hole, on the learner asking to return', () => {
    expect(said("OK, let's get back to the review", 'rabbithole')).toEqual({ mode: 'recall' });
    expect(said('Enough about this.', 'rabbithole')).toEqual({ mode: 'recall' });
    expect(said("OK, let's get back to the review")).toBeNull();
    expect(said('Why is that though?', 'rabbithole')).toBeNull();
  });

  it('reads only chat messages the learner just sent', () => {
    const conversation: ConversationMessage[] = [{ role: 'learner', content: 'By the way, what about ferns?' }];
    expect(tangentSignal({ trigger: 'widget_answer', mode: 'recall', conversation })).toBeNull();
    expect(tangentSignal({ trigger: 'session_start', mode: 'recall', conversation: [] })).toBeNull();
  });
});
