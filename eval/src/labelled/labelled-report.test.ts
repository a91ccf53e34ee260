/** Labelled-turn figures, reports and comparison (eval/README.md "Labelled turns"): pure, on hand-made outcomes. */
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../reports/document';
import { compareLabelledReport, groupOutcomes, labelledReport, scoreOutcomes, summarizeLabelled } from './labelled-report';
import { LabelledRunResult, type LabelledOutcome } from './labelled-schema';

function outcome(overrides: Partial<LabelledOutcome> & Pick<LabelledOutcome, 'id' | 'kind' | 'expected' | 'predicted'>): LabelledOutcome {
  return {
    suite: 'labelled-turns',
    split: null,
    subject: 'biology',
    message: `message ${overrides.id}`,
    contradicts: [],
    recalledInContext: [],
    tutorReply: 'Go on.',
    widgetAfter: null,
    error: null,
    contents: { k1: 'Photosynthesis converts light energy into chemical energy', k2: 'Mitochondria produce ATP', k3: 'Ribosomes build proteins' },
    ...overrides,
  };
}

const metadata: LabelledRunResult['metadata'] = { label: 'offline', serverUrl: 'http://127.0.0.1:1', tutor: 'offline', startedAt: '2026-11-01T09:00:00.000Z', durationMs: 1200, suites: ['labelled-turns'] };

const outcomes: LabelledOutcome[] = [
  outcome({ id: 't1', kind: 'exact', expected: ['k1'], predicted: ['k1'] }),
  outcome({ id: 't2', kind: 'paraphrase', expected: ['k2'], predicted: [] }),
  outcome({ id: 't3', kind: 'multi', expected: ['k1', 'k2'], predicted: ['k1', 'k3'] }),
  // A point recalled by the context moves is left out of the figures.
  outcome({ id: 't4', kind: 'multi', expected: ['k1', 'k2'], predicted: ['k2'], recalledInContext: ['k1'] }),
  outcome({ id: 't5', kind: 'contradiction', expected: [], predicted: ['k2'], contradicts: ['k2'] }),
  outcome({ id: 't6', kind: 'contradiction', expected: [], predicted: [], contradicts: ['k1'] }),
  outcome({ id: 't7', kind: 'question', expected: [], predicted: ['k3'] }),
  outcome({ id: 't8', kind: 'question', expected: [], predicted: [] }),
  outcome({ id: 't9', kind: 'widget', expected: ['k3'], predicted: null, error: 'no widget came' }),
];

describe('scoreOutcomes', () => {
  it('counts (turn, point) pairs, skips unscored turns and points recalled in context', () => {
    expect(scoreOutcomes(outcomes)).toEqual({
      turns: 8,
      truePositives: 3,
      falsePositives: 3,
      falseNegatives: 2,
      precision: 0.5,
      recall: 0.6,
      f1: (2 * 0.5 * 0.6) / 1.1,
      exactTurns: 4,
      // t1–t4 are labelled as showing a point; t3, t5 and t7 counted a point their labels do not show.
      turnsShowing: 4,
      turnsWithFalsePositive: 3,
    });
  });

  it('has no precision, recall or F1 without predictions or labels', () => {
    expect(scoreOutcomes([outcome({ id: 'q', kind: 'question', expected: [], predicted: [] })])).toMatchObject({ turns: 1, precision: null, recall: null, f1: null, exactTurns: 1 });
  });
});

describe('summarizeLabelled', () => {
  it('adds per-kind scores, the contradiction rate, questions graded and turns not scored', () => {
    const run = summarizeLabelled(outcomes, metadata);
    expect(Object.keys(run.byKind)).toEqual(['exact', 'paraphrase', 'contradiction', 'multi', 'question', 'widget']);
    expect(run.byKind['paraphrase']).toMatchObject({ turns: 1, recall: 0 });
    expect(run.byKind['widget']).toMatchObject({ turns: 0 });
    expect([run.contradictionRate, run.questionsGraded, run.notScored]).toEqual([0.5, 1, 1]);
  });
});

