import { describe, expect, it } from 'vitest';
import { readLearnerIntent } from './learner-intent';

describe('readLearnerIntent (issue 28 item 1)', () => {
  it.each([
    'ok',
    'Okay, I follow. Please go on.',
    'got it, next please',
    'makes sense',
    'Got it!',
    'yep, carry on',
    'cool, thanks',
    '👍',
    '...',
    'Alright, I see. Continue.',
    'sure, let’s move on',
    'So',
    'um…',
    'So?',
  ])('%j is a continuation', (message) => {
    expect(readLearnerIntent(message)).toEqual({ kind: 'continue' });
  });

  it.each([
    ['I don’t know', false],
    ['no idea', false],
    ['hmm no idea', false],
    ['idk', false],
    ['I’m lost, sorry', false],
    ['hint please', true],
    ['can I have a hint?', true],
    ['help', true],
    ['I give up', false],
  ])('%j is stuck (wants a hint: %s)', (message, wantsHint) => {
    expect(readLearnerIntent(message)).toEqual({ kind: 'stuck', wantsHint });
  });

  it.each([
    ['Is it 64?', '64'],
    ['maybe 5?', '5'],
    ['I think it’s the tens', 'the tens'],
    ['um, could it be 192.168.1.0/24?', '192.168.1.0/24'],
    ['not sure but maybe photosynthesis', 'photosynthesis'],
    ['64, I think', '64'],
    ['Paris?', 'Paris'],
  ])('%j is a hedged answer %j', (message, answer) => {
    expect(readLearnerIntent(message)).toEqual({ kind: 'answer', answer, hedged: true });
  });

  it.each(['It’s Paris', '5 tens', 'Mitochondria make ATP through respiration', 'no'])('%j is a plain answer', (message) => {
    expect(readLearnerIntent(message)).toMatchObject({ kind: 'answer', hedged: false });
  });

  it.each([
    'Why do we carry the ten?',
    'what does regrouping mean',
    'Thanks — how do I know when to borrow?',
    'Can you explain that again?',
    'Is carrying the same as regrouping?',
    'explain the tens column please',
  ])('%j is a question', (message) => {
    expect(readLearnerIntent(message)).toEqual({ kind: 'question' });
  });

  it.each(['I know that 47 is 4 tens and 7 ones', 'I remember that ten ones make a ten'])('%j is a remark', (message) => {
    expect(readLearnerIntent(message)).toEqual({ kind: 'remark' });
  });

  it('a negated acknowledgement is not a continuation', () => {
    expect(readLearnerIntent('I don’t understand')).toEqual({ kind: 'stuck', wantsHint: false });
    expect(readLearnerIntent('that does not make sense')).not.toEqual({ kind: 'continue' });
  });

  it('never throws, whatever the message (2,000 seeded random messages from fillers, punctuation and words)', () => {
    const pieces = ['so', 'um', 'ok', 'is', 'it', '?', '!', '…', ' ', ',', 'hint', 'no', 'idea', 'I', 'think', '’', "'", '64', '👍', 'what', 'maybe', 'the', 'x', '\n'];
    let seed = 20261127;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (let index = 0; index < 2000; index += 1) {
      const length = Math.floor(next() * 8);
      const message = Array.from({ length }, () => pieces[Math.floor(next() * pieces.length)]).join(next() < 0.5 ? ' ' : '');
      expect(() => readLearnerIntent(message), JSON.stringify(message)).not.toThrow();
    }
  });
});
