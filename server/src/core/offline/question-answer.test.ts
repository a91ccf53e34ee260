import { describe, expect, it } from 'vitest';
import { asRecallCard, parseQuestionAnswer } from './question-answer';

describe('parseQuestionAnswer (issue 28 item 3)', () => {
  it.each([
    ['Capital of France → Paris', { question: 'Capital of France', answer: 'Paris' }],
    ['Chemical formula of water -> H2O', { question: 'Chemical formula of water', answer: 'H2O' }],
    ['Q: What is the powerhouse of the cell? A: the mitochondria', { question: 'What is the powerhouse of the cell?', answer: 'the mitochondria' }],
    ['Question: Largest planet\nAnswer: Jupiter', { question: 'Largest planet', answer: 'Jupiter' }],
    ['What is the chemical formula of water? H2O', { question: 'What is the chemical formula of water?', answer: 'H2O' }],
  ])('%j is a question and its answer', (content, expected) => {
    expect(parseQuestionAnswer(content)).toEqual(expected);
  });

  it.each([
    'Mitochondria produce ATP through cellular respiration.',
    'Why do leaves change colour? Because chlorophyll breaks down in autumn and the other pigments that were there all along show through.',
    'Glucose → pyruvate → acetyl-CoA',
    'Is correlation causation?',
  ])('%j is an ordinary statement', (content) => {
    expect(parseQuestionAnswer(content)).toBeNull();
  });

  it('leaves a point with its own context (an imported Anki card) as it is', () => {
    const card = { id: 'p', content: 'Paris', context: 'Capital of France' };
    expect(asRecallCard(card)).toBe(card);
    expect(asRecallCard({ id: 'q', content: 'Capital of Italy → Rome', context: null })).toEqual({ id: 'q', content: 'Rome', context: 'Capital of Italy' });
  });
});
