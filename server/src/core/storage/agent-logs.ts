/**
 * The agent logs port (SPEC §3, §4.4 "Agent logs"): one entry per model call of a session,
 * for the session's owner to inspect. Entries belong to their session: deleting the session
 * deletes them (R5). Model call accounting (tokens per request, retries) is `llm-calls.ts`;
 * this is the author's view of what each agent was asked and answered.
 */
import type { AgentLogOutcome, AgentName } from '@tutorloop/shared';
import { StorageError } from './storage-error';

/** An entry as stored. */
export interface StoredAgentLog {
  id: string;
  sessionId: string;
  learnerId: string;
  /** 1, 2, 3… per session, in the order entries were appended. */
  seq: number;
  /** The session's learner turn (0 before the first learner message). */
  turn: number;
  agent: AgentName;
  /** A short summary of what the call was given. */
  inputSummary: string;
  /**
   * The call's output as a JSON value, or null. Stored as JSON text, so it comes back as JSON
   * gives it: no `undefined` fields, Dates as strings.
   */
  output: unknown;
  latencyMs: number | null;
  tokensIn: number | null;
  tokensOut: number | null;
  outcome: AgentLogOutcome;
  createdAt: Date;
}

/** An entry to append: the repository numbers it. */
export type NewAgentLog = Omit<StoredAgentLog, 'seq'>;

/** Reads agent logs. */
export interface AgentLogReader {
  /** The session's entries by `seq`. */
  listForSession(sessionId: string): Promise<StoredAgentLog[]>;
}

/** Reads and writes agent logs (inside a transaction). */
export interface AgentLogRepository extends AgentLogReader {
  /**
   * Appends an entry with the session's next `seq` and returns it as stored. Throws
   * `missing_reference` for an unknown session or learner, `conflict` for a taken id,
   * `invalid_value` for an output JSON cannot hold (a cycle, a BigInt).
   */
  append(entry: NewAgentLog): Promise<StoredAgentLog>;
}

/** The output as JSON will hold it (`undefined` → null); a value JSON cannot hold is `invalid_value`. */
export function toJsonOutput(value: unknown): unknown {
  let text: string | undefined;
  try {
    text = JSON.stringify(value ?? null);
  } catch (error) {
    throw new StorageError('invalid_value', `agent log output is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  return text === undefined ? null : (JSON.parse(text) as unknown);
}
