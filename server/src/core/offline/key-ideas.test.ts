import { describe, expect, it } from 'vitest';
import { keyIdeasOf, specificityOf } from './key-ideas';

const roles = (content: string) => Object.fromEntries(keyIdeasOf(content).map((idea) => [idea.surface, idea.role]));

describe('key ideas of a point (issue 28)', () => {
  it('weighs a word by how rare it is in general English', () => {
    expect(specificityOf(['say'])).toBeLessThan(specificityOf(['river']));
    expect(specificityOf(['river'])).toBeLessThan(specificityOf(['mitochondrion']));
    expect(specificityOf(['odoacer'])).toBe(1);
  });

  it('tells the core statement from its asides: brackets, examples, relative and subordinate clauses, trailing phrases, a setting', () => {
    expect(roles('Acids release hydrogen ions (H+ and protons) when they dissolve in water.')).toMatchObject({ Acids: 'core', protons: 'detail', dissolve: 'core' });
    expect(roles('Consideration is something of value each party gives, such as money or goods.')).toMatchObject({ Consideration: 'core', money: 'detail', goods: 'detail' });
    expect(roles('In Hamlet, the father of the prince is murdered by his brother Claudius, who then marries the queen.')).toMatchObject({ Hamlet: 'detail', murdered: 'core', Claudius: 'core', queen: 'detail' });
    expect(roles('The Western Roman Empire fell in 476 AD when Odoacer deposed Romulus Augustulus.')).toMatchObject({ 'Western Roman Empire': 'core', '476': 'core', Odoacer: 'detail' });
    expect(roles('The Nile is the longest river in the world, at about 6,650 km.')).toMatchObject({ Nile: 'core', river: 'core', '6,650': 'detail', km: 'detail' });
    // A clause that needs its subordinate one keeps it: "when it is earned" is the point.
    expect(roles('Revenue is recognised when it is earned.')).toMatchObject({ Revenue: 'core', earned: 'core' });
  });

  it('finds the subject of the main clause, before its verb', () => {
    const subject = (content: string) => keyIdeasOf(content).filter((idea) => idea.subject).map((idea) => idea.surface);
    expect(subject('The mitochondria produce ATP through oxidative phosphorylation')).toEqual(['mitochondria']);
    expect(subject('The expected value of a fair die roll is 3.5.')).toEqual(expect.arrayContaining(['expected value', 'die']));
    expect(subject('Virtue ethics, going back to Aristotle, focuses on character.')).toEqual(['Virtue', 'ethics']);
  });

  it('keeps every number said, each with its bound', () => {
    const numbers = keyIdeasOf('A solution with a pH below 7 is acidic, and one above 7 is alkaline.').filter((idea) => idea.value !== null);
    expect(numbers.map((idea) => [idea.value, idea.comparator])).toEqual([
      [7, -1],
      [7, 1],
    ]);
  });
});
