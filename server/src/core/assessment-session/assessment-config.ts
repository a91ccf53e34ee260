/** What an assessment session was created with, and the deadline it gives (SPEC §4.3). */
import type { StoredItem } from '../storage/assessments';

/** What an assessment session was created with (its type state without the tag). */
export interface AssessmentConfig {
  blueprintId: string;
  /** Seeds item generation: the same seed and answers give the same next item, after a restart too. */
  seed: string;
  timeLimitSeconds: number;
}

/** When the server ends the assessment: the time limit after the first item was presented; null before. */
export function deadlineOf(config: AssessmentConfig, items: readonly StoredItem[]): Date | null {
  const first = items[0];
  return first ? new Date(first.presentedAt.getTime() + config.timeLimitSeconds * 1000) : null;
}
