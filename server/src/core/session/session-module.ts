/**
 * A session type, as one module (SPEC §4): how a session of it is created from the validated
 * create body, what its progress looks like in a list, which room runs it, and its summary.
 * The registry (core/session-modules.ts) holds one module per `SessionType`, so a type added
 * to the shared enum does not compile until it has a module — and every place that dispatches
 * on the type goes through the registry instead of an `if` of its own.
 */
import type { CreateSessionBody, ErrorCode, SessionState, SessionSummary, SessionType } from '@tutorloop/shared';
import type { SessionSnapshot, SnapshotNeeds } from '../storage/session-snapshot';
import type { StoredSession } from '../storage/sessions';
import type { StorageReader } from '../storage/storage';
import type { RoomBase } from './room-base';
import type { SessionProgress } from './session-view';

/** The create body of one session type. */
export type CreateBodyOf<K extends SessionType> = Extract<CreateSessionBody, { type: K }>;

/** A stored session of one type. */
export type SessionOf<K extends SessionType> = Extract<StoredSession, { type: K }>;

/** A refused creation: the app error the HTTP adapter answers with. */
export interface CreateRefusal {
  code: Extract<ErrorCode, 'not_found' | 'invalid_payload'>;
  message: string;
}

export type CreateOutcome = { ok: true; value: string } | { ok: false; error: CreateRefusal };

export interface SessionModule<K extends SessionType> {
  readonly type: K;
  /**
   * What a snapshot of this type loads beyond what every session has. Declared beside the
   * type's state schema, so the registry (core/session-type-states.ts) can hand it to storage
   * before any module exists; storage loads by this declaration and names no type.
   */
  readonly snapshotNeeds: SnapshotNeeds;
  /** Creates a session of this type for the learner; its id, or why not. */
  create(request: { learnerId: string; body: CreateBodyOf<K>; now: Date }): Promise<CreateOutcome>;
  /** The counts a session list shows (`recalledCount` of `totalPoints`), read through `reader`. */
  progress(reader: StorageReader, session: SessionOf<K>): Promise<SessionProgress>;
  /** The room that runs a session of this type; `onIdle` lets the hub drop it. */
  openRoom(sessionId: string, onIdle: () => void): RoomBase;
  /** The state a learner sees (SPEC §5 `state_update`), from a snapshot (its messages not needed). */
  state(snapshot: SessionSnapshot & { session: SessionOf<K> }, now: Date): SessionState;
  /** The summary of an ended session. */
  summary(snapshot: SessionSnapshot & { session: SessionOf<K> }, now: Date): SessionSummary;
}

/** One module per session type: the compiler lists every type still missing. */
export type SessionModules = { [K in SessionType]: SessionModule<K> };

/** The module of a session's type, typed for that session. */
export function moduleOf<K extends SessionType>(modules: SessionModules, type: K): SessionModule<K> {
  return modules[type];
}

/** The sessions of one type, typed for it: a lookup by type name instead of a comparison at the caller. */
export function sessionsOfType<K extends SessionType>(sessions: readonly StoredSession[], type: K): SessionOf<K>[] {
  return sessions.filter((session): session is SessionOf<K> => session.type === type);
}
