/**
 * The assessment port (SPEC §3, §4.3): the items the server generated with what scores them,
 * the learner's responses and the IRT-lite ability estimates. What an assessment was created
 * with lives in its session's type state (`AssessmentSessionState`).
 */
import type { AbilityEstimate } from '@tutorloop/shared';
import type { AbilityReport } from '../assessment/abilities';
import type { GeneratedItem } from '../assessment/item-builder';
import type { TestOutcomeRecord } from '../assessment/test-cases';

/** An item the server generated and presented, with what scores it. */
export interface StoredItem {
  id: string;
  sessionId: string;
  position: number;
  item: GeneratedItem;
  /** The pending action presenting it. */
  widgetId: string;
  presentedAt: Date;
}

/** The learner's scored answer to an item. */
export interface StoredResponse {
  itemId: string;
  answerText: string;
  credit: number;
  testsPassed: number | null;
  testsTotal: number | null;
  note: string | null;
  /**
   * Code answers: each test's outcome, in the order of the item's tests (what the function
   * returned, or why it did not). Absent for choices, and for answers scored before it was kept.
   */
  testOutcomes?: TestOutcomeRecord[];
  responseSeconds: number;
  answeredAt: Date;
}

/** One stored ability estimate: a domain, or `*` for the overall estimate. */
export interface AbilityEstimateRecord extends AbilityEstimate {
  domain: string;
  updatedAt: Date;
}

/** The domain key of the overall estimate. */
export const overallDomain = '*';

/** Reads assessments. */
export interface AssessmentReader {
  /** The session's items by position. */
  listItems(sessionId: string): Promise<StoredItem[]>;
  /** The session's responses, by `answeredAt` (ties by item id). */
  listResponses(sessionId: string): Promise<StoredResponse[]>;
  /** The latest estimates, by domain (`*`, the overall one, first). */
  listAbilities(sessionId: string): Promise<AbilityEstimateRecord[]>;
}

/** Reads and writes assessments (inside a transaction, with the step they belong to). */
export interface AssessmentRepository extends AssessmentReader {
  /**
   * Stores a generated item. Throws `conflict` when its position or fingerprint is already
   * used in the session (items are unique within a session, SPEC §4.3), `missing_reference`
   * for an unknown session.
   */
  addItem(item: StoredItem): Promise<void>;
  /** Stores a scored response; throws `conflict` if the item already has one, `missing_reference` for an unknown item. */
  addResponse(sessionId: string, response: StoredResponse): Promise<void>;
  /** Replaces the session's estimates for the report's domains (and the overall one). */
  saveAbilities(sessionId: string, learnerId: string, report: AbilityReport, at: Date): Promise<void>;
}
