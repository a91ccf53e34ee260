import { describe, expect, it } from 'vitest';
import { findLeaks, normalizeForMatch } from './leaks';

const context = {
  pointIds: ['3f2a9c10-aaaa-4bbb-8ccc-123456789abc'],
  unrecalledContents: ['Water boils at 100 degrees Celsius'],
  learnerText: '',
};

describe('findLeaks', () => {
  it('finds nothing in a clean cue', () => {
    expect(findLeaks('Here’s a keyword to start from: “Water”. What comes to mind?', context)).toEqual([]);
  });

  it('flags internal markers and point ids with an excerpt', () => {
    expect(findLeaks('The evaluator says the student’s confidence is high (3f2a9c10-aaaa-4bbb-8ccc-123456789abc).', context)).toEqual([
      { kind: 'internal_language', detail: 'confidence', excerpt: '…evaluator says the student’s confidence is high (3f2a9c10-aaaa-4bbb-8…' },
      { kind: 'internal_language', detail: 'evaluator', excerpt: 'The evaluator says the student’s confidence…' },
      { kind: 'internal_language', detail: "the student's", excerpt: 'The evaluator says the student’s confidence is high (3f2a9c10-…' },
      { kind: 'internal_language', detail: 'point id', excerpt: '…student’s confidence is high (3f2a9c10-aaaa-4bbb-8ccc-123456789abc).' },
    ]);
  });

  it('flags an unrecalled point verbatim, ignoring case, punctuation and spacing', () => {
    expect(findLeaks('Remember: WATER boils at 100 degrees,  Celsius!', context)).toEqual([
      { kind: 'unrecalled_content', detail: 'Water boils at 100 degrees Celsius', excerpt: 'Water boils at 100 degrees Celsius' },
    ]);
  });

  it('does not flag a partial mention, a recalled point, or what the learner already said', () => {
    expect(findLeaks('Water boils at some temperature.', context)).toEqual([]);
    expect(findLeaks('Water boils at 100 degrees Celsius.', { ...context, unrecalledContents: [] })).toEqual([]);
    expect(findLeaks('Water boils at 100 degrees Celsius.', { ...context, learnerText: 'water boils at 100 degrees celsius?' })).toEqual([]);
  });

  it('matches whole words only', () => {
    expect(normalizeForMatch('Café — déjà vu!')).toBe(' cafe deja vu ');
    expect(findLeaks('Underwater boils at 1000 degrees Celsius', context)).toEqual([]);
  });
});
