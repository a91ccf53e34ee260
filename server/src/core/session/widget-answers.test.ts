import { describe, expect, it } from 'vitest';
import type { Widget } from '@tutorloop/shared';
import { checkWidgetAnswer } from './widget-answers';

const choice: Widget = { widgetId: 'w1', kind: 'multiple_choice', props: { prompt: 'Which?', options: ['Oxygen', 'Carbon dioxide'] } };
const text: Widget = { widgetId: 'w2', kind: 'free_text', props: { prompt: 'Explain', maxLength: 10 } };
const code: Widget = { widgetId: 'w3', kind: 'code_editor', props: { prompt: 'Write it', language: 'python' } };

describe('checkWidgetAnswer (SPEC §4.2)', () => {
  it('accepts an answer of the asked shape and renders it as the stored tool result', () => {
    expect(checkWidgetAnswer(choice, { selectedIndex: 1 })).toEqual({ ok: true, value: 'Carbon dioxide' });
    expect(checkWidgetAnswer(text, { text: 'Light in' })).toEqual({ ok: true, value: 'Light in' });
    expect(checkWidgetAnswer(code, { code: 'print(1)', language: 'python' })).toEqual({ ok: true, value: 'print(1)' });
  });

  it('refuses an index out of range, text over the widget’s limit or empty, and the wrong language', () => {
    expect(checkWidgetAnswer(choice, { selectedIndex: 2 })).toEqual({ ok: false, error: 'selectedIndex must be between 0 and 1.' });
    expect(checkWidgetAnswer(text, { text: 'far more than ten' })).toEqual({ ok: false, error: 'The answer is longer than 10 characters.' });
    expect(checkWidgetAnswer(text, { text: '   ' })).toEqual({ ok: false, error: 'The answer is empty.' });
    expect(checkWidgetAnswer(code, { code: 'console.log(1)', language: 'javascript' })).toEqual({ ok: false, error: 'This widget asks for python code.' });
  });

  it('refuses an answer shaped for another kind of widget', () => {
    expect(checkWidgetAnswer(choice, { text: 'Oxygen' }).ok).toBe(false);
    expect(checkWidgetAnswer(text, { selectedIndex: 0 }).ok).toBe(false);
    expect(checkWidgetAnswer(code, { text: 'print(1)' }).ok).toBe(false);
  });
});

describe('checkWidgetAnswer: rating (SPEC §4.5, §5)', () => {
  const rating: Widget = { widgetId: 'w4', kind: 'rating', props: { prompt: 'How clear was it?', min: 1, max: 5, labels: { '1': 'Not at all', '5': 'Very' } } };

  it('accepts a value on the scale and renders it with its label, if it has one', () => {
    expect(checkWidgetAnswer(rating, { value: 5 })).toEqual({ ok: true, value: '5 of 5 (Very)' });
    expect(checkWidgetAnswer(rating, { value: 3 })).toEqual({ ok: true, value: '3 of 5' });
  });

  it('refuses a value off the scale and an answer of another shape', () => {
    expect(checkWidgetAnswer(rating, { value: 0 })).toEqual({ ok: false, error: 'value must be a whole number from 1 to 5.' });
    expect(checkWidgetAnswer(rating, { value: 6 })).toEqual({ ok: false, error: 'value must be a whole number from 1 to 5.' });
    expect(checkWidgetAnswer(rating, { selectedIndex: 2 })).toEqual({ ok: false, error: 'This widget expects {"value": n}.' });
  });
});
