/** `pnpm eval compare a.json b.json`: prints, and with `--out` writes, the comparison. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CommandIo } from '../console/console-output';
import { compareLabelledReport } from '../labelled/labelled-report';
import { LabelledRunResult } from '../labelled/labelled-schema';
import { compareReport } from '../reports/compare-report';
import { renderMarkdown } from '../reports/document';
import { RunResult } from '../results/result-schema';
import { displayPath, formatIssuePath } from '../suites/load-suites';
import { ExitCodes } from './run-command';

export interface CompareCommandOptions {
  a: string;
  b: string;
  /** Folder for `compare.md`; null writes nothing. */
  out: string | null;
  cwd: string;
}

export interface CompareCommandOutcome {
  exitCode: number;
  markdown: string | null;
  files: string[];
}

/** Reads a result file; errors name the file (and the field). */
export function readRunResult(file: string, cwd: string): { ok: true; value: RunResult } | { ok: false; error: string } {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path.resolve(cwd, file), 'utf8'));
  } catch (error) {
    return { ok: false, error: `${file}: cannot read a JSON result: ${(error as Error).message}` };
  }
  const parsed = RunResult.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, error: `${file}: not an eval result (result.json): ${formatIssuePath(issue.path)}: ${issue.message}` };
  }
  return { ok: true, value: parsed.data };
}

/** Reads a labelled result (`pnpm eval labelled`), or null when the file is not one. */
function readLabelledResult(file: string, cwd: string): LabelledRunResult | null {
  try {
    const parsed = LabelledRunResult.safeParse(JSON.parse(readFileSync(path.resolve(cwd, file), 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function compareCommand(options: CompareCommandOptions, io: CommandIo): CompareCommandOutcome {
  const nameA = displayPath(path.resolve(options.cwd, options.a), options.cwd);
  const nameB = displayPath(path.resolve(options.cwd, options.b), options.cwd);
  // Two labelled runs (evaluator accuracy) compare by their figures; anything else as scenario runs.
  const labelledA = readLabelledResult(nameA, options.cwd);
  const labelledB = readLabelledResult(nameB, options.cwd);
  if (labelledA && labelledB) return writeComparison(renderMarkdown(compareLabelledReport({ name: nameA, run: labelledA }, { name: nameB, run: labelledB })), options, io);
  const a = readRunResult(nameA, options.cwd);
  const b = readRunResult(nameB, options.cwd);
  const errors = [a, b].flatMap((result) => (result.ok ? [] : [result.error]));
  if (!a.ok || !b.ok) {
    for (const error of errors) io.stderr(error);
    return { exitCode: ExitCodes.unusable, markdown: null, files: [] };
  }
  return writeComparison(renderMarkdown(compareReport({ name: nameA, run: a.value }, { name: nameB, run: b.value })), options, io);
}

function writeComparison(markdown: string, options: CompareCommandOptions, io: CommandIo): CompareCommandOutcome {
  io.stdout(markdown);
  const files: string[] = [];
  if (options.out) {
    const folder = path.resolve(options.cwd, options.out);
    mkdirSync(folder, { recursive: true });
    const file = path.join(folder, 'compare.md');
    writeFileSync(file, markdown);
    files.push(file);
    io.stdout(`Written: ${displayPath(file, options.cwd)}`);
  }
  return { exitCode: ExitCodes.passed, markdown, files };
}
