import { describe, expect, it } from 'vitest';
import { answerForKind, kindOfAnswer, Widget, widgetKindForTool, widgetKinds, widgetToolNames } from './widgets';
import { parseClientMessage } from './ws';

describe('the table of widget kinds (SPEC §4.2, §5)', () => {
  it('lists the kinds and their client tools in the order tools and prompts use', () => {
    expect(widgetKinds).toEqual(['multiple_choice', 'free_text', 'code_editor', 'rating']);
    expect(widgetToolNames).toEqual({ multiple_choice: 'present_choices', free_text: 'request_free_text', code_editor: 'present_code_editor', rating: 'present_rating' });
    expect(widgetKindForTool('present_rating')).toBe('rating');
    expect(widgetKindForTool('enter_rabbithole')).toBeNull();
  });

  it('keeps widget_response as {widgetId, response} with no kind in the response', () => {
    const frame = (response: unknown) => parseClientMessage(JSON.stringify({ type: 'widget_response', payload: { widgetId: 'w1', response } }));
    for (const response of [{ selectedIndex: 1 }, { text: 'Light in' }, { code: 'print(1)', language: 'python' }, { value: 4 }]) {
      expect(frame(response)).toEqual({ ok: true, value: { type: 'widget_response', payload: { widgetId: 'w1', response } } });
    }
    expect(frame({ kind: 'multiple_choice', selectedIndex: 1 }).ok).toBe(false);
    expect(frame({ selectedIndex: 1, text: 'both' }).ok).toBe(false);
  });

  it('parses a widget by its kind, and refuses props of another kind', () => {
    const rating = { widgetId: 'w2', kind: 'rating', props: { prompt: 'How clear?', min: 1, max: 5 } };
    expect(Widget.parse(rating)).toEqual(rating);
    expect(Widget.safeParse({ ...rating, kind: 'multiple_choice' }).success).toBe(false);
  });

  it('pairs an answer with the kind of the widget it answers, or refuses one of another kind', () => {
    expect(answerForKind('multiple_choice', { selectedIndex: 2 })).toEqual({ kind: 'multiple_choice', answer: { selectedIndex: 2 } });
    expect(answerForKind('multiple_choice', { text: 'Oxygen' })).toBeNull();
    expect(answerForKind('code_editor', { code: 'x = 1', language: 'python' })).toEqual({ kind: 'code_editor', answer: { code: 'x = 1', language: 'python' } });
    expect(kindOfAnswer({ value: 3 })).toEqual({ kind: 'rating', answer: { value: 3 } });
    expect(kindOfAnswer({ text: 'Light in' })).toEqual({ kind: 'free_text', answer: { text: 'Light in' } });
    expect(kindOfAnswer({ colour: 'red' })).toBeNull();
  });
});
