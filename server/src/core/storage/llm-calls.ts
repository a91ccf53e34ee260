/** The model call accounting port (SPEC §3, §7): one record per request to a model API. */

/** How a model request ended. */
export type LlmCallOutcome = 'ok' | 'error' | 'timeout' | 'aborted';

/** One model request, as stored. */
export interface StoredLlmCall {
  id: string;
  sessionId: string | null;
  /**
   * The learner the call was made for (their session's learner), so their daily token budget
   * counts it even after the session is deleted; null when no learner is known.
   */
  learnerId: string | null;
  /** Why it was made: `evaluator`, `tutor`, `safety`, … */
  purpose: string;
  provider: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  latencyMs: number;
  outcome: LlmCallOutcome;
  error: string | null;
  /** When the request started. */
  createdAt: Date;
}

/** Reads model call records. */
export interface LlmCallReader {
  /** A session's calls, oldest first (ties by id). */
  listBySession(sessionId: string): Promise<StoredLlmCall[]>;
  /** A learner's calls, with or without a session (a document's have none), oldest first (ties by id); with `purpose`, only those made for it. */
  listByLearner(learnerId: string, purpose?: string): Promise<StoredLlmCall[]>;
  /**
   * Input + output tokens of the learner's calls made at or after `since` (0 when none): what
   * the daily token budget counts (SPEC §8). Calls of deleted sessions still count. With
   * `purpose`, only the calls made for it (the daily cap on documents counts `document_points`).
   */
  tokensUsedSince(learnerId: string, since: Date, purpose?: string): Promise<number>;
}

/** Reads and writes model call records. */
export interface LlmCallRepository extends LlmCallReader {
  /** Adds a record (the session need not exist: records outlive deleted sessions). */
  add(call: StoredLlmCall): Promise<void>;
}
