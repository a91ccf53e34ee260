import { z } from 'zod';

/**
 * Cloze drills (SPEC §4.6): what a learner sees of a running drill and of its summary. A drill
 * asks a recall set's points one at a time with a key term blanked; each finished point is one
 * review of that point.
 */

/** A drill's progress (`state_update`, under `cloze`). */
export const ClozeProgress = z.object({
  /** Points finished (answered right, or shown after the last try). */
  done: z.number().int().min(0),
  /** Points in the drill. */
  total: z.number().int().min(0),
  /** The try of the point on screen: 1 or 2; null when no point is on screen. */
  attempt: z.union([z.literal(1), z.literal(2)]).nullable(),
  /** Points answered right so far (first or second try). */
  right: z.number().int().min(0),
});
export type ClozeProgress = z.infer<typeof ClozeProgress>;

/** One finished point of a drill. */
export const ClozeResult = z.object({
  pointId: z.string(),
  /** The point with its blank, as shown. */
  prompt: z.string(),
  /** The blanked term. */
  answer: z.string(),
  /** The learner's tries, in order. */
  given: z.array(z.string()),
  rating: z.enum(['good', 'hard', 'again']),
});
export type ClozeResult = z.infer<typeof ClozeResult>;

/** A drill's summary (under `cloze`): every finished point, and how many of each rating. */
export const ClozeSummary = z.object({
  results: z.array(ClozeResult),
  good: z.number().int().min(0),
  hard: z.number().int().min(0),
  again: z.number().int().min(0),
});
export type ClozeSummary = z.infer<typeof ClozeSummary>;
