/**
 * The per-learner model budget (SPEC §8): every operation that calls a model is charged to
 * one budget per learner, whichever socket, session or route starts it — so opening more
 * sessions, retrying replies or asking over HTTP buys nothing. The budget is a port: the
 * in-memory implementation (learner-model-budget.ts) serves one process; a shared one
 * (PostgreSQL, SPEC §11) can replace it without touching the places that charge.
 *
 * Where each operation is charged, and what a refusal leaves behind (nothing half-written):
 * - `turn` — a chat message, a widget answer, a rabbit-hole change (ws adapter), an HTTP step
 *   (HTTP route): charged before the message is stored; refused → not stored, `rate_limited`;
 * - `retry` — charged by the room once the reply may be produced again; refused → the old
 *   reply stays, `rate_limited`;
 * - `opening` — a session's first reply (recall and thought openings, the learning welcome),
 *   charged before anything of it is written; refused → `rate_limited`, the session stays as
 *   it was and opens on the next attach (or the learner just writes);
 * - `summary` — a thought session's rolling and closing summaries; refused → no model call:
 *   the rolling summary waits for a later turn, the closing one is the plain summary;
 * - `document_proposal` — turning a document into proposed recall points (SPEC §4.7).
 */
import { retryHint } from './learner-limits';

/** The operations that call a model. */
export const modelOperations = ['turn', 'retry', 'opening', 'summary', 'document_proposal'] as const;
export type ModelOperation = (typeof modelOperations)[number];

/** Which budget refused: the operations per minute, or the tokens of the day. */
export type ModelBudgetName = 'operations' | 'daily_tokens';

/** A refused charge: how long until it may succeed, and the budget's rule in plain words. */
export interface ModelBudgetRefusal {
  ok: false;
  retryAfterMs: number;
  budget: ModelBudgetName;
  /** The rule that refused, without the retry hint, e.g. "Too many turns: at most 30 per 60 seconds across all your sessions". */
  reason: string;
}

export type ModelBudgetVerdict = { ok: true } | ModelBudgetRefusal;

/** The port: one budget per learner for every operation that calls a model. */
export interface ModelBudget {
  /**
   * Charges one `operation` to the learner's budget; a refusal says when to retry. Call it
   * before the operation writes anything, so a refused operation leaves no trace.
   */
  charge(learnerId: string, operation: ModelOperation): Promise<ModelBudgetVerdict>;
  /**
   * Tokens a model call of this learner has just spent (and recorded in `llm_calls`), so the
   * daily count is current between reads of the table. Implementations that read the table on
   * every charge may ignore it.
   */
  noteUsage(learnerId: string, tokens: number, at: Date): void;
}

/** What a refused operation left as it was: the middle of its `rate_limited` message. */
export const refusedOperationNotes: Record<ModelOperation, string> = {
  turn: 'this message was not sent.',
  retry: 'the reply was not written again (the one you have stays).',
  opening: 'the tutor has not opened this session yet — come back to it later, or just write to begin.',
  summary: 'the summary was written without the model.',
  document_proposal: 'nothing was proposed.',
};

/**
 * The `rate_limited` message of a refusal (SPEC §5): the rule, what happened to the request,
 * and "Retry in N s." last. Without `consequence`: "<rule>. Retry in N s."
 */
export function budgetRefusalMessage(refusal: Pick<ModelBudgetRefusal, 'reason' | 'retryAfterMs'>, consequence?: string): string {
  return consequence ? `${refusal.reason}; ${consequence} ${retryHint(refusal.retryAfterMs)}` : `${refusal.reason}. ${retryHint(refusal.retryAfterMs)}`;
}

/** A budget that admits everything: for tools and tests that exercise something else. */
export const unlimitedModelBudget: ModelBudget = {
  charge: () => Promise.resolve({ ok: true }),
  noteUsage: () => {},
};
