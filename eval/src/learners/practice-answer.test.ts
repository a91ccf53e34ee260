import { describe, expect, it } from 'vitest';
import type { Widget } from '@tutorloop/shared';
import { answerPractice, optionFor, solveArithmetic } from './practice-answer';

function choice(prompt: string, options: string[]): Widget {
  return { widgetId: 'w1', kind: 'multiple_choice', props: { prompt, options, context: 'Practice' } };
}

describe('solveArithmetic', () => {
  it('computes the stems of the arithmetic generators', () => {
    expect(solveArithmetic('What is 38 + 45?')).toBe(83);
    expect(solveArithmetic('Calculate: 52 − 27 = ?')).toBe(25);
    expect(solveArithmetic('What is 12 × 7?')).toBe(84);
    expect(solveArithmetic('What is 84 ÷ 7?')).toBe(12);
    expect(solveArithmetic('Find the sum of 19 and 23.')).toBe(42);
    expect(solveArithmetic('Find the product of 6 and 9.')).toBe(54);
    expect(solveArithmetic('Subtract 27 from 60.')).toBe(33);
    expect(solveArithmetic('Divide 56 by 8.')).toBe(7);
  });

  it('is null for anything else', () => {
    expect(solveArithmetic('What is the network address of 10.0.0.77/26?')).toBeNull();
    expect(solveArithmetic('In Python 3, what is the value of len("café")?')).toBeNull();
  });
});

describe('answerPractice', () => {
  it('picks the option holding the computed result', () => {
    expect(answerPractice(choice('What is 38 + 45?', ['73', '713', '83', '84']))).toEqual({ response: { selectedIndex: 2 }, label: '83' });
    expect(optionFor(['1,000', '1,100'], 1100)).toBe(1);
  });

  it('takes the first option when the item is not simple arithmetic, or no option holds the result', () => {
    expect(answerPractice(choice('What is the network address of 10.0.0.77/26?', ['10.0.0.0', '10.0.0.64']))).toEqual({ response: { selectedIndex: 0 }, label: '10.0.0.0' });
    expect(answerPractice(choice('What is 2 + 2?', ['3', '5']))).toEqual({ response: { selectedIndex: 0 }, label: '3' });
  });

  it('sends a code item its starter code, in its language', () => {
    const widget: Widget = { widgetId: 'w2', kind: 'code_editor', props: { prompt: 'Write count_vowels(s).', language: 'python', starterCode: 'def count_vowels(s):\n    pass\n' } };
    expect(answerPractice(widget)).toEqual({ response: { code: 'def count_vowels(s):\n    pass\n', language: 'python' }, label: 'def count_vowels(s):\n    pass\n' });
  });
});
