import { describe, expect, it } from 'vitest';
import {
  RECALL_MIN_COVERAGE,
  damerauLevenshtein,
  extractKeyTerms,
  isRecalled,
  normalizeText,
  scoreCoverage,
  tokenMatchesTerm,
  tokenize,
} from './lexical';

const term = (word: string) => {
  const t = extractKeyTerms(word)[0];
  if (!t) throw new Error(`no key term in ${word}`);
  return t;
};

describe('normalisation and tokens', () => {
  it('folds diacritics and case, turns punctuation into spaces and keeps numbers whole', () => {
    expect(normalizeText('Café déjà-vu: Ångström’s LAW!')).toBe('cafe deja vu angstrom s law');
    expect(tokenize('In 1,000,000 B.C. π was 3.14; ½')).toEqual(['in', '1000000', 'b', 'c', 'π', 'was', '3.14', '1', '2']);
  });

  it('key terms skip stopwords, are stemmed and deduplicated by stem', () => {
    const terms = extractKeyTerms('The mitochondria produce ATP; mitochondria also produce heat');
    expect(terms.map((t) => t.surface)).toEqual(['mitochondria', 'produce', 'ATP', 'heat']);
    expect(terms.find((t) => t.surface === 'ATP')?.exact).toBe(true);
  });

  it('a point made only of stopwords still has key terms', () => {
    expect(extractKeyTerms('To be or not to be').map((t) => t.token)).toEqual(['to', 'be', 'or', 'not']);
  });
});

describe('matching a learner word to a key term', () => {
  it('accepts other word forms through the stem', () => {
    expect(tokenMatchesTerm('produces', term('produce'))).toBe(true);
    expect(tokenMatchesTerm('oxidation', term('oxidative'))).toBe(true);
  });

  it('tolerates one typo in long words, not in short ones', () => {
    expect(tokenMatchesTerm('phosphorilation', term('phosphorylation'))).toBe(true);
    expect(tokenMatchesTerm('mitocondria', term('mitochondria'))).toBe(true);
    expect(tokenMatchesTerm('mitochnodria', term('mitochondria'))).toBe(true); // swapped letters
    expect(tokenMatchesTerm('mood', term('moon'))).toBe(false);
  });

  it('matches Greek/Latin singulars and plurals, not mere look-alikes', () => {
    expect(tokenMatchesTerm('mitochondrion', term('mitochondria'))).toBe(true);
    expect(tokenMatchesTerm('nuclei', term('nucleus'))).toBe(true);
    expect(tokenMatchesTerm('bacterium', term('bacteria'))).toBe(true);
    expect(tokenMatchesTerm('matrices', term('matrix'))).toBe(true);
    expect(tokenMatchesTerm('electrode', term('electron'))).toBe(false);
  });

  it('numbers and acronyms must match exactly', () => {
    expect(tokenMatchesTerm('1969', term('1969'))).toBe(true);
    expect(tokenMatchesTerm('1968', term('1969'))).toBe(false);
    expect(tokenMatchesTerm('atp', term('ATP'))).toBe(true);
    expect(tokenMatchesTerm('adp', term('ATP'))).toBe(false);
  });

  it('computes the optimal-string-alignment distance', () => {
    expect(damerauLevenshtein('kitten', 'sitting')).toBe(3);
    expect(damerauLevenshtein('abcd', 'abdc')).toBe(1);
    expect(damerauLevenshtein('same', 'same')).toBe(0);
    expect(damerauLevenshtein('short', 'much longer', 1)).toBe(2);
  });
});

describe('the recall threshold', () => {
  it('needs coverage ≥ 0.6 and at least min(2, key terms) hits', () => {
    expect(RECALL_MIN_COVERAGE).toBe(0.6);
    expect(isRecalled(1, 1)).toBe(true);
    expect(isRecalled(0, 1)).toBe(false);
    expect(isRecalled(1, 2)).toBe(false);
    expect(isRecalled(2, 2)).toBe(true);
    expect(isRecalled(2, 3)).toBe(true);
    expect(isRecalled(2, 4)).toBe(false);
    expect(isRecalled(3, 5)).toBe(true);
    expect(isRecalled(5, 10)).toBe(false);
    expect(isRecalled(0, 0)).toBe(false);
  });

  const content = 'The mitochondria produce ATP through oxidative phosphorylation';

  it('recalls a paraphrase with other word forms', () => {
    const c = scoreCoverage('mitochondrion produce ATP', content);
    expect(c.hits.map((t) => t.surface)).toEqual(['mitochondria', 'produce', 'ATP']);
    expect(c.coverage).toBeCloseTo(0.6);
    expect(c.recalled).toBe(true);
  });

  it('recalls everything with a typo and different forms', () => {
    const c = scoreCoverage('Mitochondria produces ATPs by oxidative phosphorilation', content);
    expect(c.coverage).toBe(1);
    expect(c.recalled).toBe(true);
  });

  it('does not recall a vague answer, and reports a near miss for a partial one', () => {
    expect(scoreCoverage('mitochondria make energy', content)).toMatchObject({ recalled: false, nearMiss: false });
    const partial = scoreCoverage('mitocondria make atp', content);
    expect(partial).toMatchObject({ recalled: false, nearMiss: true });
    expect(partial.missing.map((t) => t.surface)).toEqual(['produce', 'oxidative', 'phosphorylation']);
  });

  it('a date point needs the exact year', () => {
    const wall = 'The Berlin Wall fell in November 1989';
    expect(scoreCoverage('the berlin wall fell in 1989', wall).recalled).toBe(true);
    expect(scoreCoverage('the Berlin wall came down in 1991', wall).recalled).toBe(false);
  });

  it('a single-term point needs that term', () => {
    expect(scoreCoverage('that is photosynthesis', 'Photosynthesis').recalled).toBe(true);
    expect(scoreCoverage('something with photons', 'Photosynthesis').recalled).toBe(false);
  });
});
