/**
 * Figures of a labelled run — precision, recall and F1 over (turn, point) pairs, overall and
 * per kind; the contradiction rate; questions graded — the same per split (dev, test) and per
 * suite without a split, the confusion list of the misses (never of a test split's turns: it
 * is only scored), and the side-by-side comparison of two runs. Pure.
 */
import type { ReportDocument } from '../reports/document';
import { truncate } from '../reports/format';
import { LabelledKinds, type LabelledGroup, type LabelledOutcome, type LabelledRunResult, type Scores } from './labelled-schema';

function ratio(numerator: number, denominator: number): number | null {
  return denominator === 0 ? null : numerator / denominator;
}

/** Scores over the scored outcomes (those with a prediction). */
export function scoreOutcomes(outcomes: readonly LabelledOutcome[]): Scores {
  let truePositives = 0;
  let falsePositives = 0;
  let falseNegatives = 0;
  let exactTurns = 0;
  let turns = 0;
  let turnsShowing = 0;
  let turnsWithFalsePositive = 0;
  for (const outcome of outcomes) {
    if (outcome.predicted === null) continue;
    turns += 1;
    const expected = new Set(outcome.expected.filter((key) => !outcome.recalledInContext.includes(key)));
    const predicted = new Set(outcome.predicted);
    const tp = [...predicted].filter((key) => expected.has(key)).length;
    truePositives += tp;
    falsePositives += predicted.size - tp;
    falseNegatives += expected.size - tp;
    if (tp === predicted.size && tp === expected.size) exactTurns += 1;
    if (expected.size > 0) turnsShowing += 1;
    if (predicted.size > tp) turnsWithFalsePositive += 1;
  }
  const precision = ratio(truePositives, truePositives + falsePositives);
  const recall = ratio(truePositives, truePositives + falseNegatives);
  const f1 = precision === null || recall === null || precision + recall === 0 ? null : (2 * precision * recall) / (precision + recall);
  return { turns, truePositives, falsePositives, falseNegatives, precision, recall, f1, exactTurns, turnsShowing, turnsWithFalsePositive };
}

/** Per-kind scores, the contradiction rate, questions graded and turns not scored of some outcomes. */
function figuresOf(outcomes: readonly LabelledOutcome[]): Pick<LabelledRunResult, 'overall' | 'byKind' | 'contradictionRate' | 'questionsGraded' | 'notScored'> {
  const byKind: Record<string, Scores> = {};
  for (const kind of LabelledKinds) {
    const of = outcomes.filter((outcome) => outcome.kind === kind);
    if (of.length > 0) byKind[kind] = scoreOutcomes(of);
  }
  const contradictions = outcomes.filter((outcome) => outcome.kind === 'contradiction' && outcome.predicted !== null);
  const counted = contradictions.filter((outcome) => outcome.predicted!.some((key) => outcome.contradicts.includes(key))).length;
  const questions = outcomes.filter((outcome) => outcome.kind === 'question' && outcome.predicted !== null);
  return {
    overall: scoreOutcomes(outcomes),
    byKind,
    contradictionRate: ratio(counted, contradictions.length),
    questionsGraded: questions.filter((outcome) => outcome.predicted!.length > 0).length,
    notScored: outcomes.filter((outcome) => outcome.predicted === null).length,
  };
}

/**
 * The run's parts, in order of first appearance: one per split (all its suites together) and
 * one per suite without a split.
 */
export function groupOutcomes(outcomes: readonly LabelledOutcome[]): LabelledGroup[] {
  const groups = new Map<string, { split: LabelledOutcome['split']; suites: string[]; outcomes: LabelledOutcome[] }>();
  for (const outcome of outcomes) {
    // A suite named like a split stays apart from it.
    const key = outcome.split ? `split:${outcome.split}` : `suite:${outcome.suite}`;
    const group = groups.get(key) ?? { split: outcome.split, suites: [], outcomes: [] };
    if (!group.suites.includes(outcome.suite)) group.suites.push(outcome.suite);
    group.outcomes.push(outcome);
    groups.set(key, group);
  }
  return [...groups.values()].map((group) => ({ name: group.split ?? group.suites[0]!, split: group.split, suites: group.suites, ...figuresOf(group.outcomes) }));
}

/** The whole labelled result from the outcomes. */
export function summarizeLabelled(outcomes: LabelledOutcome[], metadata: LabelledRunResult['metadata']): LabelledRunResult {
  return { schemaVersion: 1, kind: 'labelled', metadata, ...figuresOf(outcomes), groups: groupOutcomes(outcomes), outcomes };
}

function pct(value: number | null): string {
  return value === null ? '—' : value.toFixed(2);
}

