/**
 * Validating a study plan (SPEC §4.4): the shared `StudyPlanContent` schema, then what only the
 * server knows — every practice step names a skill blueprint of the catalog (§4.3). Problems
 * come back as `field: message` lines (the field a dotted path, steps counted from 0 as in
 * the JSON), so the REST API, the importers and the start-up loader all word them alike.
 */
import { StudyPlanContent } from '@tutorloop/shared';
import type { z } from 'zod';

/** One problem of a plan: where (a path into the plan) and what. */
export interface PlanIssue {
  path: Array<string | number>;
  message: string;
}

export type PlanValidation = { ok: true; value: StudyPlanContent } | { ok: false; issues: PlanIssue[] };

/** The skill blueprint ids practice steps may name (the catalog's). */
export type SkillBlueprintIds = ReadonlySet<string>;

/** How many problems one error message lists before it says how many more there are. */
export const maxReportedIssues = 8;

/** Validates a plan (any value: parsed JSON, a Markdown draft) against the schema and the catalog. */
export function validateStudyPlan(raw: unknown, skillIds: SkillBlueprintIds): PlanValidation {
  const parsed = StudyPlanContent.safeParse(raw);
  if (!parsed.success) return { ok: false, issues: issuesFromZod(parsed.error) };
  const unknown = checkSkillBlueprints(parsed.data, skillIds);
  return unknown.length > 0 ? { ok: false, issues: unknown } : { ok: true, value: parsed.data };
}

/** Practice steps whose blueprint is not in the catalog. */
export function checkSkillBlueprints(plan: StudyPlanContent, skillIds: SkillBlueprintIds): PlanIssue[] {
  const known = [...skillIds].sort().join(', ');
  return plan.steps.flatMap((step, index) =>
    step.type === 'practice' && !skillIds.has(step.skillBlueprintId)
      ? [{ path: ['steps', index, 'skillBlueprintId'], message: `unknown skill blueprint "${clip(step.skillBlueprintId)}" (known: ${known})` }]
      : [],
  );
}

/** Zod's issues as plan issues, reworded for authors (a missing field "is missing", an unknown key "is not a field"). */
export function issuesFromZod(error: z.ZodError): PlanIssue[] {
  return error.issues.flatMap((issue): PlanIssue[] => {
    const path = issue.path.filter((part): part is string | number => typeof part !== 'symbol');
    switch (issue.code) {
      case 'unrecognized_keys':
        return issue.keys.map((key) => ({ path: [...path, key], message: 'is not a field here' }));
      case 'invalid_type':
        return [{ path, message: issue.message.includes('received undefined') ? 'is missing' : issue.message.replace(/^Invalid input: /, '') }];
      case 'invalid_union': {
        // A discriminated union (a step's `type`) names its options.
        const options = (issue as { options?: unknown }).options;
        return [{ path, message: Array.isArray(options) ? `must be one of ${options.join(', ')}` : issue.message }];
      }
      default:
        return [{ path, message: issue.message }];
    }
  });
}

/** `steps.2.questions.0.expectedAnswer`; the value itself is `root` (the plan, by default). */
export function fieldOf(path: ReadonlyArray<string | number>, root = 'plan'): string {
  return path.length === 0 ? root : path.join('.');
}

/**
 * The issues as one message: `field: message` joined by "; ", at most `maxReportedIssues` of
 * them. `prefix` goes before every path (`plan` for a REST body); `root` names the value
 * itself (`plan`, or `body`); an issue's `line` (or `lineOf`) adds ` (line N)`.
 */
export function formatIssues(
  issues: ReadonlyArray<PlanIssue & { line?: number }>,
  options: { prefix?: ReadonlyArray<string | number>; root?: string; lineOf?: (path: ReadonlyArray<string | number>) => number | undefined } = {},
): string {
  const lines = issues.slice(0, maxReportedIssues).map((issue) => {
    const line = issue.line ?? options.lineOf?.(issue.path);
    return `${fieldOf([...(options.prefix ?? []), ...issue.path], options.root)}: ${issue.message}${line === undefined ? '' : ` (line ${line})`}`;
  });
  const more = issues.length - maxReportedIssues;
  return more > 0 ? `${lines.join('; ')}; and ${more} more` : lines.join('; ');
}

/** An author's value quoted in a message, cut short. */
export function clip(value: string, max = 60): string {
  return value.length > max ? `${value.slice(0, max)}…` : value;
}
