/**
 * The per-type state of a session on its way into and out of storage. Storage names no
 * session type: each type declares its state schema in its own folder, the registry
 * (core/session-type-states.ts) composes them into a `SessionTypeCatalog`, and an adapter
 * receives that catalog when it is constructed.
 */
import { z } from 'zod';
import type { SessionType } from '@tutorloop/shared';
import type { SessionTypeState, SessionTypeStateOf } from '../session-type-states';
import type { SnapshotNeeds } from './session-snapshot';
import { StorageError } from './storage-error';

export type { SessionTypeState, SessionTypeStateOf };

/** What storage is told about the session types by the registry (the port storage names none through). */
export interface SessionTypeCatalog {
  /** Every type's state schema, one union keyed on `type`. */
  readonly states: z.ZodType<SessionTypeState>;
  /** What a snapshot of each type loads beyond what every session has (its module declares it). */
  readonly snapshotNeeds: { readonly [K in SessionType]: SnapshotNeeds };
}

/**
 * Validates a type state on its way into storage; an invalid one is a caller's bug and
 * throws `invalid_value` (the adapter's transaction then rolls back).
 */
export function parseTypeState(catalog: SessionTypeCatalog, value: unknown): SessionTypeState {
  const parsed = catalog.states.safeParse(value);
  if (!parsed.success) throw new StorageError('invalid_value', `invalid session type state: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** Reads a stored type state back; a row that does not parse is damaged and throws `corrupt`. */
export function readTypeState(catalog: SessionTypeCatalog, sessionId: string, value: unknown): SessionTypeState {
  const parsed = catalog.states.safeParse(value);
  if (!parsed.success) throw new StorageError('corrupt', `session ${sessionId}: stored type state does not parse: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/**
 * The state of a session known to be of type `type`. A session of another type here is a
 * routing bug (a recall room handed an assessment), so it throws.
 */
export function typeStateOf<K extends SessionType>(session: { id: string; typeState: SessionTypeState }, type: K): SessionTypeStateOf<K> {
  if (session.typeState.type !== type) {
    throw new StorageError('invalid_value', `session ${session.id} is a ${session.typeState.type} session, not ${type}`);
  }
  return session.typeState as SessionTypeStateOf<K>;
}
