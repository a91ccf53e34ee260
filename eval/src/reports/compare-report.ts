/**
 * Side-by-side comparison of two runs (A/B of prompts or models): the runs' metadata and
 * totals, then per case pass/fail, turns to complete, mean time to first token and leaks,
 * with regressions (passed in A, not in B) and fixes called out. Cases match by
 * `suite › case`.
 */
import type { CaseResult, RunResult } from '../results/result-schema';
import type { ReportDocument } from './document';
import { formatMs, plural, statusLabels } from './format';

export interface ComparedRun {
  /** How the run is named in the report (its file path). */
  name: string;
  run: RunResult;
}

function key(result: CaseResult): string {
  return `${result.suite} › ${result.case}`;
}

function meanOf(values: Array<number | null>): number | null {
  const present = values.filter((value): value is number => value !== null);
  return present.length === 0 ? null : present.reduce((sum, value) => sum + value, 0) / present.length;
}

function change(a: CaseResult | undefined, b: CaseResult | undefined): string {
  if (!a) return 'only in B';
  if (!b) return 'only in A';
  if (a.status === 'passed' && b.status === 'failed') return '⬇ regression';
  if (a.status === 'failed' && b.status === 'passed') return '⬆ fixed';
  return a.status === b.status ? '' : `${a.status} → ${b.status}`;
}

function turnsToComplete(result: CaseResult | undefined): string {
  if (!result) return '—';
  return result.outcome.completedAtTurn === null ? 'not completed' : String(result.outcome.completedAtTurn);
}

export function compareReport(a: ComparedRun, b: ComparedRun): ReportDocument {
  const inA = new Map(a.run.cases.map((result) => [key(result), result]));
  const inB = new Map(b.run.cases.map((result) => [key(result), result]));
  const keys = [...new Set([...inA.keys(), ...inB.keys()])];
  const totals = (run: RunResult) => ({
    passed: `${run.summary.passed}/${run.summary.cases}${run.summary.notRun ? ` (${run.summary.notRun} not run)` : ''}`,
    ttft: formatMs(meanOf(run.cases.map((result) => result.metrics.meanTtftMs))),
    total: formatMs(meanOf(run.cases.map((result) => result.metrics.meanTotalMs))),
    leaks: String(run.cases.reduce((sum, result) => sum + result.metrics.leaks, 0)),
  });
  const ta = totals(a.run);
  const tb = totals(b.run);
  const regressions = keys.filter((name) => change(inA.get(name), inB.get(name)) === '⬇ regression');
  const fixes = keys.filter((name) => change(inA.get(name), inB.get(name)) === '⬆ fixed');

  const document: ReportDocument = [
    { type: 'heading', level: 1, text: 'tutorloop evaluation: comparison' },
    {
      type: 'table',
      header: ['', 'A', 'B'],
      rows: [
        ['result file', a.name, b.name],
        ['label', a.run.metadata.label ?? '—', b.run.metadata.label ?? '—'],
        ['tutor', a.run.metadata.tutor, b.run.metadata.tutor],
        ['server', a.run.metadata.serverUrl, b.run.metadata.serverUrl],
        ['started', a.run.metadata.startedAt, b.run.metadata.startedAt],
        ['passed', ta.passed, tb.passed],
        ['mean TTFT', ta.ttft, tb.ttft],
        ['mean reply time', ta.total, tb.total],
        ['leaks', ta.leaks, tb.leaks],
      ],
    },
    {
      type: 'paragraph',
      text: `${plural(regressions.length, 'regression', 'regressions')}, ${fixes.length} fixed, ${plural(keys.length, 'case', 'cases')} compared.`,
    },
    { type: 'heading', level: 2, text: 'Cases' },
    {
      type: 'table',
      header: ['case', 'A', 'B', 'change', 'turns to complete A', 'turns to complete B', 'mean TTFT A', 'mean TTFT B', 'leaks A', 'leaks B'],
      rows: keys.map((name) => {
        const ra = inA.get(name);
        const rb = inB.get(name);
        return [
          name,
          ra ? statusLabels[ra.status] : '—',
          rb ? statusLabels[rb.status] : '—',
          change(ra, rb),
          turnsToComplete(ra),
          turnsToComplete(rb),
          formatMs(ra?.metrics.meanTtftMs ?? null),
          formatMs(rb?.metrics.meanTtftMs ?? null),
          ra ? String(ra.metrics.leaks) : '—',
          rb ? String(rb.metrics.leaks) : '—',
        ];
      }),
    },
  ];
  if (regressions.length > 0) {
    document.push(
      { type: 'heading', level: 2, text: 'Regressions' },
      { type: 'list', items: regressions.map((name) => `${name}: ${inB.get(name)?.failures.map((failure) => failure.message).join('\n') ?? ''}`) },
    );
  }
  return document;
}
