import { describe, expect, it } from 'vitest';
import { wordNet } from './wordnet';

describe('WordNet as loaded (issue 28)', () => {
  const wn = wordNet();

  it('counts how often a lemma is used in general English, in all and as a part of speech', () => {
    expect(wn.frequency('say')).toBeGreaterThan(wn.frequency('river'));
    expect(wn.frequency('mitochondrion')).toBe(0);
    expect(wn.frequency('produce', 'v')).toBeGreaterThan(wn.frequency('produce', 'n'));
    expect(wn.totalFrequency).toBeGreaterThan(100_000);
  });

  it('keeps glosses, the classes of named instances apart from hypernyms, and adjective clusters', () => {
    const aerobic = wn.commonSynsets('aerobic', 1)[0]!;
    expect(wn.gloss(aerobic)).toContain('oxygen');
    const venice = wn.synsets('venice')[0]!;
    expect([...wn.instanceOf(venice)].flatMap((s) => wn.lemmas(s))).toContain('city');
    expect(wn.hypernyms(venice)).toHaveLength(0);
    const dense = [...wn.synsets('dense')].find((s) => wn.gloss(s).includes('density'))!;
    expect([...wn.similar(dense)].flatMap((s) => wn.lemmas(s))).toContain('heavy');
  });
});
