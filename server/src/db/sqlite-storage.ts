/**
 * The SQLite adapter of the storage port (core/storage/storage.ts), on one better-sqlite3
 * connection. better-sqlite3 is synchronous and a connection has one transaction, so:
 *
 * - every unit of work — a transaction or a read — holds the connection alone, queued behind
 *   the others by an async mutex: `BEGIN IMMEDIATE … COMMIT/ROLLBACK` for a transaction (the
 *   write lock up front, so it never fails half-way on a busy database), `BEGIN … COMMIT`
 *   for a read (one consistent snapshot across its queries) — except that units queued behind
 *   one another share one COMMIT, each in a savepoint, and are answered once it landed (group
 *   commit, `SqliteStorage.group`);
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

function rethrowAsStorageError(error: unknown): never {
  throw toStorageError(error);
}

/** Wraps every repository method so that what it throws is translated by `toStorageError`. */
function translatingErrors(repositories: StorageRepositories): StorageRepositories {
  const wrapped: Record<string, Record<string, unknown>> = {};
  for (const [namespace, repository] of Object.entries(repositories) as unknown as Array<[string, Record<string, (...args: unknown[]) => Promise<unknown>>]>) {
    wrapped[namespace] = Object.fromEntries(
      Object.entries(repository).map(([name, method]) => [
        name,
        // One derived promise per call, not an async frame: every storage call of a turn passes here.
        (...args: unknown[]) => method.apply(repository, args).then(undefined, rethrowAsStorageError),
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

/** The most units one COMMIT answers: a bound on how long the group's first unit waits under load. */
const maxGroupUnits = 16;

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

  /**
   * Group commit: a unit that ends while others wait for the connection leaves the SQLite
   * transaction open for them, and every unit of the group is answered once its one COMMIT has
   * landed (a turn's three commits each wrote their pages to the WAL, ~40 writes a turn: the
   * largest cost left in the benchmark's profile). The first unit of a group begins it; each
   * later one runs inside a savepoint, so its rollback undoes only its own writes. Nothing is
   * answered before it is committed: a read inside a group waits for the COMMIT too, and a
   * failed COMMIT fails every unit of the group. Alone (nothing waiting), a unit commits at once.
   */
  private group: Array<{ done: () => void; failed: (error: unknown) => void }> | null = null;

  transaction<T>(work: (tx: StorageTx) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.exclusive(async () => {
        try {
          const value = await this.writeUnit(work);
          this.group!.push({ done: () => resolve(value), failed: reject });
        } finally {
          // Decided while this unit still holds the connection: after it, the next unit may start.
          this.commitUnlessAwaited();
        }
      }).catch(reject);
    });
  }

  read<T>(work: (reader: StorageReader) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.exclusive(async () => {
        try {
          const client = this.database.$client;
          // Inside a group, the read sees the group's writes: it is answered once they are committed.
          const joined = this.group !== null;
          if (!joined) client.exec('BEGIN');
          const unit = new StorageUnit(this.repositories, 'read', this.sessionTypes);
          let value: T;
          try {
            value = await work(unit.handle);
          } finally {
            unit.end();
            if (!joined && client.inTransaction) client.exec('COMMIT');
          }
          if (this.group) this.group.push({ done: () => resolve(value), failed: reject });
          else resolve(value);
        } finally {
          this.commitUnlessAwaited();
        }
      }).catch(reject);
    });
  }

  /** One write unit in the open group (a savepoint), or beginning one; its value once its writes are in. */
  private async writeUnit<T>(work: (tx: StorageTx) => Promise<T>): Promise<T> {
    const client = this.database.$client;
    const joined = this.group !== null;
    if (joined) client.exec('SAVEPOINT unit');
    else {
      client.exec('BEGIN IMMEDIATE');
      this.group = [];
    }
    const unit = new StorageUnit(this.repositories, 'write', this.sessionTypes);
    try {
      return await runTransaction(unit, work, {
        commit: () => {
          if (joined) client.exec('RELEASE unit');
        },
        rollback: () => {
          // A failed COMMIT or some driver errors end the transaction already.
          if (!client.inTransaction) return;
          if (joined) client.exec('ROLLBACK TO unit; RELEASE unit');
          else client.exec('ROLLBACK');
        },
      });
    } catch (error) {
      // The transaction is gone (the group's first unit rolled back, or the driver ended it):
      // the units before this one in the group lost their writes with it.
      if (!client.inTransaction) this.failGroup(error);
      throw error;
    }
  }

  /** Commits the open group unless another unit waits for the connection (and the group is not full). */
  private commitUnlessAwaited(): void {
    const group = this.group;
    // The mutex still counts the unit that just ended until this returns.
    if (!group || (this.mutex.pending > 1 && group.length < maxGroupUnits)) return;
    this.group = null;
    const client = this.database.$client;
    try {
      client.exec('COMMIT');
    } catch (error) {
      if (client.inTransaction) client.exec('ROLLBACK');
      for (const member of group) member.failed(error);
      return;
    }
    for (const member of group) member.done();
  }

  private failGroup(error: unknown): void {
    const group = this.group ?? [];
    this.group = null;
    for (const member of group) member.failed(error);
  }

  loadSessionSnapshot(sessionId: string, options?: SnapshotOptions): Promise<SessionSnapshot | null> {
    return this.read((reader) => reader.loadSessionSnapshot(sessionId, options));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // Units already queued still run; anything asked for later is refused.
    this.closed = true;
    await this.mutex.run(async () => this.commitUnlessAwaited());
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