/** `12 (8%)` of the scored turns; `—` in results written before the count existed. */
function turnShare(count: number | undefined, turns: number): string {
  if (count === undefined) return '—';
  return turns === 0 ? String(count) : `${count} (${((count / turns) * 100).toFixed(0)}%)`;
}

function scoreRow(name: string, scores: Scores): string[] {
  return [
    name,
    String(scores.turns),
    scores.turnsShowing === undefined ? '—' : String(scores.turnsShowing),
    pct(scores.precision),
    pct(scores.recall),
    pct(scores.f1),
    `${scores.truePositives}/${scores.falsePositives}/${scores.falseNegatives}`,
    turnShare(scores.turnsWithFalsePositive, scores.turns),
    String(scores.exactTurns),
  ];
}

// Recall is over the points of the turns that show some; a false positive is a turn where a point was counted that its labels do not show.
const scoreHeader = ['', 'turns', 'turns showing points', 'precision', 'recall', 'F1', 'TP/FP/FN', 'turns with a false positive', 'turns exactly right'];

function groupTitle(group: LabelledGroup): string {
  return group.split ? `${group.split} split (${group.suites.join(', ')})` : `suite ${group.name}`;
}

/** Figures per split and per suite without one; nothing when the run is a single suite without a split. */
function groupSections(run: LabelledRunResult): ReportDocument {
  if (run.groups.length < 2 && run.groups.every((group) => group.split === null)) return [];
  return [
    { type: 'heading', level: 2, text: 'By split and suite' },
    {
      type: 'table',
      header: ['', 'turns', 'precision', 'recall', 'F1', 'turns with a false positive', 'contradictions counted as recalled', 'questions graded as answers', 'not scored'],
      rows: run.groups.map((group) => [
        groupTitle(group),
        String(group.overall.turns),
        pct(group.overall.precision),
        pct(group.overall.recall),
        pct(group.overall.f1),
        turnShare(group.overall.turnsWithFalsePositive, group.overall.turns),
        group.contradictionRate === null ? '—' : `${(group.contradictionRate * 100).toFixed(0)}%`,
        String(group.questionsGraded),
        String(group.notScored),
      ]),
    },
    ...run.groups.flatMap((group): ReportDocument => [
      { type: 'heading', level: 3, text: `Per kind: ${groupTitle(group)}` },
      { type: 'table', header: scoreHeader, rows: [scoreRow('all kinds', group.overall), ...Object.entries(group.byKind).map(([kind, scores]) => scoreRow(kind, scores))] },
    ]),
  ];
}

/** What went wrong in one outcome, for the confusion list; null when it was right. */
function confusion(outcome: LabelledOutcome): string | null {
  if (outcome.predicted === null) return `${outcome.suite}/${outcome.id} (${outcome.kind}): not scored — ${outcome.error ?? 'unknown'}`;
  const expected = outcome.expected.filter((key) => !outcome.recalledInContext.includes(key));
  const missed = expected.filter((key) => !outcome.predicted!.includes(key));
  const extra = outcome.predicted.filter((key) => !expected.includes(key));
  if (missed.length === 0 && extra.length === 0) return null;
  const describe = (keys: string[]) => keys.map((key) => `${key} “${truncate(outcome.contents[key] ?? key, 70)}”`).join('; ');
  const parts = [`${outcome.suite}/${outcome.id} (${outcome.kind}) “${truncate(outcome.message, 110)}”`];
  if (missed.length > 0) parts.push(`missed: ${describe(missed)}`);
  if (extra.length > 0) parts.push(`wrongly recalled: ${describe(extra)}`);
  return parts.join('\n');
}

export function labelledReport(run: LabelledRunResult): ReportDocument {
  // A frozen test split is only scored: none of its turns is shown, so nobody tunes to them.
  const misses = run.outcomes.filter((outcome) => outcome.split !== 'test').map(confusion).filter((line): line is string => line !== null);
  const hidden = run.outcomes.filter((outcome) => outcome.split === 'test' && confusion(outcome) !== null).length;
  const paraphrase = run.byKind['paraphrase'];
  return [
    { type: 'heading', level: 1, text: `tutorloop evaluator accuracy${run.metadata.label ? `: ${run.metadata.label}` : ''}` },
    {
      type: 'table',
      header: ['', ''],
      rows: [
        ['tutor', run.metadata.tutor],
        ['server', run.metadata.serverUrl],
        ['started', run.metadata.startedAt],
        ['suites', run.metadata.suites.join(', ')],
        ['labelled turns scored', `${run.overall.turns} (${run.notScored} not scored)`],
      ],
    },
    { type: 'heading', level: 2, text: 'Figures' },
    {
      type: 'table',
      header: ['measure', 'value'],
      rows: [
        ['precision', pct(run.overall.precision)],
        ['recall', pct(run.overall.recall)],
        ['F1', pct(run.overall.f1)],
        ['paraphrase recall', pct(paraphrase?.recall ?? null)],
        ['contradictions counted as recalled', run.contradictionRate === null ? '—' : `${(run.contradictionRate * 100).toFixed(0)}%`],
        ['questions graded as answers', String(run.questionsGraded)],
      ],
    },
    ...groupSections(run),
    { type: 'heading', level: 2, text: 'Per kind' },
    { type: 'table', header: scoreHeader, rows: [scoreRow('overall', run.overall), ...Object.entries(run.byKind).map(([kind, scores]) => scoreRow(kind, scores))] },
    { type: 'heading', level: 2, text: `Confusions (${misses.length})` },
    ...(hidden > 0 ? [{ type: 'paragraph' as const, text: `Not listed: the ${hidden} turns of the test split judged otherwise than labelled (a frozen split is only scored).` }] : []),
    misses.length > 0 ? { type: 'list', items: misses } : { type: 'paragraph', text: hidden > 0 ? 'None outside the test split.' : 'None: every scored turn was judged as labelled.' },
  ];
}

