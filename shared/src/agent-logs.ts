import { z } from 'zod';

/**
 * Agent logs (SPEC §4.4 "Agent logs", seed 002 `AgentLogEntry`): one entry per model call of a
 * session — what went in (summarised), what came out (the structured output, internals
 * included), how long it took, its tokens and how it ended. For the session's owner only
 * (`GET /api/sessions/{id}/agent-logs`); nothing here ever reaches a session's frames.
 */

/** Which agent made the call. */
export const AgentName = z.enum(['safety', 'master_tutor', 'welcome', 'post_completion', 'summary', 'evaluator', 'tutor']);
export type AgentName = z.infer<typeof AgentName>;

/**
 * How the call ended: `ok`; `retried` (a malformed output was asked again — the retry has its
 * own entry); `fallback` (the turn went on with a safe fallback instead of the model's output);
 * `error` (the call failed); `refused` (the safety gate refused the learner's message).
 */
export const AgentLogOutcome = z.enum(['ok', 'retried', 'fallback', 'error', 'refused']);
export type AgentLogOutcome = z.infer<typeof AgentLogOutcome>;

/** One model call of a session. */
export const AgentLogEntry = z.object({
  id: z.string(),
  sessionId: z.string(),
  /** 1, 2, 3… in the order the calls were logged within the session. */
  seq: z.number().int().min(1),
  /** The session's learner turn the call belongs to (0 before the first learner message, e.g. the welcome). */
  turn: z.number().int().min(0),
  agent: AgentName,
  /** A short, human-readable summary of the call's input (not the whole prompt). */
  inputSummary: z.string(),
  /** The call's structured output as JSON (e.g. the master tutor's `reasoning` and `expected_answer`); null when there was none. */
  output: z.json().nullable(),
  latencyMs: z.number().int().min(0).nullable(),
  tokensIn: z.number().int().min(0).nullable(),
  tokensOut: z.number().int().min(0).nullable(),
  outcome: AgentLogOutcome,
  /** ISO 8601. */
  createdAt: z.string(),
});
export type AgentLogEntry = z.infer<typeof AgentLogEntry>;

/** `GET /api/sessions/{id}/agent-logs`: the session's entries in `seq` order. */
export const AgentLogList = z.object({ entries: z.array(AgentLogEntry) });
export type AgentLogList = z.infer<typeof AgentLogList>;
