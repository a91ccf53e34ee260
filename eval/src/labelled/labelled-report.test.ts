/** Labelled-turn figures, reports and comparison (eval/README.md "Labelled turns"): pure, on hand-made outcomes. */
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../reports/document';
import { compareLabelledReport, labelledReport, scoreOutcomes, summarizeLabelled } from './labelled-report';
import type { LabelledOutcome, LabelledRunResult } from './labelled-schema';

function outcome(overrides: Partial<LabelledOutcome> & Pick<LabelledOutcome, 'id' | 'kind' | 'expected' | 'predicted'>): LabelledOutcome {
  return {
    suite: 'labelled-turns',
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
