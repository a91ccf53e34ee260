import { describe, expect, it } from 'vitest';
import { anchorFor, clozeOf, contextPhrase, guardCue, maskWord } from './cue-builder';
import { extractKeyTerms, matchedTerms, normalizeText } from './lexical';
import { allPoints } from './test-fixtures';

describe('cue building blocks', () => {
  it('masks words to a first letter, numbers entirely', () => {
    expect(maskWord('oxidative')).toBe('o________');
    expect(maskWord('1969')).toBe('____');
    expect(maskWord('a')).toBe('_');
  });

  it('picks the first content word as anchor, none for single-term points', () => {
    expect(anchorFor('The mitochondria produce ATP through oxidative phosphorylation')?.surface).toBe('mitochondria');
    expect(anchorFor('DNA replication is semi-conservative')?.surface).toBe('replication');
    expect(anchorFor('Photosynthesis')).toBeNull();
  });

  it('the cloze keeps the anchor and masks the other key terms', () => {
    expect(clozeOf('The mitochondria produce ATP through oxidative phosphorylation')).toBe(
      'The mitochondria p______ A__ through o________ p______________',
    );
    expect(clozeOf('Apollo 11 landed on the Moon in July 1969')).toBe('Apollo __ l_____ on the M___ in J___ ____');
  });

  it('no cloze reveals more than one key term or the whole point', () => {
    for (const p of allPoints) {
      const cloze = clozeOf(p.content);
      expect(matchedTerms(cloze, extractKeyTerms(p.content)).length).toBeLessThanOrEqual(1);
      expect(normalizeText(cloze)).not.toBe(normalizeText(p.content));
    }
  });

  it('the guard leaves one key term from an author context that names several', () => {
    const content = 'The mitochondria produce ATP through oxidative phosphorylation';
    const guarded = guardCue('How do mitochondria make ATP by oxidative phosphorylation?', content, 'first');
    expect(guarded).toBe('How do mitochondria make A__ by o________ p______________?');
    expect(guardCue('Think of mitochondria and ATP', content, null)).toBe('Think of m___________ and A__');
  });

  it('tidies and shortens long contexts', () => {
    expect(contextPhrase('  Cell   biology ')).toBe('Cell biology');
    expect(contextPhrase(null)).toBeNull();
    const long = contextPhrase('word '.repeat(100));
    expect(long?.length).toBeLessThanOrEqual(141);
    expect(long?.endsWith('…')).toBe(true);
  });
});
