/**
 * `pnpm eval labelled [suites…]`: plays labelled turns (default: eval/suites/labelled/) against
 * a started server (any `--provider`) or `--url`, and reports the evaluator's precision, recall
 * and F1 overall and per kind, the contradiction rate and the confusions; writes `result.json`
 * and `report.md` into `--out`. Exit code 0 when the run happened, 2 when it could not.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CommandIo } from '../console/console-output';
import { labelledReport, summarizeLabelled } from '../labelled/labelled-report';
import { LabelledSuiteFile } from '../labelled/labelled-schema';
import { runLabelled, type LoadedLabelledSuite } from '../labelled/run-labelled';
import { ApiClient, describeApiFailure } from '../protocol/api-client';
import { repositoryRoot, startLocalServer, type LocalServer, type TutorProvider } from '../protocol/local-server';
import { renderMarkdown } from '../reports/document';
import { describeSuiteIssues, displayPath, findSuiteFiles } from '../suites/load-suites';
import { ExitCodes } from './run-command';

export const defaultLabelledFolder = path.join(repositoryRoot, 'eval', 'suites', 'labelled');

export interface LabelledCommandOptions {
  suites: string[];
  url?: string;
  provider: TutorProvider;
  concurrency: number;
  out: string | null;
  label: string | null;
  turnTimeoutSeconds: number;
  cwd: string;
}

/** Loads and validates labelled suite files; every problem names the file and the field. */
export function loadLabelledSuites(targets: readonly string[], cwd: string): { ok: true; value: LoadedLabelledSuite[] } | { ok: false; errors: string[] } {
  const found = findSuiteFiles(targets, cwd);
  if (!found.ok) return found;
  const suites: LoadedLabelledSuite[] = [];
  const errors: string[] = [];
  for (const absolute of found.value) {
    const file = displayPath(absolute, cwd);
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(absolute, 'utf8'));
    } catch (error) {
      errors.push(`${file}: not valid JSON: ${(error as Error).message}`);
      continue;
    }
    const parsed = LabelledSuiteFile.safeParse(data);
    if (!parsed.success) errors.push(...describeSuiteIssues(file, parsed.error));
    else suites.push({ name: parsed.data.name ?? path.basename(file, '.json'), file, suite: parsed.data });
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value: suites };
}

export async function labelledCommand(options: LabelledCommandOptions, io: CommandIo): Promise<{ exitCode: number; files: string[] }> {
  const unusable = (message: string) => {
    io.stderr(message);
    return { exitCode: ExitCodes.unusable, files: [] };
  };
  const loaded = loadLabelledSuites(options.suites.length > 0 ? options.suites : [defaultLabelledFolder], options.cwd);
  if (!loaded.ok) return unusable(`Invalid labelled suites:\n${loaded.errors.map((error) => `  ${error}`).join('\n')}`);
  let server: LocalServer | null = null;
  let url = options.url;
  if (!url) {
    io.stdout(`Starting a tutorloop server (LLM_PROVIDER=${options.provider}) on a temporary database…`);
    const started = await startLocalServer({ provider: options.provider });
    if (!started.ok) return unusable(started.error);
    server = started.value;
    url = server.url;
  }
  try {
    const anonymous = new ApiClient(url);
    const health = await anonymous.health();
    if (!health.ok) return unusable(`the server at ${url} is not answering: ${describeApiFailure(health.error)}`);
    const signIn = await anonymous.signIn({ username: `labelled-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`, password: randomBytes(18).toString('base64url') });
    if (!signIn.ok) return unusable(`could not sign in: ${describeApiFailure(signIn.error)}`);
    const api = anonymous.withToken(signIn.value.token);
    const total = loaded.value.reduce((sum, suite) => sum + suite.suite.turns.length, 0);
    io.stdout(`Playing ${total} labelled turns against ${url} (concurrency ${options.concurrency})`);
    const startedAt = new Date();
    const outcomes = await runLabelled(api, loaded.value, { concurrency: options.concurrency, timeoutMs: options.turnTimeoutSeconds * 1000 });
    const run = summarizeLabelled(outcomes, {
      label: options.label,
      serverUrl: url,
      tutor: health.value.tutor,
      startedAt: startedAt.toISOString(),
      durationMs: Date.now() - startedAt.getTime(),
      suites: loaded.value.map((suite) => suite.file),
    });
    const markdown = renderMarkdown(labelledReport(run));
    io.stdout(markdown);
    const files: string[] = [];
    if (options.out) {
      const folder = path.resolve(options.cwd, options.out);
      mkdirSync(folder, { recursive: true });
      for (const [name, content] of [['result.json', `${JSON.stringify(run, null, 2)}\n`], ['report.md', markdown]] as const) {
        const file = path.join(folder, name);
        writeFileSync(file, content);
        files.push(file);
      }
      io.stdout(`Reports: ${files.map((file) => displayPath(file, options.cwd)).join(', ')}`);
    }
    return { exitCode: ExitCodes.passed, files };
  } finally {
    await server?.stop();
  }
}
