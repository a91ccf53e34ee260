/**
 * Finds suite files (files or folders given on the command line; a folder means the
 * `*.json` files directly in it, so `eval/suites/failing/` stays out of `eval/suites`),
 * parses and validates them. Every problem names the file and the field.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { SuiteFile, type Suite } from './suite-schema';

export type LoadResult = { ok: true; value: Suite[] } | { ok: false; errors: string[] };

/** `cases[0].learner.turns[2].say` from a zod issue path. */
export function formatIssuePath(issuePath: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const key of issuePath) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out || '(top level)';
}

/** One line per issue: `file: field: message`. */
export function describeSuiteIssues(file: string, error: z.ZodError): string[] {
  return error.issues.map((issue) => `${file}: ${formatIssuePath(issue.path)}: ${issue.message}`);
}

/** Validates the text of one suite file. */
export function parseSuite(file: string, text: string): { ok: true; value: Suite } | { ok: false; errors: string[] } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { ok: false, errors: [`${file}: not valid JSON: ${(error as Error).message}`] };
  }
  const parsed = SuiteFile.safeParse(data);
  if (!parsed.success) return { ok: false, errors: describeSuiteIssues(file, parsed.error) };
  const suite = parsed.data;
  return {
    ok: true,
    value: {
      name: suite.name ?? path.basename(file, '.json'),
      ...(suite.description ? { description: suite.description } : {}),
      file,
      // The schema guarantees a session on the suite or on every case.
      cases: suite.cases.map((testCase) => ({ ...testCase, session: (testCase.session ?? suite.session)! })),
    },
  };
}

/** Relative to the working directory when inside it, else absolute. */
export function displayPath(file: string, cwd: string): string {
  const relative = path.relative(cwd, file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

/** Expands files and folders to suite files, sorted within each folder. */
export function findSuiteFiles(targets: readonly string[], cwd: string): { ok: true; value: string[] } | { ok: false; errors: string[] } {
  const files: string[] = [];
  const errors: string[] = [];
  for (const target of targets) {
    const absolute = path.resolve(cwd, target);
    let stats;
    try {
      stats = statSync(absolute);
    } catch {
      errors.push(`${target}: no such file or folder`);
      continue;
    }
    if (stats.isDirectory()) {
      const found = readdirSync(absolute)
        .filter((name) => name.endsWith('.json'))
        .sort()
        .map((name) => path.join(absolute, name));
      if (found.length === 0) errors.push(`${target}: no *.json suite files in this folder`);
      files.push(...found);
    } else {
      files.push(absolute);
    }
  }
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, value: [...new Set(files)] };
}

/** Loads and validates every suite; suite names must be unique across the run. */
export function loadSuites(targets: readonly string[], cwd: string = process.cwd()): LoadResult {
  const found = findSuiteFiles(targets, cwd);
  if (!found.ok) return found;
  const suites: Suite[] = [];
  const errors: string[] = [];
  for (const absolute of found.value) {
    const file = displayPath(absolute, cwd);
    let text: string;
    try {
      text = readFileSync(absolute, 'utf8');
    } catch (error) {
      errors.push(`${file}: cannot read: ${(error as Error).message}`);
      continue;
    }
    const parsed = parseSuite(file, text);
    if (parsed.ok) suites.push(parsed.value);
    else errors.push(...parsed.errors);
  }
  const byName = new Map<string, string>();
  for (const suite of suites) {
    const other = byName.get(suite.name);
    if (other) errors.push(`${suite.file}: name: suite name "${suite.name}" is also used by ${other}`);
    byName.set(suite.name, suite.file);
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value: suites };
}
