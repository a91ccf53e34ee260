import { beforeAll, describe, expect, it } from 'vitest';
import { matchPoint, prepareMessage } from './idea-match';
import { wordNet } from './wordnet';

// WordNet loads once per process (seconds on a busy machine): not inside the first case's time limit.
beforeAll(() => void wordNet(), 120_000);

const match = (content: string, message: string) => matchPoint(prepareMessage(message), content);

describe('acronyms, either way round (acronyms.ts)', () => {
  it('recalls a point whose words the learner says by their acronym', () => {
    const m = match('Omeprazole → proton pump inhibitor', 'omeprazole is a PPI');
    expect(m.recalled).toBe(true);
    expect(m.hits.filter((hit) => hit.words === 'PPI').map((hit) => hit.idea.surface)).toEqual(['proton', 'pump', 'inhibitor']);
    expect(match('Wellington is the capital of New Zealand.', 'the capital of NZ is wellington').recalled).toBe(true);
  });

  it('recalls a point whose acronym the learner spells out', () => {
    const m = match('The CPU executes the instructions of a program.', 'the central processing unit executes the instructions of a program');
    expect(m.hits.find((hit) => hit.idea.surface === 'CPU')?.words).toBe('central processing unit');
  });

  it('does not take other letters for the acronym', () => {
    const m = match('Omeprazole → proton pump inhibitor', 'omeprazole is an SSRI');
    expect(m.hits.some((hit) => hit.words === 'SSRI')).toBe(false);
    expect(m.recalled).toBe(false);
  });
});
