/**
 * What the run prints: one line per finished case (through the progress bar's log when a
 * bar is shown, so lines and bar do not tangle), the failures, and the totals. The bar
 * (cli-progress) is drawn on stderr, and only when stderr is a terminal.
 */
import cliProgress from 'cli-progress';
import type { CaseResult, RunResult } from '../results/result-schema';
import { formatMs, formatRecalled, plural } from '../reports/format';

export interface CommandIo {
  stdout(line: string): void;
  stderr(line: string): void;
  /** True when a progress bar may be drawn (stderr is a terminal). */
  interactive: boolean;
}

export const processIo: CommandIo = {
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
  interactive: Boolean(process.stderr.isTTY),
};

const marks = { passed: '✓', failed: '✗', not_run: '-' } as const;

/** `✓ suite › case — 3/3 recalled in 3 turns, completed at turn 3, mean TTFT 40 ms`. */
export function caseLine(result: CaseResult): string {
  const name = `${marks[result.status]} ${result.suite} › ${result.case}`;
  if (result.status === 'not_run') return `${name} — not run: ${result.reason ?? ''}`;
  if (result.reason) return `${name} — ${result.reason}`;
  const turns = result.outcome.learnerTurns;
  const parts = [
    `${formatRecalled(result.outcome.recalledCount, result.outcome.totalPoints)} ${{ recall: 'recalled', assessment: 'answered', learning: 'steps done' }[result.sessionType]} in ${plural(turns, 'turn', 'turns')}`,
    result.outcome.completedAtTurn === null ? 'not completed' : `completed at turn ${result.outcome.completedAtTurn}`,
    `mean TTFT ${formatMs(result.metrics.meanTtftMs)}`,
  ];
  if (result.metrics.leaks > 0) parts.push(plural(result.metrics.leaks, 'leak', 'leaks'));
  return `${name} — ${parts.join(', ')}`;
}

/** The closing lines: failures (each naming suite, case and turn) and the totals. */
export function closingLines(run: RunResult): string[] {
  const lines: string[] = [];
  const failures = run.cases.flatMap((result) => result.failures);
  if (failures.length > 0) {
    lines.push('', 'Failed expectations:');
    for (const failure of failures) lines.push(`  ✗ ${failure.message}`);
  }
  const { summary, metadata } = run;
  lines.push(
    '',
    `${summary.passed} passed, ${summary.failed} failed, ${summary.notRun} not run (${plural(summary.cases, 'case', 'cases')}) in ${formatMs(metadata.durationMs)} — ${metadata.tutor} tutor at ${metadata.serverUrl}`,
  );
  return lines;
}

export interface RunProgress {
  caseStarted(name: string): void;
  caseDone(result: CaseResult): void;
  stop(): void;
}

export function createProgress(total: number, io: CommandIo, enabled: boolean): RunProgress {
  if (!enabled || !io.interactive) {
    return { caseStarted: () => undefined, caseDone: (result) => io.stdout(`  ${caseLine(result)}`), stop: () => undefined };
  }
  const bars = new cliProgress.MultiBar(
    { format: '  {bar} {value}/{total} cases | {current}', clearOnComplete: true, hideCursor: true, stream: process.stderr },
    cliProgress.Presets.shades_classic,
  );
  const bar = bars.create(total, 0, { current: 'starting…' });
  return {
    caseStarted: (name) => bar.update({ current: name }),
    caseDone: (result) => {
      bars.log(`  ${caseLine(result)}\n`);
      bar.increment(1);
    },
    stop: () => {
      // Lines logged since the last redraw are only written by a redraw: flush them first.
      bars.update();
      bars.stop();
    },
  };
}
