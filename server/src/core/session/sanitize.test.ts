import { describe, expect, it } from 'vitest';
import { findLeaks, stripLeaks } from './sanitize';

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
