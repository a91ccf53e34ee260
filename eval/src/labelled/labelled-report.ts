/**
 * Figures of a labelled run — precision, recall and F1 over (turn, point) pairs, overall and
 * per kind; the contradiction rate; questions graded — the confusion list of the misses, and
 * the side-by-side comparison of two runs. Pure.
 */
import type { ReportDocument } from '../reports/document';
import { truncate } from '../reports/format';
import { LabelledKinds, type LabelledOutcome, type LabelledRunResult, type Scores } from './labelled-schema';

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
  }
  const precision = ratio(truePositives, truePositives + falsePositives);
  const recall = ratio(truePositives, truePositives + falseNegatives);
  const f1 = precision === null || recall === null || precision + recall === 0 ? null : (2 * precision * recall) / (precision + recall);
  return { turns, truePositives, falsePositives, falseNegatives, precision, recall, f1, exactTurns };
}

/** The whole labelled result from the outcomes. */
export function summarizeLabelled(outcomes: LabelledOutcome[], metadata: LabelledRunResult['metadata']): LabelledRunResult {
  const byKind: Record<string, Scores> = {};
  for (const kind of LabelledKinds) {
    const of = outcomes.filter((outcome) => outcome.kind === kind);
    if (of.length > 0) byKind[kind] = scoreOutcomes(of);
  }
  const contradictions = outcomes.filter((outcome) => outcome.kind === 'contradiction' && outcome.predicted !== null);
  const counted = contradictions.filter((outcome) => outcome.predicted!.some((key) => outcome.contradicts.includes(key))).length;
  const questions = outcomes.filter((outcome) => outcome.kind === 'question' && outcome.predicted !== null);
  return {
    schemaVersion: 1,
    kind: 'labelled',
    metadata,
    overall: scoreOutcomes(outcomes),
    byKind,
    contradictionRate: ratio(counted, contradictions.length),
    questionsGraded: questions.filter((outcome) => outcome.predicted!.length > 0).length,
    notScored: outcomes.filter((outcome) => outcome.predicted === null).length,
    outcomes,
  };
}

function pct(value: number | null): string {
  return value === null ? '—' : value.toFixed(2);
}

function scoreRow(name: string, scores: Scores): string[] {
  return [name, String(scores.turns), pct(scores.precision), pct(scores.recall), pct(scores.f1), `${scores.truePositives}/${scores.falsePositives}/${scores.falseNegatives}`, String(scores.exactTurns)];
}

const scoreHeader = ['', 'turns', 'precision', 'recall', 'F1', 'TP/FP/FN', 'turns exactly right'];

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
  const misses = run.outcomes.map(confusion).filter((line): line is string => line !== null);
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
    { type: 'heading', level: 2, text: 'Per kind' },
    { type: 'table', header: scoreHeader, rows: [scoreRow('overall', run.overall), ...Object.entries(run.byKind).map(([kind, scores]) => scoreRow(kind, scores))] },
    { type: 'heading', level: 2, text: `Confusions (${misses.length})` },
    misses.length > 0 ? { type: 'list', items: misses } : { type: 'paragraph', text: 'None: every scored turn was judged as labelled.' },
  ];
}

/** Two labelled runs side by side: figures, per-kind F1, and turns judged differently. */
export function compareLabelledReport(a: { name: string; run: LabelledRunResult }, b: { name: string; run: LabelledRunResult }): ReportDocument {
  const kinds = [...new Set([...Object.keys(a.run.byKind), ...Object.keys(b.run.byKind)])];
  const right = (outcome: LabelledOutcome | undefined) => outcome !== undefined && outcome.predicted !== null && confusion(outcome) === null;
  const inB = new Map(b.run.outcomes.map((outcome) => [`${outcome.suite}/${outcome.id}`, outcome]));
  const changed = a.run.outcomes.flatMap((outcome) => {
    const other = inB.get(`${outcome.suite}/${outcome.id}`);
    if (right(outcome) === right(other)) return [];
    return [`${right(outcome) ? '⬇' : '⬆'} ${outcome.suite}/${outcome.id} (${outcome.kind}) “${truncate(outcome.message, 90)}”: A ${JSON.stringify(outcome.predicted)}, B ${JSON.stringify(other?.predicted ?? null)}, labelled ${JSON.stringify(outcome.expected)}`];
  });
  const delta = (x: number | null, y: number | null) => (x === null || y === null ? '' : `${y - x >= 0 ? '+' : ''}${(y - x).toFixed(2)}`);
  const row = (name: string, x: number | null, y: number | null) => [name, pct(x), pct(y), delta(x, y)];
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
        ...kinds.map((kind) => row(`F1 ${kind}`, a.run.byKind[kind]?.f1 ?? null, b.run.byKind[kind]?.f1 ?? null)),
      ],
    },
    { type: 'heading', level: 2, text: `Turns judged differently (${changed.length})` },
    changed.length > 0 ? { type: 'list', items: changed } : { type: 'paragraph', text: 'None.' },
  ];
}