describe('labelledReport', () => {
  it('shows the figures and lists every confusion with the points by content', () => {
    const markdown = renderMarkdown(labelledReport(summarizeLabelled(outcomes, metadata)));
    expect(markdown).toContain('# tutorloop evaluator accuracy: offline');
    expect(markdown).toContain('| precision | 0.50 |');
    expect(markdown).toContain('| contradictions counted as recalled | 50% |');
    expect(markdown).toContain('| questions graded as answers | 1 |');
    expect(markdown).toContain('## Confusions (5)');
    expect(markdown).toContain('labelled-turns/t2 (paraphrase) “message t2”\n  missed: k2 “Mitochondria produce ATP”');
    expect(markdown).toContain('labelled-turns/t3 (multi) “message t3”\n  missed: k2 “Mitochondria produce ATP”\n  wrongly recalled: k3 “Ribosomes build proteins”');
    expect(markdown).toContain('labelled-turns/t9 (widget): not scored — no widget came');
    expect(markdown).not.toContain('labelled-turns/t1 ');
  });

  it('says so when every turn was judged as labelled', () => {
    const markdown = renderMarkdown(labelledReport(summarizeLabelled([outcomes[0]!], metadata)));
    expect(markdown).toContain('None: every scored turn was judged as labelled.');
  });
});

describe('compareLabelledReport', () => {
  it('puts two runs side by side with deltas and lists the turns judged differently', () => {
    const a = summarizeLabelled(outcomes, metadata);
    const fixed = outcomes.map((each) => (each.id === 't2' ? { ...each, predicted: ['k2'] } : each.id === 't1' ? { ...each, predicted: [] } : each));
    const b = summarizeLabelled(fixed, { ...metadata, label: 'model' });
    const markdown = renderMarkdown(compareLabelledReport({ name: 'a.json', run: a }, { name: 'b.json', run: b }));
    expect(markdown).toContain('| label | offline | model |   |');
    expect(markdown).toContain('| paraphrase recall | 0.00 | 1.00 | +1.00 |');
    expect(markdown).toContain('## Turns judged differently (2)');
    expect(markdown).toContain('⬇ labelled-turns/t1 (exact) “message t1”: A ["k1"], B [], labelled ["k1"]');
    expect(markdown).toContain('⬆ labelled-turns/t2 (paraphrase) “message t2”: A [], B ["k2"], labelled ["k2"]');
  });
});

// Issue 28: a dev/test corpus is scored per split; the frozen test split's turns are never listed.
const corpus: LabelledOutcome[] = [
  outcome({ id: 'd1', suite: 'corpus-dev', split: 'dev', kind: 'paraphrase', expected: ['k1'], predicted: ['k1'], message: 'plants turn light into sugar energy' }),
  outcome({ id: 'd2', suite: 'corpus-dev', split: 'dev', kind: 'paraphrase', expected: ['k2'], predicted: [], message: 'the mitochondria make the ATP' }),
  outcome({ id: 'd3', suite: 'corpus-dev', split: 'dev', kind: 'off_topic', expected: [], predicted: [], message: 'brb' }),
  outcome({ id: 't1', suite: 'corpus-test', split: 'test', kind: 'paraphrase', expected: ['k1'], predicted: ['k1'], message: 'light becomes chemical energy' }),
  outcome({ id: 't2', suite: 'corpus-test', split: 'test', kind: 'near_miss', expected: [], predicted: ['k3'], message: 'ribosomes build lipids' }),
  outcome({ id: 't3', suite: 'corpus-test', split: 'test', kind: 'off_topic', expected: [], predicted: ['k2'], message: 'my energy drink is empty' }),
  outcome({ id: 'x1', kind: 'exact', expected: ['k3'], predicted: ['k3'] }),
];

describe('groupOutcomes', () => {
  it('scores each split on its own and each suite without a split on its own, in order of appearance', () => {
    const groups = groupOutcomes(corpus);
    expect(groups.map((group) => [group.name, group.split, group.suites])).toEqual([
      ['dev', 'dev', ['corpus-dev']],
      ['test', 'test', ['corpus-test']],
      ['labelled-turns', null, ['labelled-turns']],
    ]);
    expect(groups[0]!.overall).toMatchObject({ turns: 3, truePositives: 1, falseNegatives: 1, falsePositives: 0, recall: 0.5, turnsShowing: 2, turnsWithFalsePositive: 0 });
    expect(groups[1]!.overall).toMatchObject({ turns: 3, truePositives: 1, falsePositives: 2, precision: 1 / 3, recall: 1, turnsShowing: 1, turnsWithFalsePositive: 2 });
    expect(groups[1]!.byKind['off_topic']).toMatchObject({ turns: 1, turnsShowing: 0, turnsWithFalsePositive: 1, recall: null });
  });

  it('keeps two suites of the same split together', () => {
    const more = outcome({ id: 'd9', suite: 'more-dev', split: 'dev', kind: 'exact', expected: ['k1'], predicted: ['k1'] });
    expect(groupOutcomes([...corpus, more]).map((group) => [group.name, group.suites, group.overall.turns])).toEqual([
      ['dev', ['corpus-dev', 'more-dev'], 4],
      ['test', ['corpus-test'], 3],
      ['labelled-turns', ['labelled-turns'], 1],
    ]);
  });
});

