import { describe, expect, it } from 'vitest';
import { findLeaks, findPlainChoices, LeakGuard, stripLeaks } from './sanitize';

describe('sanitize', () => {
  it('finds evaluator language, confidences and point ids', () => {
    const id = '3f2a9c1e-0b7d-4e5f-8a6b-1c2d3e4f5a6b';
    expect(findLeaks(`The evaluator says the student's answer had confidence 0.8 for ${id}.`, [id])).toEqual([
      'evaluator',
      'the student',
      'confidence score',
      'point id',
      `point id ${id}`,
    ]);
  });

  it('leaves ordinary tutoring alone', () => {
    expect(findLeaks('Nice work! What do you remember about photosynthesis?')).toEqual([]);
  });

  it('strips only the leaking sentences', () => {
    expect(stripLeaks('Great answer! The evaluator marked it recalled. What comes next?')).toBe('Great answer! What comes next?');
  });
});

describe('LeakGuard', () => {
  function stream(guard: LeakGuard, pieces: string[]): string {
    return pieces.map((piece) => guard.push(piece)).join('') + guard.finish();
  }

  it('forwards clean text at once, holding back only a word that could still become a leak', () => {
    const guard = new LeakGuard();
    expect(guard.push('Nice')).toBe('Nice');
    expect(guard.push(' work! What do you ')).toBe(' work! What do you ');
    expect(guard.push('remember about photo')).toBe('remember about photo');
    expect(guard.push('synthesis? Ev')).toBe('synthesis? ');
    expect(stream(guard, ['ery bit.'])).toBe('Every bit.');
    expect(guard.leaked).toBe(false);
  });

  it('holds back words a leak could start with until the text shows it is not one', () => {
    const guard = new LeakGuard();
    expect(guard.push('Think about the ')).toBe('Think about ');
    expect(guard.push('light reactions first. ')).toBe('the light reactions first. ');
    expect(guard.push('Your confidence ')).toBe('Your ');
    expect(guard.push('will grow with ')).toBe('confidence will grow with ');
  });

  it('never forwards any part of a leak, even one split across pieces', () => {
    const id = '3f2a9c1e-0b7d-4e5f-8a6b-1c2d3e4f5a6b';
    for (const pieces of [
      ['Great! Based on the ', 'stud', 'ent’s answer, let us go on.'],
      ['Good. Your confidence ', 'score: 0', '.8 is fine.'],
      ['Good. Point ', id.slice(0, 10), id.slice(10), ' is done.'],
    ]) {
      const guard = new LeakGuard([id]);
      const sent = stream(guard, pieces);
      expect(guard.leaked).toBe(true);
      expect(findLeaks(sent, [id])).toEqual([]);
      expect(sent.length).toBeLessThan(pieces.join('').length);
    }
  });
});

describe('findPlainChoices', () => {
  it('turns lettered options after a question into a widget', () => {
    const found = findPlainChoices('Close! Let me narrow it down.\nWhich gas do plants take in?\nA) Oxygen\nB) Carbon dioxide\nC) Nitrogen\nTake your pick.');
    expect(found).toEqual({
      prompt: 'Which gas do plants take in?',
      options: ['Oxygen', 'Carbon dioxide', 'Nitrogen'],
      remainder: 'Close! Let me narrow it down.\n\nTake your pick.',
    });
  });

  it('reads numbered and inline options', () => {
    expect(findPlainChoices('Which is it?\n1. Mitosis\n2. Meiosis')?.options).toEqual(['Mitosis', 'Meiosis']);
    const inline = findPlainChoices('Good try. Is the powerhouse of the cell (a) the nucleus, (b) the mitochondrion or (c) the ribosome?');
    expect(inline).toEqual({
      prompt: 'Is the powerhouse of the cell?',
      options: ['the nucleus', 'the mitochondrion', 'the ribosome'],
      remainder: 'Good try.',
    });
  });

  it('reads inline options as the old pattern did: capitals, bold, "; " and ", or", a line break before a marker (issue 22: now one pass)', () => {
    expect(findPlainChoices('So (A) **mitosis**; (B) meiosis, or (C) binary fission? Think about it.')).toEqual({
      prompt: 'So?',
      options: ['mitosis', 'meiosis', 'binary fission'],
      remainder: 'Think about it.',
    });
    expect(findPlainChoices('Pick one:\n(a) Oxygen\n(b) Carbon dioxide?')).toEqual({ prompt: 'Which one is it?', options: ['Oxygen', 'Carbon dioxide'], remainder: 'Pick one:' });
    // An option never runs over a line break, and a list needs its "?".
    expect(findPlainChoices('Is it (a) the nucleus\nor maybe (b) the ribosome?')).toBeNull();
    expect(findPlainChoices('Compare (a) the nucleus, (b) the ribosome.')).toBeNull();
  });

  it('leaves explanations, bullet lists and unordered markers alone', () => {
    expect(findPlainChoices('Here are the steps:\n- Boil water\n- Add tea')).toBeNull();
    expect(findPlainChoices('Remember the order.\n1. Boil water\n2. Add tea')).toBeNull();
    expect(findPlainChoices('Which?\nB) one\nA) two')).toBeNull();
    expect(findPlainChoices('What do you remember about the Krebs cycle?')).toBeNull();
  });
});
