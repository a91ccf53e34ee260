/**
 * The sessions port (SPEC §3, §4): what every session has, plus its per-type state as one
 * validated value (session-type-state.ts; each type's schema is in its own folder) instead of
 * columns only one type uses.
 */
import type { SessionStatus, SessionType } from '@tutorloop/shared';
import type { SessionTypeState, SessionTypeStateOf } from './session-type-state';

/** The fields every session has. */
export interface SessionCommon {
  id: string;
  learnerId: string;
  status: SessionStatus;
  title: string;
  /** The recall set a recall session reviews; null for other types, or once the set is deleted. */
  recallSetId: string | null;
  /** Learner turns taken so far. */
  turn: number;
  endReason: string | null;
  createdAt: Date;
  updatedAt: Date;
  endedAt: Date | null;
}

/**
 * A session as stored: a union keyed on `type`, so checking `session.type` narrows
 * `session.typeState` (whose own `type` is always the same).
 */
export type StoredSession = {
  [K in SessionType]: SessionCommon & { type: K; typeState: SessionTypeStateOf<K> };
}[SessionType];

/** A session to create: its type is its state's type; it starts at turn 0, `updatedAt` = `createdAt`. */
export interface NewSession {
  id: string;
  learnerId: string;
  /** Defaults to `pending`. */
  status?: SessionStatus;
  title: string;
  recallSetId: string | null;
  typeState: SessionTypeState;
  createdAt: Date;
}

/** The changes `update` applies; `typeState` replaces the whole state and must be of the session's type. */
export interface SessionUpdate {
  status?: SessionStatus;
  title?: string;
  turn?: number;
  endReason?: string | null;
  endedAt?: Date | null;
  typeState?: SessionTypeState;
}

/** Reads sessions. */
export interface SessionReader {
  get(sessionId: string): Promise<StoredSession | null>;
  /** The learner's sessions, newest first (ties by id). */
  listByLearner(learnerId: string): Promise<StoredSession[]>;
}

/** Reads and writes sessions (inside a transaction). */
export interface SessionRepository extends SessionReader {
  /**
   * Adds a session. Throws `invalid_value` for a state that does not parse,
   * `missing_reference` for an unknown learner or recall set, `conflict` for a taken id.
   */
  create(session: NewSession): Promise<StoredSession>;
  /**
   * Applies `changes` and sets `updatedAt` to `now`; returns the session as now stored.
   * Throws `not_found` for an unknown id, `invalid_value` for a state that does not parse or
   * belongs to another session type.
   */
  update(sessionId: string, changes: SessionUpdate, now: Date): Promise<StoredSession>;
  /**
   * Deletes a session and everything of it: checklist, messages, pending actions, assessment
   * items, responses and ability estimates. Cards and review logs stay (they are the
   * learner's schedule), as do llm_calls records. Returns false when there was no such session.
   */
  delete(sessionId: string): Promise<boolean>;
}
