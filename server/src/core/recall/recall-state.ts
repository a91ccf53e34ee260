/**
 * What a recall session keeps of its own (SPEC §4.1), stored as its type state (the registry,
 * core/session-type-states.ts, composes every type's schema for storage).
 */
import { z } from 'zod';
import type { SnapshotNeeds } from '../storage/session-snapshot';
import { SessionMode } from '@tutorloop/shared';

/** Recall sessions (SPEC §4.1): the mode, and the point the tutor is probing. */
export const RecallSessionState = z.object({
  type: z.literal('recall'),
  mode: SessionMode,
  /** The tangent's topic while `mode` is `rabbithole`. */
  rabbitholeTopic: z.string().nullable(),
  /** Index into the checklist of the point the tutor is probing. */
  probeIndex: z.number().int().min(0),
  /** Learner turns spent on the current probe point without recalling it. */
  probeAttempts: z.number().int().min(0),
  /** The checklist holds every point of the set because none was due when the session began. */
  allPoints: z.boolean(),
});
export type RecallSessionState = z.infer<typeof RecallSessionState>;

/** The state a new recall session starts with. */
export function initialRecallState(allPoints: boolean): RecallSessionState {
  return { type: 'recall', mode: 'recall', rabbitholeTopic: null, probeIndex: 0, probeAttempts: 0, allPoints };
}

/** What a recall session's snapshot loads beyond what every session has: its checklist, with the learner's cards. */
export const recallSnapshotNeeds: SnapshotNeeds = { checklist: true };
