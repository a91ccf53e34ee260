import { describe, expect, it } from 'vitest';
import { areSisters, definitionRelation, relate } from './lexical-relations';
import { specificityOf } from './key-ideas';
import { wordNet } from './wordnet';

describe('relations between words (issue 28)', () => {
  it('relates synonyms, adjectives of one cluster, derivations and hypernyms', () => {
    expect(relate('soak_up', 'absorb')?.[0]).toBe('synonym');
    expect(relate('heavy', 'dense')?.[0]).toBe('synonym');
    expect(relate('chemically', 'chemical')?.[0]).toBe('derived');
    expect(relate('sugar', 'glucose')?.[0]).toBe('broader');
  });

  it('finds opposites either way round: WordNet antonyms, a synonym of one by its first sense, a negative prefix', () => {
    expect(relate('dilute', 'concentrated')?.[0]).toBe('antonym');
    expect(relate('concentrated', 'dilute')?.[0]).toBe('antonym');
    expect(relate('unsorted', 'sorted')?.[0]).toBe('antonym');
    expect(relate('value', 'depreciate')?.[0]).not.toBe('antonym');
  });

  it('reads a rare word through its definition, a privative definition with its polarity', () => {
    expect(definitionRelation('oxygen', 'aerobic', specificityOf(['aerobic']))).toEqual(['definition', 0.7]);
    expect(definitionRelation('change', 'immutable', specificityOf(['immutable']))).toEqual(['negative-definition', 0.7]);
    // A common word is said as itself; a name's definition describes it without naming it.
    expect(definitionRelation('water', 'river', specificityOf(['river']))).toBeNull();
    expect(definitionRelation('painter', 'michelangelo', specificityOf(['michelangelo']))).toBeNull();
  });

  it('tells substitutes of one kind, names included, from a word and its own class', () => {
    const wn = wordNet();
    expect(areSisters(wn, 'venice', 'verona')).toBe(true);
    expect(areSisters(wn, 'kant', 'hume')).toBe(true);
    expect(areSisters(wn, 'vitamin_a', 'vitamin_c')).toBe(true);
    expect(areSisters(wn, 'nile', 'river')).toBe(false);
    // "country" and "defence" meet only under "social unit", far too broad a class.
    expect(areSisters(wn, 'country', 'defence')).toBe(false);
  });
});
