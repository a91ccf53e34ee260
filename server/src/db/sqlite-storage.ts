/**
 * The SQLite adapter of the storage port (core/storage/storage.ts), on one better-sqlite3
 * connection. better-sqlite3 is synchronous and a connection has one transaction, so:
 *
 * - every unit of work — a transaction or a read — holds the connection alone, queued behind
 *   the others by an async mutex: `BEGIN IMMEDIATE … COMMIT/ROLLBACK` for a transaction (the
 *   write lock up front, so it never fails half-way on a busy database), `BEGIN … COMMIT`
 *   for a read (one consistent snapshot across its queries);
 * - nothing runs on the connection outside a unit: there is no write method outside
 *   `transaction`, and a handle dies when its unit ends, so no stray statement can land in
 *   someone else's open transaction. The storage owns its connection: no other code may use
 *   the `Database` it was given while it is open;
 * - a unit that calls `transaction` or `read` again is refused (`nested_transaction`)
 *   rather than left waiting for itself forever.
 *
 * Driver errors become StorageErrors: unique and primary keys → `conflict`, foreign keys →
 * `missing_reference`.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { AsyncMutex } from '../core/storage/async-mutex';
import type { SessionSnapshot, SnapshotOptions } from '../core/storage/session-snapshot';
import type { SessionTypeCatalog } from '../core/storage/session-type-state';
import type { Storage, StorageReader, StorageRepositories, StorageTx } from '../core/storage/storage';
import { StorageError } from '../core/storage/storage-error';
import { runTransaction, StorageUnit } from '../core/storage/storage-unit';
import { openDatabase, type Database } from './database';
import { sqliteAssessments, sqliteLlmCalls, sqliteMessages, sqlitePendingActions } from './sqlite-conversation';
import { sqliteCards, sqliteChecklists, sqliteLearners, sqliteRecallSets, sqliteSessions } from './sqlite-repositories';
import { sqliteAgentLogs, sqliteStudyPlans } from './sqlite-study-plans';
import { sqliteScheduler } from './sqlite-scheduler';
import { sqliteSurveys } from './sqlite-surveys';

/** The StorageError a better-sqlite3 (or drizzle-wrapped) error stands for; other errors pass unchanged. */
export function toStorageError(error: unknown): unknown {
  if (error instanceof StorageError) return error;
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code !== 'string') continue;
    if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
      return new StorageError('conflict', cause.message, { cause: error });
    }
    if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY') return new StorageError('missing_reference', cause.message, { cause: error });
  }
  return error;
}

/** Wraps every repository method so that what it throws is translated by `toStorageError`. */
function translatingErrors(repositories: StorageRepositories): StorageRepositories {
  const wrapped: Record<string, Record<string, unknown>> = {};
  for (const [namespace, repository] of Object.entries(repositories) as unknown as Array<[string, Record<string, (...args: unknown[]) => Promise<unknown>>]>) {
    wrapped[namespace] = Object.fromEntries(
      Object.entries(repository).map(([name, method]) => [
        name,
        async (...args: unknown[]) => {
          try {
            return await method.apply(repository, args);
          } catch (error) {
            throw toStorageError(error);
          }
        },
      ]),
    );
  }
  return wrapped as unknown as StorageRepositories;
}

function sqliteRepositories(database: Database, sessionTypes: SessionTypeCatalog): StorageRepositories {
  return translatingErrors({
    learners: sqliteLearners(database),
    recallSets: sqliteRecallSets(database),
    cards: sqliteCards(database),
    sessions: sqliteSessions(database, sessionTypes),
    checklists: sqliteChecklists(database),
    messages: sqliteMessages(database),
    pendingActions: sqlitePendingActions(database),
    assessments: sqliteAssessments(database),
    llmCalls: sqliteLlmCalls(database),
    studyPlans: sqliteStudyPlans(database),
    agentLogs: sqliteAgentLogs(database),
    scheduler: sqliteScheduler(database),
    surveys: sqliteSurveys(database),
  });
}

export class SqliteStorage implements Storage {
  private readonly mutex = new AsyncMutex();
  /** Marks the async flow of the unit in progress, to refuse a nested one. */
  private readonly unitScope = new AsyncLocalStorage<{ open: boolean }>();
  private readonly repositories: StorageRepositories;
  private closed = false;

  /**
   * Takes the connection over: from now on, nothing else may run statements on it.
   * `sessionTypes`: the registry's catalog (core/session-type-states.ts).
   */
  constructor(
    private readonly database: Database,
    private readonly sessionTypes: SessionTypeCatalog,
  ) {
    this.repositories = sqliteRepositories(database, sessionTypes);
  }

  transaction<T>(work: (tx: StorageTx) => Promise<T>): Promise<T> {
    return this.exclusive(async () => {
      const client = this.database.$client;
      client.exec('BEGIN IMMEDIATE');
      const unit = new StorageUnit(this.repositories, 'write', this.sessionTypes);
      return runTransaction(unit, work, {
        commit: () => {
          client.exec('COMMIT');
        },
        rollback: () => {
          // A failed COMMIT or some driver errors end the transaction already.
          if (client.inTransaction) client.exec('ROLLBACK');
        },
      });
    });
  }

  read<T>(work: (reader: StorageReader) => Promise<T>): Promise<T> {
    return this.exclusive(async () => {
      const client = this.database.$client;
      client.exec('BEGIN');
      const unit = new StorageUnit(this.repositories, 'read', this.sessionTypes);
      try {
        return await work(unit.handle);
      } finally {
        unit.end();
        if (client.inTransaction) client.exec('COMMIT');
      }
    });
  }

  loadSessionSnapshot(sessionId: string, options?: SnapshotOptions): Promise<SessionSnapshot | null> {
    return this.read((reader) => reader.loadSessionSnapshot(sessionId, options));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // Units already queued still run; anything asked for later is refused.
    this.closed = true;
    await this.mutex.run(async () => undefined);
    this.database.$client.close();
  }

  private exclusive<T>(body: () => Promise<T>): Promise<T> {
    if (this.unitScope.getStore()?.open) {
      return Promise.reject(new StorageError('nested_transaction', 'storage.transaction or storage.read called inside a unit of work; use its handle instead'));
    }
    if (this.closed) return Promise.reject(new StorageError('closed', 'storage is closed'));
    return this.mutex.run(() => {
      const scope = { open: true };
      return this.unitScope.run(scope, async () => {
        try {
          return await body();
        } finally {
          scope.open = false;
        }
      });
    });
  }
}

/** Storage on the SQLite file `file` (or `:memory:`), created and migrated if needed, on a connection of its own. */
export function openSqliteStorage(file: string, sessionTypes: SessionTypeCatalog): SqliteStorage {
  return new SqliteStorage(openDatabase(file), sessionTypes);
}
