/**
 * Importing a study plan from text (SPEC §6 `POST /api/study-plans/import`, and the built-in
 * plans in server/study-plans/): JSON — the plan object itself — or Markdown with front
 * matter (parse-markdown.ts). Either way the result is a validated plan or one
 * `field: message` error. Pure.
 */
import type { StudyPlanContent } from '@tutorloop/shared';
import { parseStudyPlanMarkdown } from './parse-markdown';
import { formatIssues, validateStudyPlan, type SkillBlueprintIds } from './validate-plan';

export type StudyPlanFormat = 'json' | 'markdown';
export type ImportPlanResult = { ok: true; value: StudyPlanContent } | { ok: false; error: string };

export function importStudyPlan(format: StudyPlanFormat, text: string, skillIds: SkillBlueprintIds): ImportPlanResult {
  if (format === 'markdown') return parseStudyPlanMarkdown(text, skillIds);
  let raw: unknown;
  try {
    raw = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    return { ok: false, error: `text: not valid JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  const checked = validateStudyPlan(raw, skillIds);
  return checked.ok ? checked : { ok: false, error: formatIssues(checked.issues) };
}
