/**
 * The surveys shipped with the server (SPEC §4.5 example): the `*.json` files of
 * server/surveys/, read and validated at start — an invalid file stops the start with
 * `<file>: field: message` — then installed as built-in, shared surveys. A survey's id is its
 * file name without `.json`. `parseBuiltInSurveys` is pure; only `loadBuiltInSurveys` reads
 * the disk.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SurveyContent } from '@tutorloop/shared';
import { serverPaths } from '../../paths';
import type { BuiltInSurvey } from '../storage/surveys';
import { formatSurveyIssues } from './validate-survey';

/** server/surveys, next to server/src (and server/dist). */
export const defaultSurveyDir = serverPaths.surveys;

export interface SurveySource {
  name: string;
  text: string;
}

export class SurveyFileError extends Error {
  override readonly name = 'SurveyFileError';
  constructor(readonly problems: string[]) {
    super(`invalid built-in surveys:\n${problems.join('\n')}`);
  }
}

const surveyId = /^[a-z0-9][a-z0-9-]{0,79}$/;

/** Validates the files; throws a SurveyFileError listing every problem. */
export function parseBuiltInSurveys(sources: readonly SurveySource[]): BuiltInSurvey[] {
  const problems: string[] = [];
  const surveys: BuiltInSurvey[] = [];
  for (const source of [...sources].sort((left, right) => left.name.localeCompare(right.name))) {
    const match = /^(.*)\.json$/.exec(source.name);
    if (!match) continue;
    const id = match[1]!;
    if (!surveyId.test(id)) {
      problems.push(`${source.name}: the file name is the survey's id: lower-case letters, digits and "-" only`);
      continue;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(source.text);
    } catch (error) {
      problems.push(`${source.name}: not valid JSON (${(error as Error).message})`);
      continue;
    }
    const parsed = SurveyContent.safeParse(raw);
    if (parsed.success) surveys.push({ id, survey: parsed.data });
    else problems.push(`${source.name}: ${formatSurveyIssues(parsed.error, 'survey')}`);
  }
  if (problems.length > 0) throw new SurveyFileError(problems);
  return surveys;
}

/** Reads `<dir>/*.json` and validates them. */
export function loadBuiltInSurveys(dir: string = defaultSurveyDir): BuiltInSurvey[] {
  if (!existsSync(dir)) return [];
  const sources = readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => ({ name, text: readFileSync(join(dir, name), 'utf8') }));
  return parseBuiltInSurveys(sources);
}
