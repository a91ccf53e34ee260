/**
 * The one error type storage adapters throw, whatever the engine underneath. Adapters map
 * their driver's errors (SQLite `SQLITE_CONSTRAINT_*`, Postgres SQLSTATE 23505 / 23503…) onto
 * these codes, so no caller ever inspects a dialect-specific error.
 *
 * Expected outcomes are results, not errors (a taken username is `{ ok: false }`); a
 * `StorageError` means the caller broke a rule (a duplicate id, a missing parent row, a
 * stale transaction handle) or the stored data is damaged.
 */

export const StorageErrorCodes = {
  /** A unique key is taken (an id, a clientMessageId in its session, a second pending action…). */
  conflict: 'conflict',
  /** A row refers to a parent that does not exist (foreign key). */
  missingReference: 'missing_reference',
  /** The row to update does not exist. */
  notFound: 'not_found',
  /** A value does not satisfy its schema (a session's type state, a type change). */
  invalidValue: 'invalid_value',
  /** A stored row cannot be read back into its record (damaged JSON, unknown enum). */
  corrupt: 'corrupt',
  /** The transaction or read handle was used after its unit of work ended. */
  transactionClosed: 'transaction_closed',
  /** `transaction` or `read` was called inside a unit of work still open on the same storage. */
  nestedTransaction: 'nested_transaction',
  /** A write was attempted through a read-only handle. */
  readOnly: 'read_only',
  /** The storage was closed. */
  closed: 'closed',
  /**
   * The write was made for a session whose lease this instance no longer holds (several
   * instances, SPEC §11): another instance runs the session now, so nothing was written.
   */
  fenced: 'fenced',
  /**
   * Text the engine cannot store as given (PostgreSQL refuses U+0000 in text and jsonb; SQLite
   * stores it): the caller's input, to refuse with the message, not a damaged store.
   */
  unstorableText: 'unstorable_text',
} as const;
export type StorageErrorCode = (typeof StorageErrorCodes)[keyof typeof StorageErrorCodes];

/** A storage failure with a dialect-independent code; `cause` keeps the driver's error. */
export class StorageError extends Error {
  override readonly name = 'StorageError';

  constructor(
    readonly code: StorageErrorCode,
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
  }
}

/** True for a StorageError, optionally of one code. */
export function isStorageError(error: unknown, code?: StorageErrorCode): error is StorageError {
  return error instanceof StorageError && (code === undefined || error.code === code);
}
