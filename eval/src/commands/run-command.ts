/**
 * `pnpm eval [suites…]`: load and validate the suites, start a server on a temporary
 * database (or use `--url`), run every case, write `result.json` + `report.md` (+
 * `report.html`), print the outcome. Exit code 0 when every case that ran passed, 1 when
 * an expectation failed, 2 when the run could not happen (bad suite, no server, bad login).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Credentials } from '@tutorloop/shared';
import { closingLines, createProgress, type CommandIo } from '../console/console-output';
import { anthropicSettingsFromEnvironment } from '../learners/anthropic-messages';
import { repositoryRoot, startLocalServer, type LocalServer, type TutorProvider } from '../protocol/local-server';
import { renderHtml, renderMarkdown } from '../reports/document';
import { plural } from '../reports/format';
import { runReport } from '../reports/run-report';
import type { RunResult } from '../results/result-schema';
import { runEvaluation, type EvaluationTarget } from '../runner/run-evaluation';
import { displayPath, loadSuites } from '../suites/load-suites';
import type { Suite } from '../suites/suite-schema';

/** Where suites are found when none are named: `*.json` directly in it (not `failing/`). */
export const defaultSuitesFolder = path.join(repositoryRoot, 'eval', 'suites');
/** Where reports go unless `--out` says otherwise. */
export const defaultOutFolder = path.join(repositoryRoot, 'reports', 'eval');

export const ExitCodes = { passed: 0, failed: 1, unusable: 2 } as const;

export interface RunCommandOptions {
  /** Suite files or folders; none → `eval/suites`. */
  suites: string[];
  /** A running server; none → start one on a temporary database. */
  url?: string;
  username?: string;
  password?: string;
  /** `LLM_PROVIDER` of a server eval starts. */
  provider: TutorProvider;
  concurrency: number;
  /** Folder for the reports; null writes none. */
  out: string | null;
  html: boolean;
  label: string | null;
  turnTimeoutSeconds: number;
  /** Only cases whose `suite › case` or `suite/case` contains this text. */
  filter?: string;
  progress: boolean;
  cwd: string;
  /** Where ANTHROPIC_API_KEY / ANTHROPIC_BASE_URL are read for simulated learners. */
  environment: NodeJS.ProcessEnv;
}

export interface RunCommandOutcome {
  exitCode: number;
  result: RunResult | null;
  /** Report files written. */
  files: string[];
}

function freshCredentials(): Credentials {
  return { username: `eval-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`, password: randomBytes(18).toString('base64url') };
}

function selectCases(suites: Suite[], filter: string | undefined): Suite[] {
  if (!filter) return suites;
  const needle = filter.toLowerCase();
  const matches = (suite: Suite, name: string) => [`${suite.name} › ${name}`, `${suite.name}/${name}`].some((full) => full.toLowerCase().includes(needle));
  return suites
    .map((suite) => {
      // A case compared with another (`repliesShorterThan`) brings that case along.
      const peers = new Set(suite.cases.filter((testCase) => matches(suite, testCase.name)).flatMap((testCase) => testCase.expect?.repliesShorterThan ?? []));
      return { ...suite, cases: suite.cases.filter((testCase) => matches(suite, testCase.name) || peers.has(testCase.name)) };
    })
    .filter((suite) => suite.cases.length > 0);
}

function resolveCredentials(options: RunCommandOptions): { ok: true; value: Credentials } | { ok: false; error: string } {
  if (options.username === undefined && options.password === undefined) return { ok: true, value: freshCredentials() };
  if (options.username === undefined || options.password === undefined) return { ok: false, error: '--username and --password go together' };
  const parsed = Credentials.safeParse({ username: options.username, password: options.password });
  if (!parsed.success) return { ok: false, error: `invalid credentials: ${parsed.error.issues.map((issue) => issue.message).join('; ')}` };
  return { ok: true, value: parsed.data };
}

/** Writes result.json, report.md and (with html) report.html; returns their paths. */
export function writeReports(run: RunResult, folder: string, html: boolean): string[] {
  mkdirSync(folder, { recursive: true });
  const files: Array<[string, string]> = [
    ['result.json', `${JSON.stringify(run, null, 2)}\n`],
    ['report.md', renderMarkdown(runReport(run))],
  ];
  if (html) files.push(['report.html', renderHtml(runReport(run), `tutorloop evaluation${run.metadata.label ? `: ${run.metadata.label}` : ''}`)]);
  return files.map(([name, content]) => {
    const file = path.join(folder, name);
    writeFileSync(file, content);
    return file;
  });
}

export async function runSuitesCommand(options: RunCommandOptions, io: CommandIo): Promise<RunCommandOutcome> {
  const unusable = (message: string): RunCommandOutcome => {
    io.stderr(message);
    return { exitCode: ExitCodes.unusable, result: null, files: [] };
  };
  const loaded = loadSuites(options.suites.length > 0 ? options.suites : [defaultSuitesFolder], options.cwd);
  if (!loaded.ok) return unusable(`Invalid suites:\n${loaded.errors.map((error) => `  ${error}`).join('\n')}`);
  const suites = selectCases(loaded.value, options.filter);
  const total = suites.reduce((sum, suite) => sum + suite.cases.length, 0);
  if (total === 0) return unusable(`No case matches "${options.filter ?? ''}".`);
  const credentials = resolveCredentials(options);
  if (!credentials.ok) return unusable(credentials.error);

  let server: LocalServer | null = null;
  let target: EvaluationTarget;
  if (options.url) {
    target = { url: options.url, server: 'external', credentials: credentials.value };
  } else {
    io.stdout(`Starting a tutorloop server (LLM_PROVIDER=${options.provider}) on a temporary database…`);
    const started = await startLocalServer({ provider: options.provider });
    if (!started.ok) return unusable(started.error);
    server = started.value;
    target = { url: server.url, server: 'started', credentials: credentials.value };
  }

  io.stdout(`Running ${plural(total, 'case', 'cases')} from ${plural(suites.length, 'suite', 'suites')} against ${target.url} (concurrency ${options.concurrency})`);
  const progress = createProgress(total, io, options.progress);
  let evaluation;
  try {
    evaluation = await runEvaluation({
      suites,
      target,
      concurrency: options.concurrency,
      turnTimeoutMs: options.turnTimeoutSeconds * 1000,
      label: options.label,
      environment: { anthropic: anthropicSettingsFromEnvironment(options.environment) },
      onCaseStart: (suite, caseName) => progress.caseStarted(`${suite.name} › ${caseName}`),
      onCaseDone: (result) => progress.caseDone(result),
    });
  } finally {
    progress.stop();
    await server?.stop();
  }
  if (!evaluation.ok) return unusable(evaluation.error);

  const run = evaluation.value;
  for (const line of closingLines(run)) io.stdout(line);
  const files = options.out ? writeReports(run, path.resolve(options.cwd, options.out), options.html) : [];
  if (files.length > 0) io.stdout(`Reports: ${files.map((file) => displayPath(file, options.cwd)).join(', ')}`);
  return { exitCode: run.summary.failed > 0 ? ExitCodes.failed : ExitCodes.passed, result: run, files };
}
