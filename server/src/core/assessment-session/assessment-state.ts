/**
 * What an assessment session keeps of its own (SPEC §4.3), stored as its type state (the
 * registry, core/session-type-states.ts, composes every type's schema for storage).
 */
import { z } from 'zod';
import type { SnapshotNeeds } from '../storage/session-snapshot';
import type { AssessmentConfig } from './assessment-config';

/** Assessment sessions (SPEC §4.3): what the session was created with. */
export const AssessmentSessionState = z.object({
  type: z.literal('assessment'),
  blueprintId: z.string().min(1),
  /** Seeds item generation: the same seed and answers give the same next item, after a restart too. */
  seed: z.string().min(1),
  timeLimitSeconds: z.number().int().positive(),
});
export type AssessmentSessionState = z.infer<typeof AssessmentSessionState>;

// The assessment state is the assessment engine's config plus its tag.
const assessmentStateIsConfig = (state: AssessmentSessionState): AssessmentConfig => state;
void assessmentStateIsConfig;

/** What an assessment session's snapshot loads beyond what every session has: its items and responses. */
export const assessmentSnapshotNeeds: SnapshotNeeds = { assessment: true };
