import { describe, expect, it } from 'vitest';
import { analyzeText } from './text-analysis';

const negated = (text: string) => analyzeText(text).words.filter((w) => w.negated).map((w) => w.norm);
const values = (text: string) => analyzeText(text).words.filter((w) => w.value !== null).map((w) => w.value);

describe('text analysis (issue 28)', () => {
  it('reads numbers in words, lists of numbers, factors and a counted "one"', () => {
    expect(values('eight thousand eight hundred and forty-nine metres')).toEqual([8849]);
    expect(values('love, fifteen, thirty, forty')).toEqual([15, 30, 40]);
    expect(values('a tenfold change, a 10x change')).toEqual([10, 10]);
    expect(values('G major has one sharp')).toEqual([1]);
    expect(values('the one that stays')).toEqual([]);
    expect(values('a word such as constructor is no number')).toEqual([]);
  });

  it('reads a bound and a sign before a number or a word', () => {
    const words = analyzeText('pH below 7, above 7, less than 3, > 9 and -cos x').words;
    expect(words.filter((w) => w.value !== null).map((w) => [w.value, w.comparator])).toEqual([
      [7, -1],
      [7, 1],
      [3, -1],
      [9, 1],
    ]);
    expect(words.find((w) => w.norm === 'cos')?.minus).toBe(true);
    expect(analyzeText('a semi-permeable membrane').words.some((w) => w.minus)).toBe(false);
  });

  it('scopes a negation forward to the end of its clause, never over a hedge', () => {
    expect(negated('Binary search does not require the list to be sorted')).toEqual(['require', 'the', 'list', 'to', 'be', 'sorted']);
    expect(negated("noble gases don't react because their shell is full")).toEqual(['react']);
    expect(negated('not getting enough vitamin A makes you night blind')).toEqual(['getting', 'enough', 'vitamin', 'a']);
    expect(negated("I'm not sure, but mitochondria make ATP")).toEqual([]);
    expect(negated('you cant change a tuple')).toEqual(['change', 'a', 'tuple']);
  });

  it('denies the whole sentence after "it is not true that", and what follows "rather than"', () => {
    expect(negated('it is not true that plants, in the dark, make sugar')).toEqual(expect.arrayContaining(['plants', 'dark', 'make', 'sugar']));
    expect(negated('Canberra rather than Sydney')).toEqual(['sydney']);
  });

  it('opens a clause at "and" with its own subject and verb, and marks a clause on the contrary case', () => {
    const tuples = analyzeText('tuples are mutable and lists are immutable').words;
    expect(tuples.find((w) => w.norm === 'lists')!.clause).toBeGreaterThan(tuples.find((w) => w.norm === 'mutable')!.clause);
    const salt = analyzeText('salt slows yeast and strengthens gluten').words;
    expect(new Set(salt.map((w) => w.clause)).size).toBe(1);
    expect(analyzeText('it needs a base case, otherwise it never stops').words.filter((w) => w.counterfactual).map((w) => w.norm)).toEqual(['otherwise', 'it', 'never', 'stops']);
  });
});
