/**
 * Form errors in plain words, one per field, next to the field (issue 18 "Clear errors").
 * The server refuses a body with `field: message; field: message` (its zod issues, at most
 * three) and a code; the shared schemas give the same issues in the browser before sending.
 * Both become `{ field → message }`, worded for people: "Use at least 3 characters.", not
 * "username: username must be at least 3 characters".
 */

/** One problem: where (a zod path, `points.2.content`) and what. */
export interface FieldIssue {
  path: ReadonlyArray<PropertyKey>;
  message: string;
}

/** The message shown under each field; `form` holds what belongs to no field. */
export type FieldErrors = Record<string, string>;

/** Where a message with no field (wrong password, network, …) goes. */
export const formField = 'form';

const plainRules: Array<[RegExp, (match: RegExpExecArray) => string]> = [
  [/must be at least (\d+) characters?/i, (match) => `Use at least ${match[1]} characters.`],
  [/must be at most (\d+) characters?/i, (match) => `Use at most ${match[1]} characters.`],
  [/expected string to have >=1 characters?/i, () => 'This cannot be empty.'],
  [/expected string to have >=(\d+) characters?/i, (match) => `Use at least ${match[1]} characters.`],
  [/expected string to have <=(\d+) characters?/i, (match) => `Use at most ${match[1]} characters.`],
  [/expected array to have <=(\d+) items?/i, (match) => `At most ${match[1]} are allowed.`],
  [/may contain letters, digits/i, () => 'Use only letters, digits, “_”, “.” and “-” (no spaces).'],
  [/\bis empty\b/i, () => 'This cannot be empty.'],
  [/expected string, received undefined|required/i, () => 'This is required.'],
];

/** A schema or server message in plain words, without the field name it repeats. */
export function plainMessage(message: string): string {
  for (const [pattern, wording] of plainRules) {
    const match = pattern.exec(message);
    if (match) return wording(match);
  }
  const trimmed = message.trim();
  if (!trimmed) return 'Something is wrong here.';
  const sentence = trimmed[0]!.toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

/**
 * Issues as one message per field, the first issue of each field winning (the most basic:
 * "too short" before "characters"). `fieldOf` names the form field of a path, or null for
 * one the form does not show (the message then goes to `form`).
 */
export function fieldErrorsFromIssues(issues: readonly FieldIssue[], fieldOf: (path: ReadonlyArray<PropertyKey>) => string | null): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const field = fieldOf(issue.path) ?? formField;
    if (errors[field] !== undefined) continue;
    errors[field] = plainMessage(issue.message);
  }
  return errors;
}

const piece = /^([A-Za-z_][\w]*(?:\.[\w-]+)*): ([\s\S]*)$/;

/** The server's `field: message; field: message` as issues; a message naming no field is one issue at the root. */
export function issuesFromServerMessage(message: string): FieldIssue[] {
  const issues: FieldIssue[] = [];
  for (const part of message.split('; ')) {
    const match = piece.exec(part);
    if (match) {
      const path = match[1]!.split('.').map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment));
      issues.push({ path: path[0] === 'body' ? path.slice(1) : path, message: match[2]! });
    } else if (issues.length > 0 && part.trim()) {
      // A "; " inside one message: it belongs to the previous issue.
      const last = issues[issues.length - 1]!;
      issues[issues.length - 1] = { ...last, message: `${last.message}; ${part}` };
    } else if (part.trim()) {
      issues.push({ path: [], message: part });
    }
  }
  return issues;
}

/** A refused request (`code`, `message`) as field errors: validation by field, anything else for the form. */
export function fieldErrorsFromServer(
  error: { code: string; message: string },
  fieldOf: (path: ReadonlyArray<PropertyKey>) => string | null,
): FieldErrors {
  if (error.code !== 'invalid_payload' && error.code !== 'bad_request') return { [formField]: error.message };
  return fieldErrorsFromIssues(issuesFromServerMessage(error.message), fieldOf);
}

/** The first field of `order` that has an error (to move the focus there). */
export function firstErrorField(errors: FieldErrors, order: readonly string[]): string | null {
  return order.find((field) => errors[field] !== undefined) ?? (errors[formField] !== undefined ? formField : null);
}

/**
 * A server refusal as one sentence for a form that shows its errors together: each field's
 * message in plain words, led by the field's label as the learner sees it ("Current password:
 * that is not your current password.") — never the API's field name (issue 25).
 */
export function labelledServerMessage(error: { code: string; message: string }, labels: Readonly<Record<string, string>>): string {
  const errors = fieldErrorsFromServer(error, (path) => (typeof path[0] === 'string' && path[0] in labels ? path[0] : null));
  return Object.entries(errors)
    .map(([field, message]) => (field === formField ? message : `${labels[field]}: ${message.charAt(0).toLowerCase()}${message.slice(1)}`))
    .join(' ');
}
