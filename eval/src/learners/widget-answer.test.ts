import { describe, expect, it } from 'vitest';
import type { Widget } from '@tutorloop/shared';
import { answerWidget } from './widget-answer';

const choice: Widget = {
  widgetId: 'w1',
  kind: 'multiple_choice',
  props: { prompt: 'Which of these completes “Paris is the c______ of F_____”?', options: ['The Pacific is the largest ocean', 'Paris is the capital of France'] },
};
const freeText: Widget = { widgetId: 'w2', kind: 'free_text', props: { prompt: 'In your own words?', maxLength: 20 } };
const code: Widget = { widgetId: 'w3', kind: 'code_editor', props: { prompt: 'Count the characters', language: 'python' } };

describe('answerWidget', () => {
  it('picks the first, an index, or the option containing a text (case-insensitive)', () => {
    expect(answerWidget(choice, [{ answer: 'first' }])).toEqual({ ok: true, type: 'answer', response: { selectedIndex: 0 }, label: 'The Pacific is the largest ocean' });
    expect(answerWidget(choice, [{ answer: 'index', index: 1 }])).toEqual({ ok: true, type: 'answer', response: { selectedIndex: 1 }, label: 'Paris is the capital of France' });
    expect(answerWidget(choice, [{ answer: 'match', text: 'CAPITAL' }])).toEqual({ ok: true, type: 'answer', response: { selectedIndex: 1 }, label: 'Paris is the capital of France' });
  });

  it('falls through to the next rule when one does not apply', () => {
    const rules = [
      { answer: 'match', text: 'boils', whenPromptIncludes: 'Water' },
      { answer: 'text', text: 'no idea' },
      { answer: 'match', text: 'nowhere' },
      { answer: 'skip', say: 'What do you mean?' },
    ] as const;
    expect(answerWidget(choice, [...rules])).toEqual({ ok: true, type: 'chat', message: 'What do you mean?' });
    expect(answerWidget(freeText, [...rules])).toEqual({ ok: true, type: 'answer', response: { text: 'no idea' }, label: 'no idea' });
  });

  it('answers code editors in the widget language, and says why nothing applies', () => {
    expect(answerWidget(code, [{ answer: 'code', code: 'def f(s): return len(s)' }])).toEqual({
      ok: true,
      type: 'answer',
      response: { code: 'def f(s): return len(s)', language: 'python' },
      label: 'def f(s): return len(s)',
    });
    expect(answerWidget(code, [{ answer: 'code', code: 'x', language: 'javascript' }, { answer: 'first' }])).toEqual({
      ok: false,
      reason:
        'no rule answers the code_editor "Count the characters"; rule 1 (code): the widget asks for python, the rule gives javascript; rule 2 (first): does not answer code_editor',
    });
    expect(answerWidget(freeText, [{ answer: 'text', text: 'far too long for this box' }])).toMatchObject({ ok: false });
    expect(answerWidget(choice, [{ answer: 'index', index: 5 }])).toEqual({
      ok: false,
      reason: `no rule answers the multiple_choice "${choice.props.prompt}" (options: "The Pacific is the largest ocean" | "Paris is the capital of France"); rule 1 (index 5): there are only 2 options`,
    });
  });
});

describe('promptMasks', () => {
  it('recognises a point from its cloze, not from another point', async () => {
    const { promptMasks } = await import('./widget-answer');
    expect(promptMasks('Which of these completes “P____ is the capital of F_____”?', 'Paris is the capital of France')).toBe(true);
    expect(promptMasks('Which of these completes “P____ is the capital of F_____”?', 'The Pacific is the largest ocean')).toBe(false);
    expect(promptMasks('Paris is the capital of France — true?', 'Paris is the capital of France')).toBe(true);
    expect(promptMasks('“B____ is the capital of F_____”', 'Paris is the capital of France')).toBe(false);
    // A blank of underscores alone hides the word's length: it stands for any one word.
    expect(promptMasks('Which of these completes “Paris _____ the capital of France”?', 'Paris is the capital of France')).toBe(true);
    expect(promptMasks('Which of these completes “Paris _____ the capital of Spain”?', 'Paris is the capital of France')).toBe(false);
  });
});

describe('match', () => {
  it('takes the option that is the text before one that merely contains it', async () => {
    const { answerWidget } = await import('./widget-answer');
    const widget = { widgetId: 'w1', kind: 'multiple_choice' as const, props: { prompt: 'Which?', options: ['Paris is not the capital of France', 'Paris is the capital of France'] } };
    const outcome = answerWidget(widget, [{ answer: 'match', text: 'paris is the capital of France' }]);
    expect(outcome).toMatchObject({ ok: true, response: { selectedIndex: 1 } });
  });
});
