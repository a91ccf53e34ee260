/**
 * Request input read through the shared zod schemas (SPEC §6: bodies validated with the
 * shared schemas), refused as `invalid_payload` with the problems as `field: message`.
 */
import type { z } from 'zod';
import { formatIssues, issuesFromZod } from '../core/study-plans/validate-plan';
import { AppError } from '../services/app-error';

/** A body, or a refusal naming its first three problems (`name: …; points.0.content: …`). */
export function parseBody<Schema extends z.ZodType>(schema: Schema, value: unknown): z.infer<Schema> {
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  const message = parsed.error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : 'body'}: ${issue.message}`)
    .join('; ');
  throw new AppError('invalid_payload', message);
}

/**
 * A document (a study plan, a survey) or a query, or a refusal naming every problem as
 * formatIssues writes them; `root` names what a problem without a field is about.
 */
export function parseDocument<Schema extends z.ZodType>(schema: Schema, value: unknown, root: 'body' | 'query'): z.infer<Schema> {
  const parsed = schema.safeParse(value ?? {});
  if (!parsed.success) throw new AppError('invalid_payload', formatIssues(issuesFromZod(parsed.error), { root }));
  return parsed.data;
}
