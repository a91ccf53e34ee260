/**
 * Sanitization of tutor output (SPEC §4.1): the learner must never see evaluator language,
 * point ids, confidences or scores. `findLeaks` names what leaked; `stripLeaks` removes
 * each sentence that carries a leak (used when a regenerated reply still leaks).
 */
export interface LeakCheck {
  leaks: string[];
}

const leakPatterns: Array<{ name: string; pattern: RegExp }> = [
  { name: 'evaluator', pattern: /\bevaluat(?:or|ion result)s?\b/i },
  { name: 'the student', pattern: /\bthe (?:student|learner|user)(?:'s|’s)?\b/i },
  { name: 'confidence score', pattern: /\bconfidence(?:\s+(?:score|level|of))?\s*[:=]?\s*(?:0?\.\d+|1\.0|\d{1,3}\s?%)/i },
  { name: 'score', pattern: /\bscore[sd]?\s*[:=]\s*\d/i },
  { name: 'recall point', pattern: /\b(?:recall|unchecked|pending)[ _-]points?\b/i },
  { name: 'internal note', pattern: /\b(?:feedback for the tutor|system note|internal note|hidden note)\b/i },
  { name: 'point id', pattern: /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/i },
];

/** Lists the kinds of internal language found in `text`, also any of the given ids. */
export function findLeaks(text: string, pointIds: readonly string[] = []): string[] {
  const leaks = leakPatterns.filter(({ pattern }) => pattern.test(text)).map(({ name }) => name);
  for (const id of pointIds) {
    if (id.length >= 4 && text.includes(id)) leaks.push(`point id ${id}`);
  }
  return [...new Set(leaks)];
}

/** Drops every sentence that leaks; if nothing is left, a neutral prompt to go on. */
export function stripLeaks(text: string, pointIds: readonly string[] = []): string {
  const sentences = text.split(/(?<=[.!?])\s+|\n+/);
  const kept = sentences.filter((sentence) => findLeaks(sentence, pointIds).length === 0);
  const result = kept.join(' ').replace(/\s{2,}/g, ' ').trim();
  return result || 'Let’s keep going — tell me what else you remember.';
}
