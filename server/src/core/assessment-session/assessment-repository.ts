/**
 * The persistence port of assessment sessions (SPEC §3, §4.3): the items the server
 * generated (with what scores them), the learner's responses, and ability estimates.
 * Synchronous like the session repository; atomic steps run in its `transaction`.
 */
import type { AbilityReport, GeneratedItem } from '../assessment';

/** What an assessment session was created with (stored in the session's config). */
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

export interface StoredItem {
  id: string;
  sessionId: string;
  position: number;
  item: GeneratedItem;
  /** The pending action presenting it. */
  widgetId: string;
  presentedAt: Date;
}

export interface StoredResponse {
  itemId: string;
  answerText: string;
  credit: number;
  testsPassed: number | null;
  testsTotal: number | null;
  note: string | null;
  responseSeconds: number;
  answeredAt: Date;
}

export interface AssessmentRepository {
  getConfig(sessionId: string): AssessmentConfig | null;
  listItems(sessionId: string): StoredItem[];
  addItem(item: StoredItem): void;
  listResponses(sessionId: string): StoredResponse[];
  addResponse(sessionId: string, response: StoredResponse): void;
  saveAbilities(sessionId: string, learnerId: string, report: AbilityReport, at: Date): void;
}
