/** The labelled-turn suite format: strict, with clear field errors; the shipped suite parses. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LabelledSuiteFile } from './labelled-schema';

const set = { name: 'Cells', subject: 'biology', points: [{ key: 'k1', content: 'Mitochondria produce ATP' }, { key: 'k2', content: 'Ribosomes build proteins' }] };

function issues(suite: unknown): string[] {
  const parsed = LabelledSuiteFile.safeParse(suite);
  return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('LabelledSuiteFile', () => {
  it('parses a minimal suite, with context defaulting to no moves', () => {
    const parsed = LabelledSuiteFile.parse({ format: 'labelled', sets: { bio: set }, turns: [{ id: 't1', set: 'bio', kind: 'exact', message: { say: 'mitochondria make ATP' }, shows: ['k1'] }] });
    expect(parsed.turns[0]).toEqual({ id: 't1', set: 'bio', kind: 'exact', context: [], message: { say: 'mitochondria make ATP' }, shows: ['k1'] });
  });

  it('names the field of every mistake: unknown set, unknown point, duplicate id, a move with both or neither', () => {
    expect(
      issues({
        format: 'labelled',
        sets: { bio: set },
        turns: [
          { id: 't3', set: 'bio', kind: 'widget', message: { say: 'x', widget: { answer: 'first' } }, shows: [] },
          { id: 't4', set: 'bio', kind: 'question', message: {}, shows: [] },
        ],
      }),
    ).toEqual(['turns.0.message: a move needs exactly one of "say" or "widget"', 'turns.1.message: a move needs exactly one of "say" or "widget"']);
    expect(
      issues({
        format: 'labelled',
        sets: { bio: set },
        turns: [
          { id: 't1', set: 'chem', kind: 'exact', message: { say: 'x' }, shows: [] },
          { id: 't1', set: 'bio', kind: 'contradiction', message: { say: 'x' }, shows: ['k9'], contradicts: ['k8'] },
        ],
      }),
    ).toEqual(['turns.0.set: no set "chem" in "sets"', 'turns.1.id: duplicate turn id "t1"', 'turns.1.shows.0: set "bio" has no point "k9"', 'turns.1.contradicts.0: set "bio" has no point "k8"']);
  });

  it('refuses unknown fields and kinds', () => {
    expect(issues({ format: 'labelled', sets: { bio: set }, turns: [{ id: 't1', set: 'bio', kind: 'guess', message: { say: 'x' }, shows: [], extra: 1 }] })).toEqual([
      expect.stringMatching(/^turns\.0\.kind: Invalid option/),
      'turns.0: Unrecognized key: "extra"',
    ]);
  });

  it('accepts the kinds of issue 28 and a dev or test split, and refuses any other split', () => {
    const turns = (['partial_core', 'partial_missing', 'hedged'] as const).map((kind, index) => ({ id: `t${index}`, set: 'bio', kind, message: { say: 'x' }, shows: [] }));
    expect(LabelledSuiteFile.parse({ format: 'labelled', split: 'test', sets: { bio: set }, turns }).split).toBe('test');
    expect(LabelledSuiteFile.parse({ format: 'labelled', sets: { bio: set }, turns }).split).toBeUndefined();
    expect(issues({ format: 'labelled', split: 'train', sets: { bio: set }, turns })).toEqual([expect.stringMatching(/^split: Invalid option/)]);
  });

  it('accepts the shipped labelled suite', () => {
    const file = fileURLToPath(new URL('../../suites/labelled/labelled-turns.json', import.meta.url));
    const suite = LabelledSuiteFile.parse(JSON.parse(readFileSync(file, 'utf8')));
    expect(suite.turns.length).toBeGreaterThan(50);
    expect(new Set(suite.turns.map((turn) => turn.kind))).toEqual(new Set(['exact', 'paraphrase', 'partial', 'near_miss', 'contradiction', 'off_topic', 'multi', 'question', 'widget']));
  });
});
