/**
 * A survey's problems as `field: message` lines (SPEC §8 "a clear error"), worded as study
 * plans word theirs: the field is a dotted path from `root` (`survey.questions.2.skip.0.goTo`).
 */
import type { z } from 'zod';
import { formatIssues, issuesFromZod } from '../study-plans/validate-plan';

export function formatSurveyIssues(error: z.ZodError, root: string): string {
  return formatIssues(issuesFromZod(error), { root });
}
