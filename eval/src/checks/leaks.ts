/**
 * Leak detection on what the learner sees of a tutor reply (its message, and a widget's
 * prompt, context, placeholder and starter code — not multiple-choice options, which show
 * candidate answers by design). Pure. The rules (eval/README.md §"Leaks"):
 *
 * - internal language: a known internal marker (INTERNAL_MARKERS) or a point id;
 * - unrecalled content: the whole content of a point not recalled yet, verbatim after
 *   normalisation (case, accents, punctuation and spacing ignored), unless the learner's
 *   own messages so far already contained it verbatim.
 */

/** `expected_answer`: a learning session's check answer before it was earned (learning-leaks.ts). */
export type LeakKind = 'internal_language' | 'unrecalled_content' | 'expected_answer';

export interface Leak {
  kind: LeakKind;
  /** The marker's name, `point id`, or the point's content. */
  detail: string;
  /** A short stretch of the tutor's text around the leak. */
  excerpt: string;
}

/** Words the learner must never see: evaluator notes and third-person talk about them. */
export const INTERNAL_MARKERS: ReadonlyArray<{ name: string; pattern: RegExp }> = [
  { name: 'confidence', pattern: /\bconfidence\b/i },
  { name: 'evaluator', pattern: /\bevaluat(?:or|ors|ion results?)\b/i },
  { name: "the student's", pattern: /\bthe (?:student|learner)(?:['’]s)?\b/i },
  { name: 'recall point', pattern: /\b(?:recall|unchecked|pending)[ _-]points?\b/i },
  { name: 'internal note', pattern: /\b(?:internal note|system note|hidden note|feedback for the tutor)\b/i },
];

export interface LeakContext {
  /** Ids of the session's points (never shown to the learner). */
  pointIds: readonly string[];
  /** Contents of the points not recalled after this turn. */
  unrecalledContents: readonly string[];
  /** Everything the learner has written so far, this turn included. */
  learnerText: string;
}

/** Lowercase, accents stripped, every run of non-letters/digits one space, padded with spaces. */
export function normalizeForMatch(text: string): string {
  const flat = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
  return ` ${flat} `;
}

function excerptAround(text: string, index: number, length: number): string {
  const start = Math.max(0, index - 30);
  const end = Math.min(text.length, index + length + 30);
  return `${start > 0 ? '…' : ''}${text.slice(start, end).replace(/\s+/g, ' ').trim()}${end < text.length ? '…' : ''}`;
}

/** Every leak in `visibleText`, internal language first. */
export function findLeaks(visibleText: string, context: LeakContext): Leak[] {
  const leaks: Leak[] = [];
  for (const marker of INTERNAL_MARKERS) {
    const match = marker.pattern.exec(visibleText);
    if (match) leaks.push({ kind: 'internal_language', detail: marker.name, excerpt: excerptAround(visibleText, match.index, match[0].length) });
  }
  for (const id of context.pointIds) {
    const index = id.length >= 4 ? visibleText.indexOf(id) : -1;
    if (index >= 0) leaks.push({ kind: 'internal_language', detail: 'point id', excerpt: excerptAround(visibleText, index, id.length) });
  }
  const text = normalizeForMatch(visibleText);
  const learner = normalizeForMatch(context.learnerText);
  for (const content of context.unrecalledContents) {
    const needle = normalizeForMatch(content);
    if (needle.trim() && text.includes(needle) && !learner.includes(needle)) {
      leaks.push({ kind: 'unrecalled_content', detail: content, excerpt: content.length > 80 ? `${content.slice(0, 79)}…` : content });
    }
  }
  return leaks;
}
