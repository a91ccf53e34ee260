import { describe, expect, it } from 'vitest';
import { normalizeEvaluation } from './parse-evaluation';

const unchecked = new Set(['p1', 'p2', 'p3']);

describe('normalizeEvaluation', () => {
  it('strips code fences, drops unknown ids and duplicates, clamps confidence', () => {
    const text = '```json\n{"recalledPoints":[{"id":"p1","confidence":1.7,"observation":"exact"},{"id":"zz","confidence":0.9,"observation":"?"},{"id":"p1","confidence":0.2,"observation":"again"},{"id":"p2","confidence":-3,"observation":"vague"}],"feedback":"Two recalled."}\n```';
    expect(normalizeEvaluation(text, unchecked)).toEqual({
      recalledPoints: [
        { id: 'p1', confidence: 1, observation: 'exact' },
        { id: 'p2', confidence: 0, observation: 'vague' },
      ],
      feedback: 'Two recalled.',
    });
  });

  it('turns malformed output into the empty result', () => {
    expect(normalizeEvaluation('not json at all', unchecked)).toEqual({ recalledPoints: [], feedback: '' });
    expect(normalizeEvaluation({ recalledPoints: 'p1' }, unchecked)).toEqual({ recalledPoints: [], feedback: '' });
    expect(normalizeEvaluation(null, unchecked)).toEqual({ recalledPoints: [], feedback: '' });
  });
});
