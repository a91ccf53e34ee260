/** Validation of the master tutor's output (SPEC §4.4: clamp, ignore unknown, malformed → retry). */
import { describe, expect, it } from 'vitest';
import { judgeAnswer, maskedAnswer, mentionsAnswer } from './answer-match';
import { normalizeTutorTurn } from './tutor-turn';

const context = { concepts: ['subnet mask', 'network address'], stepConcept: 'subnet mask', totalSteps: 5 };

describe('normalizeTutorTurn', () => {
  it('is malformed without response text, or when it is not an object', () => {
    expect(normalizeTutorTurn({ intent: 'answer' }, context)).toEqual({ ok: false, error: 'the output has no `response` text' });
    expect(normalizeTutorTurn('I think the learner is right', context).ok).toBe(false);
    expect(normalizeTutorTurn([1, 2], context).ok).toBe(false);
  });

  it('reads fenced JSON text as well as a tool input', () => {
    const read = normalizeTutorTurn('```json\n{"response":"Hi","intent":"greeting"}\n```', context);
    expect(read.ok && read.turn.response).toBe('Hi');
  });

  it('clamps scores, ignores unknown concepts and out-of-range steps', () => {
    const read = normalizeTutorTurn(
      { response: 'Right.', mastery_updates: [{ concept: 'Subnet Mask', score: 1.7 }, { concept: 'astrology', score: 0.5 }, { concept: 'network address', score: 80 }], advance_to_step: 9, intent: 'nonsense' },
      context,
    );
    if (!read.ok) throw new Error(read.error);
    expect(read.turn.masteryUpdates).toEqual([{ concept: 'subnet mask', score: 1 }, { concept: 'network address', score: 0.8 }]);
    expect(read.turn.advanceToStep).toBeNull();
    expect(read.turn.intent).toBe('other');
    expect(read.notes.length).toBe(4);
  });

  it('keeps total + 1 as a step (the engine decides whether it completes the plan)', () => {
    const read = normalizeTutorTurn({ response: 'Done!', advance_to_step: 6 }, context);
    expect(read.ok && read.turn.advanceToStep).toBe(6);
  });

  it('tracks a question only with its expected answer, about a known concept or the step’s', () => {
    const read = normalizeTutorTurn({ response: 'What is /24?', question_asked: 'What is /24 as a mask?', expected_answer: '255.255.255.0', question_concept: 'cooking' }, context);
    expect(read.ok && read.turn.question).toEqual({ text: 'What is /24 as a mask?', expectedAnswer: '255.255.255.0', concept: 'subnet mask' });
  });
});

describe('judging answers lexically (SPEC §4.4 offline)', () => {
  it('accepts the expected answer or a variant inside a sentence', () => {
    expect(judgeAnswer('I think it is 192.168.1.0', '192.168.1.0')).toBe(true);
    expect(judgeAnswer('five tens', '5', ['five tens'])).toBe(true);
    expect(judgeAnswer('the answer is five', '5')).toBe(true);
    expect(judgeAnswer('Forty-two', '42', ['forty-two'])).toBe(true);
  });

  it('refuses a different or negated answer', () => {
    expect(judgeAnswer('192.168.1.1', '192.168.1.0')).toBe(false);
    expect(judgeAnswer('not 1/2', '1/2')).toBe(false);
    expect(judgeAnswer('it isn’t 24', '24')).toBe(false);
    expect(judgeAnswer('15', '5')).toBe(false);
  });

  it('judges a long answer by the share of its content words', () => {
    expect(judgeAnswer('slicing stops before the end index', 'The end index is excluded: slicing stops before it')).toBe(true);
    expect(judgeAnswer('it includes the end', 'The end index is excluded: slicing stops before it')).toBe(false);
  });

  it('spots an answer in a reply, and masks it for hints', () => {
    expect(mentionsAnswer('So the network is 10.0.0.0, see?', '10.0.0.0')).toBe(true);
    expect(mentionsAnswer('Look at the first octet.', '10.0.0.0')).toBe(false);
    expect(maskedAnswer('255.255.255.0')).toBe('2__.2__.2__.0');
    expect(mentionsAnswer('There are 5 tens.', '5')).toBe(true);
    expect(mentionsAnswer('There are 58 apples.', '5')).toBe(false);
    expect(mentionsAnswer('Pick a card.', 'a')).toBe(false);
    expect(maskedAnswer('5')).toBe('1 character long');
  });
});
