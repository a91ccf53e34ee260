import { beforeAll, describe, expect, it } from 'vitest';
import { matchPoint, pointSetOf, prepareMessage } from './idea-match';
import { formulasOf } from './notation';
import { wordNet } from './wordnet';

// WordNet loads once per process (seconds on a busy machine): not inside the first case's time limit.
beforeAll(() => void wordNet(), 120_000);

const match = (content: string, message: string, others: string[] = []) => matchPoint(prepareMessage(message), content, { set: pointSetOf([content, ...others]) });

describe('formulas as written (notation.ts)', () => {
  it('reads a formula whole, spelling aside, and leaves hyphenated words and asides alone', () => {
    expect(formulasOf('Binary search finds an item in a sorted list in O(log n) time.').map((f) => f.text)).toEqual(['o(logn)']);
    expect(formulasOf('In a right-angled triangle, a² + b² = c², where c is the hypotenuse.').map((f) => [f.text, f.head])).toEqual([['a^2+b^2=c^2', 'a^2+b^2=']]);
    expect(formulasOf('The derivative of x^n is n·x^(n−1) (the power rule).').map((f) => f.text)).toEqual(['x^n', 'nx^(n-1)']);
    // A product with a sign or without one is the same formula.
    expect(formulasOf('F = m × a')[0]!.text).toBe(formulasOf('which is usually written as F = ma.')[0]!.text);
    expect(formulasOf('it is O(log(n))')[0]!.text).toBe('o(logn)');
    expect(formulasOf('P(not A) = 1 - P(A)')[0]!.text).toBe('p(nota)=1-p(a)');
    expect(formulasOf('contracts made by under-18s, in a right-angled triangle (the power rule)')).toEqual([]);
  });

  it('does not recall a point whose formula the learner writes with another body', () => {
    const search = 'Binary search finds an item in a sorted list in O(log n) time.';
    expect(match(search, 'binary search is O(n) on a sorted list')).toMatchObject({ recalled: false, conflict: 'writes "o(n)" where the point has "o(logn)"' });
    expect(match(search, 'binary search finds an item in a sorted list in O(log n)').recalled).toBe(true);
    const equation = 'The accounting equation is assets = liabilities + equity.';
    expect(match(equation, 'assets = liabilities - equity')).toMatchObject({ recalled: false, conflict: 'writes "assets=liabilities-equity" where the point has "assets=liabilities+equity"' });
    expect(match(equation, 'assets = liabilities + equity').recalled).toBe(true);
  });

  it('reads another formula in a multi-point answer as about another point', () => {
    const search = 'Binary search finds an item in a sorted list in O(log n) time.';
    const hash = 'A hash table lookup takes O(1) time on average.';
    expect(match(search, 'binary search is log n on a sorted list and hash tables are O(1) average', [hash]).recalled).toBe(true);
  });
});
