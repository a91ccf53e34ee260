/**
 * The study plans shipped with the server (SPEC §4.4 "Ship at least three plans"): the
 * `*.json` and `*.md` files of server/study-plans/, read and validated at start — an invalid
 * file stops the start with `<file>: field: message (line N)` — then installed as built-in,
 * shared plans. A plan's id is its file name without the extension, so it stays the same
 * from one release to the next. `parseBuiltInPlans` is pure; only `loadBuiltInPlans` reads
 * the disk.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serverPaths } from '../../paths';
import type { BuiltInStudyPlan } from '../storage/study-plans';
import { importStudyPlan } from './import-plan';
import type { SkillBlueprintIds } from './validate-plan';

/** server/study-plans, next to server/src (and server/dist). */
export const defaultStudyPlanDir = serverPaths.studyPlans;

/** One plan file: its name (`ipv4-subnetting.md`) and text. */
export interface StudyPlanSource {
  name: string;
  text: string;
}

/** Every problem found in the plan files, one line each. */
export class StudyPlanFileError extends Error {
  override readonly name = 'StudyPlanFileError';
  constructor(readonly problems: string[]) {
    super(`invalid built-in study plans:\n${problems.join('\n')}`);
  }
}

const planId = /^[a-z0-9][a-z0-9-]{0,79}$/;

/** Validates the files (schema, skill blueprints, ids); throws a StudyPlanFileError listing every problem. */
export function parseBuiltInPlans(sources: readonly StudyPlanSource[], skillIds: SkillBlueprintIds): BuiltInStudyPlan[] {
  const problems: string[] = [];
  const plans: BuiltInStudyPlan[] = [];
  for (const source of [...sources].sort((left, right) => left.name.localeCompare(right.name))) {
    const match = /^(.*)\.(json|md)$/.exec(source.name);
    if (!match) continue;
    const id = match[1]!;
    if (!planId.test(id)) {
      problems.push(`${source.name}: the file name is the plan's id: lower-case letters, digits and "-" only`);
      continue;
    }
    if (plans.some((plan) => plan.id === id)) {
      problems.push(`${source.name}: another file already defines the plan "${id}"`);
      continue;
    }
    const imported = importStudyPlan(match[2] === 'md' ? 'markdown' : 'json', source.text, skillIds);
    if (imported.ok) plans.push({ id, plan: imported.value });
    else problems.push(`${source.name}: ${imported.error}`);
  }
  if (problems.length > 0) throw new StudyPlanFileError(problems);
  return plans;
}

/** Reads `<dir>/*.json` and `<dir>/*.md` (README.md excepted) and validates them. */
export function loadBuiltInPlans(skillIds: SkillBlueprintIds, dir: string = defaultStudyPlanDir): BuiltInStudyPlan[] {
  if (!existsSync(dir)) return [];
  const sources = readdirSync(dir)
    .filter((name) => /\.(json|md)$/.test(name) && name.toLowerCase() !== 'readme.md')
    .map((name) => ({ name, text: readFileSync(join(dir, name), 'utf8') }));
  return parseBuiltInPlans(sources, skillIds);
}
