/**
 * Points about code. A point whose content quotes code in backticks ("`len(s)` counts the
 * characters of a string") is cued offline with a code-editor widget, and a code answer is
 * matched against that quoted code (the rest of the sentence is prose no program contains).
 */
import type { CodeLanguage } from '@tutorloop/shared';
import type { ChecklistPoint } from '../provider';

/** The first code span of a point's content, e.g. "len(s)", or null. */
export function codeSpanOf(content: string): string | null {
  const match = /`([^`\n]{2,200})`/.exec(content);
  const code = match?.[1]?.trim();
  // A span of plain words ("`mitochondria`") is emphasis, not code.
  return code && /[()[\]{}=.:;<>+*/_-]/.test(code) ? code : null;
}

const javascriptHints = /\b(?:javascript|typescript|node\.?js|js|const|let|var|function|console\.log|=>|undefined|null|===|\.length\b|Array\.|Object\.|Promise)\b|=>|===/i;

/** The editor language for a code point: JavaScript when the point or its context says so, else Python. */
export function codeLanguageFor(point: Pick<ChecklistPoint, 'content' | 'context'>): CodeLanguage {
  const text = `${point.context ?? ''} ${point.content}`;
  if (/\bpython\b/i.test(text)) return 'python';
  return javascriptHints.test(text) ? 'javascript' : 'python';
}
