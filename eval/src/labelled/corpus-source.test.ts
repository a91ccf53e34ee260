/** The independent labelled corpus (issue 28): its source format, the seeded split, and the committed files. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusOutputFolder, readCorpusSource } from './build-corpus';
import { corpusSuites, parseCorpusSource, serializeSuite, splitTurns } from './corpus-source';
import { LabelledKinds, LabelledSuiteFile, type LabelledTurn } from './labelled-schema';

const source = `# a comment
== capitals | Capital cities | world capitals
k1 [Capital of Australia]: Canberra
k2 [Capital of Canada]: Ottawa
ex k1: Canberra
contra - !k1: it's not Canberra
multi k1,k2 << no idea // pass >>: Canberra and Ottawa
widget k1 << dunno >>: @match Canberra
widget - << dunno >>: @text Sydney
`;

describe('parseCorpusSource', () => {
  it('reads sets, card points with their cue, turns with context moves, contradictions and widget answers', () => {
    const parsed = parseCorpusSource([{ name: 'a.txt', text: source }]);
    expect(parsed).toEqual({
      ok: true,
      value: {
        sets: {
          capitals: {
            name: 'Capital cities',
            subject: 'world capitals',
            points: [
              { key: 'k1', content: 'Canberra', context: 'Capital of Australia' },
              { key: 'k2', content: 'Ottawa', context: 'Capital of Canada' },
            ],
          },
        },
        turns: [
          { id: 'capitals-01', set: 'capitals', kind: 'exact', context: [], message: { say: 'Canberra' }, shows: ['k1'] },
          { id: 'capitals-02', set: 'capitals', kind: 'contradiction', context: [], message: { say: "it's not Canberra" }, shows: [], contradicts: ['k1'] },
          { id: 'capitals-03', set: 'capitals', kind: 'multi', context: [{ say: 'no idea' }, { say: 'pass' }], message: { say: 'Canberra and Ottawa' }, shows: ['k1', 'k2'] },
          { id: 'capitals-04', set: 'capitals', kind: 'widget', context: [{ say: 'dunno' }], message: { widget: { answer: 'match', text: 'Canberra' } }, shows: ['k1'] },
          { id: 'capitals-05', set: 'capitals', kind: 'widget', context: [{ say: 'dunno' }], message: { widget: { answer: 'text', text: 'Sydney' } }, shows: [] },
        ],
      },
    });
  });

  it('names the file and line of every mistake', () => {
    const parsed = parseCorpusSource([
      { name: 'b.txt', text: 'ex k1: too early\n== s | S | s\nk1: A\nguess k1: what kind\nex k1: fine\nk2: a point after turns\nwidget k1: a widget turn without an answer\nex k7: unknown point\n' },
    ]);
    expect(parsed).toEqual({
      ok: false,
      errors: [
        'b.txt:1: a line before the first "== set | name | subject" line',
        'b.txt:4: not a set, point or turn line: "guess k1: what kind"',
        'b.txt:6: point k2 comes after the set\'s turns',
        'b.txt:7: a widget turn needs an "@text" or "@match" answer',
        'turns.2.shows.0: set "s" has no point "k7"',
      ],
    });
  });
});

describe('splitTurns', () => {
  const turns: LabelledTurn[] = Array.from({ length: 30 }, (_, index) => ({
    id: `t${index}`,
    set: 's',
    kind: index < 20 ? 'paraphrase' : 'question',
    context: [],
    message: { say: `message ${index}` },
    shows: [],
  }));

  it('puts round(40 %) of every kind in test, keeps source order, and repeats itself for a seed', () => {
    const split = splitTurns(turns, { seed: 7, testShare: 0.4 });
    expect(split.test.filter((turn) => turn.kind === 'paraphrase')).toHaveLength(8);
    expect(split.test.filter((turn) => turn.kind === 'question')).toHaveLength(4);
    expect([...split.dev, ...split.test].map((turn) => turn.id).sort()).toEqual(turns.map((turn) => turn.id).sort());
    expect(split.dev.map((turn) => Number(turn.id.slice(1)))).toEqual([...split.dev.map((turn) => Number(turn.id.slice(1)))].sort((a, b) => a - b));
    expect(splitTurns(turns, { seed: 7, testShare: 0.4 })).toEqual(split);
    expect(splitTurns(turns, { seed: 8, testShare: 0.4 }).test.map((turn) => turn.id)).not.toEqual(split.test.map((turn) => turn.id));
  });
});

describe('the committed corpus', () => {
  const parsed = parseCorpusSource(readCorpusSource());
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  const corpus = parsed.value;

  it('is what the issue asks for: 650+ turns, 32+ sets of 3–5 points, 6+ card sets, 40+ turns of every new kind', () => {
    const sets = Object.values(corpus.sets);
    expect(corpus.turns.length).toBeGreaterThanOrEqual(650);
    expect(sets.length).toBeGreaterThanOrEqual(32);
    expect(new Set(sets.map((set) => set.subject)).size).toBe(sets.length);
    expect(sets.every((set) => set.points.length >= 3 && set.points.length <= 5)).toBe(true);
    const cards = sets.filter((set) => set.points.every((point) => point.context !== undefined || point.content.includes('→')));
    expect(cards.length).toBeGreaterThanOrEqual(6);
    const counts = Object.fromEntries(LabelledKinds.map((kind) => [kind, corpus.turns.filter((turn) => turn.kind === kind).length]));
    for (const kind of LabelledKinds.filter((each) => each !== 'partial')) expect(counts[kind], kind).toBeGreaterThanOrEqual(40);
    expect(counts['partial']).toBe(0);
  });

  it('is committed exactly as the source builds it, so the frozen test split was never edited by hand', () => {
    const built = corpusSuites(corpus);
    for (const split of ['dev', 'test'] as const) {
      expect(readFileSync(path.join(corpusOutputFolder, `corpus-${split}.json`), 'utf8'), split).toBe(serializeSuite(built[split]));
    }
  });

  it('splits about 60/40 within every kind, and marks the test split frozen', () => {
    const files = Object.fromEntries(
      (['dev', 'test'] as const).map((split) => [split, LabelledSuiteFile.parse(JSON.parse(readFileSync(path.join(corpusOutputFolder, `corpus-${split}.json`), 'utf8')))]),
    );
    expect([files['dev']!.split, files['test']!.split]).toEqual(['dev', 'test']);
    expect(files['test']!.description).toMatch(/^FROZEN .*written 2026-11-27 by an author who had not read the matcher.*Never to be edited or looked at case by case — only scored/);
    for (const kind of LabelledKinds.filter((each) => each !== 'partial')) {
      const all = corpus.turns.filter((turn) => turn.kind === kind).length;
      expect(files['test']!.turns.filter((turn) => turn.kind === kind).length, kind).toBe(Math.round(all * 0.4));
    }
  });
});
