/**
 * What a cloze drill keeps of its own (SPEC §4.6), stored as its type state (the registry,
 * core/session-type-states.ts, composes every type's schema for storage).
 */
import { z } from 'zod';
import { ClozeResult } from '@tutorloop/shared';
import type { SnapshotNeeds } from '../storage/session-snapshot';

/**
 * One point of the drill as chosen when the drill was created: the prompt with its blank and
 * the blanked term. Kept in the state (never sent while the point is open) so editing the set
 * mid-drill never changes what the learner is graded against.
 */
export const ClozeItem = z.object({
  pointId: z.string().min(1),
  prompt: z.string().min(1),
  answer: z.string().min(1),
});
export type ClozeItem = z.infer<typeof ClozeItem>;

/** How the last answer was graded, so the next step (possibly after a restart) says the right line. */
export const ClozeGrade = z.object({
  /** Index of the graded point in `items`. */
  position: z.number().int().min(0),
  /** `right`, `retry` (wrong at the first try) or `wrong` (wrong at the second: the answer is shown). */
  verdict: z.enum(['right', 'retry', 'wrong']),
  attempt: z.union([z.literal(1), z.literal(2)]),
});
export type ClozeGrade = z.infer<typeof ClozeGrade>;

/**
 * Cloze drills (SPEC §4.6): the points in the order asked, the point on screen (`position`, ==
 * items.length once every point was asked) and its try, the tries given to it so far, and every
 * finished point.
 */
export const ClozeSessionState = z.object({
  type: z.literal('cloze'),
  items: z.array(ClozeItem).min(1),
  position: z.number().int().min(0),
  attempt: z.union([z.literal(1), z.literal(2)]),
  given: z.array(z.string()).default([]),
  results: z.array(ClozeResult).default([]),
  lastGrade: ClozeGrade.nullable().default(null),
});
export type ClozeSessionState = z.infer<typeof ClozeSessionState>;

/** The state a new drill starts with: the first point, first try. */
export function initialClozeState(items: readonly ClozeItem[]): ClozeSessionState {
  return { type: 'cloze', items: [...items], position: 0, attempt: 1, given: [], results: [], lastGrade: null };
}

/**
 * What a drill's snapshot loads beyond what every session has: its points as a checklist, so the
 * learner's cards come with them (the summary's next due dates).
 */
export const clozeSnapshotNeeds: SnapshotNeeds = { checklist: true };