/** Two labelled runs side by side: figures, per-kind F1, and turns judged differently. */
export function compareLabelledReport(a: { name: string; run: LabelledRunResult }, b: { name: string; run: LabelledRunResult }): ReportDocument {
  const kinds = [...new Set([...Object.keys(a.run.byKind), ...Object.keys(b.run.byKind)])];
  const right = (outcome: LabelledOutcome | undefined) => outcome !== undefined && outcome.predicted !== null && confusion(outcome) === null;
  const inB = new Map(b.run.outcomes.map((outcome) => [`${outcome.suite}/${outcome.id}`, outcome]));
  let hidden = 0;
  const changed = a.run.outcomes.flatMap((outcome) => {
    const other = inB.get(`${outcome.suite}/${outcome.id}`);
    if (right(outcome) === right(other)) return [];
    if (outcome.split === 'test') {
      hidden += 1;
      return [];
    }
    return [`${right(outcome) ? '⬇' : '⬆'} ${outcome.suite}/${outcome.id} (${outcome.kind}) “${truncate(outcome.message, 90)}”: A ${JSON.stringify(outcome.predicted)}, B ${JSON.stringify(other?.predicted ?? null)}, labelled ${JSON.stringify(outcome.expected)}`];
  });
  const delta = (x: number | null, y: number | null) => (x === null || y === null ? '' : `${y - x >= 0 ? '+' : ''}${(y - x).toFixed(2)}`);
  const row = (name: string, x: number | null, y: number | null) => [name, pct(x), pct(y), delta(x, y)];
  const groupNames = [...new Set([...a.run.groups, ...b.run.groups].map((group) => group.name))];
  const groupOf = (run: LabelledRunResult, name: string) => run.groups.find((group) => group.name === name)?.overall;
  const groupRows = groupNames.length < 2 ? [] : groupNames.flatMap((name) => (['precision', 'recall', 'F1'] as const).map((measure) => {
    const key = measure === 'F1' ? 'f1' : measure;
    return row(`${measure} (${name})`, groupOf(a.run, name)?.[key] ?? null, groupOf(b.run, name)?.[key] ?? null);
  }));
  return [
    { type: 'heading', level: 1, text: 'tutorloop evaluator accuracy: comparison' },
    {
      type: 'table',
      header: ['', 'A', 'B', 'B − A'],
      rows: [
        ['result file', a.name, b.name, ''],
        ['label', a.run.metadata.label ?? '—', b.run.metadata.label ?? '—', ''],
        ['tutor', a.run.metadata.tutor, b.run.metadata.tutor, ''],
        row('precision', a.run.overall.precision, b.run.overall.precision),
        row('recall', a.run.overall.recall, b.run.overall.recall),
        row('F1', a.run.overall.f1, b.run.overall.f1),
        row('paraphrase recall', a.run.byKind['paraphrase']?.recall ?? null, b.run.byKind['paraphrase']?.recall ?? null),
        row('contradictions counted', a.run.contradictionRate, b.run.contradictionRate),
        ['questions graded', String(a.run.questionsGraded), String(b.run.questionsGraded), ''],
        ...groupRows,
        ...kinds.map((kind) => row(`F1 ${kind}`, a.run.byKind[kind]?.f1 ?? null, b.run.byKind[kind]?.f1 ?? null)),
      ],
    },
    { type: 'heading', level: 2, text: `Turns judged differently (${changed.length})` },
    ...(hidden > 0 ? [{ type: 'paragraph' as const, text: `Not listed: ${hidden} turns of the test split (a frozen split is only scored).` }] : []),
    changed.length > 0 ? { type: 'list', items: changed } : { type: 'paragraph', text: 'None.' },
  ];
}
