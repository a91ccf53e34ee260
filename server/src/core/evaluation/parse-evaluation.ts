/**
 * Defensive parsing of evaluator output (SPEC §4.1): whatever a provider returns — a tool
 * input object or text with code fences — becomes a clean EvaluationResult. Unknown ids
 * (not unchecked points of this session) are dropped, confidence is clamped to 0–1,
 * duplicates are dropped (first wins). Anything unusable yields the empty result.
 * A `question` (the learner asked instead of answering) is never graded: whatever points
 * came with it are dropped (issue 15).
 */
import { z } from 'zod';
import type { EvaluationResult, RecalledPoint } from '../provider';

const RawEvaluation = z.object({
  recalledPoints: z
    .array(
      z.object({
        id: z.union([z.string(), z.number()]).transform(String),
        confidence: z.coerce.number().catch(0.5),
        observation: z.string().catch(''),
      }),
    )
    .catch([]),
  feedback: z.string().catch(''),
  messageKind: z.enum(['attempt', 'question']).optional().catch(undefined),
});

/** Removes a surrounding Markdown code fence (```json … ```), if any. */
export function stripCodeFences(text: string): string {
  // No `\s*` before the body: it traded spaces with `[\s\S]*?` (quadratic); the trim drops them.
  const fenced = /```(?:json|JSON)?([\s\S]*?)```/.exec(text);
  return (fenced ? fenced[1]! : text).trim();
}

function clamp(value: number): number {
  if (!Number.isFinite(value)) return 0.5;
  return Math.min(1, Math.max(0, value));
}

/** Cleans a raw evaluator result against the ids that may be recalled. */
export function normalizeEvaluation(raw: unknown, uncheckedIds: ReadonlySet<string>): EvaluationResult {
  let data = raw;
  if (typeof data === 'string') {
    try {
      data = JSON.parse(stripCodeFences(data));
    } catch {
      return { recalledPoints: [], feedback: '' };
    }
  }
  const parsed = RawEvaluation.safeParse(data);
  if (!parsed.success) return { recalledPoints: [], feedback: '' };
  const seen = new Set<string>();
  const recalledPoints: RecalledPoint[] = [];
  for (const point of parsed.data.recalledPoints) {
    if (!uncheckedIds.has(point.id) || seen.has(point.id)) continue;
    seen.add(point.id);
    recalledPoints.push({ id: point.id, confidence: clamp(point.confidence), observation: point.observation });
  }
  if (parsed.data.messageKind === 'question') return { recalledPoints: [], feedback: parsed.data.feedback, messageKind: 'question' };
  return { recalledPoints, feedback: parsed.data.feedback };
}