describe('labelledReport with a dev/test corpus', () => {
  const markdown = renderMarkdown(labelledReport(summarizeLabelled(corpus, { ...metadata, suites: ['corpus-dev', 'corpus-test', 'labelled-turns'] })));

  it('prints dev and test figures apart, with a per-kind table of recall and false-positive turns for each', () => {
    expect(markdown).toContain('## By split and suite');
    expect(markdown).toContain('| dev split (corpus-dev) | 3 | 1.00 | 0.50 | 0.67 | 0 (0%) | — | 0 | 0 |');
    expect(markdown).toContain('| test split (corpus-test) | 3 | 0.33 | 1.00 | 0.50 | 2 (67%) | — | 0 | 0 |');
    expect(markdown).toContain('| suite labelled-turns | 1 | 1.00 | 1.00 | 1.00 | 0 (0%) | — | 0 | 0 |');
    expect(markdown).toContain('### Per kind: test split (corpus-test)\n\n| | turns | turns showing points | precision | recall | F1 | TP/FP/FN | turns with a false positive | turns exactly right |'.replace('| |', '|   |'));
    expect(markdown).toContain('| near_miss | 1 | 0 | 0.00 | — | — | 0/1/0 | 1 (100%) | 0 |');
    expect(markdown).toContain('| off_topic | 1 | 0 | 0.00 | — | — | 0/1/0 | 1 (100%) | 0 |');
  });

  it('lists the confusions of the dev split but none of the test split, saying how many it left out', () => {
    expect(markdown).toContain('## Confusions (1)');
    expect(markdown).toContain('corpus-dev/d2 (paraphrase) “the mitochondria make the ATP”');
    expect(markdown).toContain('Not listed: the 2 turns of the test split judged otherwise than labelled (a frozen split is only scored).');
    expect(markdown).not.toContain('corpus-test/');
    expect(markdown).not.toContain('ribosomes build lipids');
    expect(markdown).not.toContain('my energy drink is empty');
  });

  it('has no split section for a run of one suite without a split', () => {
    expect(renderMarkdown(labelledReport(summarizeLabelled(outcomes, metadata)))).not.toContain('By split and suite');
  });
});

describe('compareLabelledReport with a dev/test corpus', () => {
  it('shows precision, recall and F1 per split and lists changed turns of the dev split only', () => {
    const a = summarizeLabelled(corpus, metadata);
    const b = summarizeLabelled(
      corpus.map((each) => (each.id === 'd2' ? { ...each, predicted: ['k2'] } : each.id === 't2' ? { ...each, predicted: [] } : each)),
      { ...metadata, label: 'model' },
    );
    const markdown = renderMarkdown(compareLabelledReport({ name: 'a.json', run: a }, { name: 'b.json', run: b }));
    expect(markdown).toContain('| recall (dev) | 0.50 | 1.00 | +0.50 |');
    expect(markdown).toContain('| precision (test) | 0.33 | 0.50 | +0.17 |');
    expect(markdown).toContain('## Turns judged differently (1)');
    expect(markdown).toContain('⬆ corpus-dev/d2 (paraphrase)');
    expect(markdown).toContain('Not listed: 1 turns of the test split (a frozen split is only scored).');
    expect(markdown).not.toContain('corpus-test/');
  });

  it('reads a result written before splits and false-positive counts existed', () => {
    const { groups: _groups, ...older } = summarizeLabelled(outcomes, metadata);
    const parsed = LabelledRunResult.parse(JSON.parse(JSON.stringify({ ...older, overall: { ...older.overall, turnsShowing: undefined, turnsWithFalsePositive: undefined }, outcomes: outcomes.map(({ split: _split, ...rest }) => rest) })));
    expect(parsed.groups).toEqual([]);
    expect(parsed.outcomes.every((each) => each.split === null)).toBe(true);
    expect(renderMarkdown(labelledReport(parsed))).toContain('| overall | 8 | — | 0.50 | 0.60 | 0.55 | 3/3/2 | — | 4 |');
  });
});
