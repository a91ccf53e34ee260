/**
 * The pending actions port (SPEC §4.2): a client tool call waiting for the learner. At most
 * one action per session is pending at any time — the engine relies on it.
 */
import type { WidgetAnswer, WidgetKind } from '@tutorloop/shared';

/** A client tool call (a widget) and whether it was answered. */
export interface PendingActionRecord {
  id: string;
  sessionId: string;
  toolCallId: string;
  kind: WidgetKind;
  props: Record<string, unknown>;
  status: 'pending' | 'answered' | 'cancelled';
  createdAt: Date;
}

/** An action to create; it starts pending. */
export type NewPendingAction = Omit<PendingActionRecord, 'status'>;

/** Reads pending actions. */
export interface PendingActionReader {
  /** The session's one pending action, if any. */
  getPending(sessionId: string): Promise<PendingActionRecord | null>;
  /** Every action of the session, oldest first (ties by id): the history shows answered widgets too. */
  list(sessionId: string): Promise<PendingActionRecord[]>;
}

/** Reads and writes pending actions (inside a transaction). */
export interface PendingActionRepository extends PendingActionReader {
  /**
   * Adds a pending action. Throws `conflict` when the session already has one pending or
   * the id is taken, `missing_reference` for an unknown session.
   */
  create(action: NewPendingAction): Promise<PendingActionRecord>;
  /**
   * Answers or cancels a pending action; returns false (and changes nothing) when it is not
   * pending (already answered, cancelled, or unknown).
   */
  resolve(actionId: string, status: 'answered' | 'cancelled', response: WidgetAnswer | null, at: Date): Promise<boolean>;
}
