/** The widget guard (issue 15): no widget gives away a point still to recall; repaired, else refused. */
import { describe, expect, it } from 'vitest';
import type { ChecklistPoint, WidgetRequest } from '../provider';
import { guardWidget, type WidgetGuardInput } from './widget-guard';

const point = (id: string, content: string): ChecklistPoint => ({ id, content, context: null });
const atp = point('p-atp', 'Mitochondria produce ATP');
const ribosome = point('p-ribo', 'Ribosomes synthesize proteins');
const nucleus = point('p-nuc', 'The nucleus stores the genome');
const lysosome = point('p-lyso', 'Lysosomes digest worn-out organelles');

function input(widget: WidgetGuardInput['widget'], recalled: ChecklistPoint[] = [], cueLevel = 0): WidgetGuardInput {
  const all = [atp, ribosome, nucleus, lysosome];
  return { widget, unchecked: all.filter((p) => !recalled.includes(p)), recalled, cued: atp, cueLevel };
}

describe('guardWidget', () => {
  it('keeps a question that withholds its answer, with the cued point among the options', () => {
    const widget = { kind: 'multiple_choice', props: { prompt: 'Which organelle produces ATP?', options: ['Nucleus', 'Mitochondria', 'Golgi body'] } } satisfies WidgetRequest;
    expect(guardWidget(input(widget))).toEqual({ outcome: 'kept', widget });
  });

  it('replaces options that are other unchecked points by recalled points', () => {
    const widget = {
      kind: 'multiple_choice',
      props: { prompt: 'Which one is true?', options: ['Mitochondria produce ATP', 'Ribosomes synthesize proteins', 'The nucleus stores the genome'] },
    } satisfies WidgetRequest;
    expect(guardWidget(input(widget, [lysosome], 2))).toEqual({
      outcome: 'repaired',
      widget: { kind: 'multiple_choice', props: { prompt: 'Which one is true?', options: ['Mitochondria produce ATP', 'Lysosomes digest worn-out organelles'] } },
      reasons: ['option 2 gave away an unchecked point; replaced by a recalled point', 'option 3 gave away an unchecked point; removed'],
    });
  });

  it('asks as free text when too few safe options are left', () => {
    const widget = {
      kind: 'multiple_choice',
      props: { prompt: 'Which one is true?', options: ['Mitochondria produce ATP', 'Ribosomes synthesize proteins'], context: 'Cells' },
    } satisfies WidgetRequest;
    expect(guardWidget(input(widget, [], 2))).toEqual({
      outcome: 'repaired',
      widget: { kind: 'free_text', props: { prompt: 'Which one is true?', context: 'Cells', placeholder: 'Type what you remember…', maxLength: 1000 } },
      reasons: ['option 2 gave away an unchecked point; removed', 'too few safe options: asked as free text instead'],
    });
  });

  it('masks another point given away by the prompt or context, and the cued point stated whole', () => {
    const widget = {
      kind: 'free_text',
      props: { prompt: 'Mitochondria produce ATP — what else happens there?', context: 'Recall that ribosomes synthesize proteins.', maxLength: 500 },
    } satisfies WidgetRequest;
    expect(guardWidget(input(widget))).toEqual({
      outcome: 'repaired',
      widget: { kind: 'free_text', props: { prompt: 'Mitochondria p______ A__ — what else happens there?', context: 'Recall that r________ s_________ p_______.', maxLength: 500 } },
      reasons: ['the prompt gave away point p-ribo', 'the prompt stated the cued point p-atp whole'],
    });
  });

  it('drops starter code that is the answer, and leaves widgets about recalled points alone', () => {
    const code = { kind: 'code_editor', props: { prompt: 'Write it as a comment', language: 'python', starterCode: '# the nucleus stores the genome\n' } } satisfies WidgetRequest;
    expect(guardWidget(input(code))).toEqual({
      outcome: 'repaired',
      widget: { kind: 'code_editor', props: { prompt: 'Write it as a comment', language: 'python' } },
      reasons: ['the starter code gave a point away; dropped'],
    });
    expect(guardWidget(input(code, [nucleus]))).toEqual({ outcome: 'kept', widget: code });
  });

  it('never keeps a one-term cued point in the prompt', () => {
    const photosynthesis = point('p-photo', 'Photosynthesis');
    const widget = { kind: 'free_text', props: { prompt: 'Tell me about photosynthesis', maxLength: 200 } } satisfies WidgetRequest;
    expect(guardWidget({ widget, unchecked: [photosynthesis], recalled: [], cued: photosynthesis, cueLevel: 1 })).toEqual({
      outcome: 'repaired',
      widget: { kind: 'free_text', props: { prompt: 'Tell me about p_____________', maxLength: 200 } },
      reasons: ['the prompt stated the cued point p-photo whole'],
    });
  });
});

describe('guardWidget — like points', () => {
  it('keeps the cued point’s own option even when it reads like another point still to recall', () => {
    const like = ['p3', 'p4', 'p5'].map((id) => point(id, `Fact number ${id} about cells`));
    const widget = { kind: 'multiple_choice', props: { prompt: 'Pick one', options: ['Fact number p3 about cells', 'Fact number p4 about cells', 'Something else'] } } satisfies WidgetRequest;
    expect(guardWidget({ widget, unchecked: like, recalled: [], cued: like[0]!, cueLevel: 2 })).toEqual({
      outcome: 'repaired',
      widget: { kind: 'multiple_choice', props: { prompt: 'Pick one', options: ['Fact number p3 about cells', 'Something else'] } },
      reasons: ['option 2 gave away an unchecked point; removed'],
    });
  });
});
