/**
 * The PostgreSQL adapter of the storage port (core/storage/storage.ts; SPEC §11), on a
 * node-postgres pool. Unlike SQLite, units of work run concurrently, each on a pooled client
 * of its own:
 *
 * - a transaction is `BEGIN` (read committed) … `COMMIT`/`ROLLBACK`; a read and a snapshot are
 *   `BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY`, one consistent view across their queries;
 * - what SQLite gets from running one unit at a time is taken from the engine: the
 *   repositories lock a session's row before numbering or guarding its children, use
 *   `ON CONFLICT` where a failed statement would abort the transaction, and a partial unique
 *   index holds one pending action per session (postgres-repositories.ts, schema.ts);
 * - a unit that calls `transaction` or `read` again is refused (`nested_transaction`), as on
 *   SQLite: it would hold one client while waiting for another, and could wait on its own locks.
 *
 * Fencing (several instances, SPEC §11): a transaction started inside `runFenced(lease, …)`
 * first checks, in the same transaction, that the lease is still this instance's at that epoch
 * (`FOR SHARE`, so a takeover waits for a commit in progress; sent with the `BEGIN`, one round
 * trip); if it is not, nothing is written and the transaction fails with `fenced`. An instance
 * paused past its lease cannot write.
 *
 * Driver errors become StorageErrors: SQLSTATE 23505 (unique violation) → `conflict`, 23503
 * (foreign key violation) → `missing_reference`.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import type { SessionSnapshot, SnapshotOptions } from '../../core/storage/session-snapshot';
import type { SessionTypeCatalog } from '../../core/storage/session-type-state';
import type { Storage, StorageReader, StorageRepositories, StorageTx } from '../../core/storage/storage';
import { StorageError } from '../../core/storage/storage-error';
import { runTransaction, StorageUnit } from '../../core/storage/storage-unit';
import { postgresAgentLogs, postgresStudyPlans, postgresSurveys } from './postgres-authored';
import { postgresAssessments, postgresLlmCalls, postgresMessages, postgresPendingActions } from './postgres-conversation';
import { migratePostgres, onClient, openPool, type PostgresDatabase } from './postgres-database';
import { postgresCards, postgresChecklists, postgresLearners, postgresRecallSets, postgresSessions } from './postgres-repositories';
import { postgresScheduler } from './postgres-scheduler';

/** SQLSTATEs that stand for a StorageError code (PostgreSQL, appendix A "Error codes"). */
const sqlStates: Record<string, 'conflict' | 'missing_reference' | 'unstorable_text'> = {
  '23505': 'conflict',
  '23503': 'missing_reference',
  // Text and jsonb cannot hold U+0000, which SQLite stores: refused as bad input, not a crash.
  '22021': 'unstorable_text',
  '22P05': 'unstorable_text',
};

/** What a refused NUL character is called, in words a learner can act on. */
const nulMessage = 'Text cannot contain the NUL character (U+0000); remove it and try again.';

/** The StorageError a node-postgres (or drizzle-wrapped) error stands for; other errors pass unchanged. */
export function toPostgresStorageError(error: unknown): unknown {
  if (error instanceof StorageError) return error;
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    const code = (cause as { code?: unknown }).code;
    const mapped = typeof code === 'string' ? sqlStates[code] : undefined;
    if (mapped) return new StorageError(mapped, mapped === 'unstorable_text' ? nulMessage : cause.message, { cause: error });
  }
  return error;
}

/** The lease a room's writes are made under (db/postgres/fleet). */
export interface LeaseFence {
  sessionId: string;
  owner: string;
  epoch: number;
}

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
            throw toPostgresStorageError(error);
          }
        },
      ]),
    );
  }
  return wrapped as unknown as StorageRepositories;
}

/** Every repository on one unit's client. */
function postgresRepositories(database: PostgresDatabase, sessionTypes: SessionTypeCatalog): StorageRepositories {
  return translatingErrors({
    learners: postgresLearners(database),
    recallSets: postgresRecallSets(database),
    cards: postgresCards(database),
    sessions: postgresSessions(database, sessionTypes),
    checklists: postgresChecklists(database),
    messages: postgresMessages(database),
    pendingActions: postgresPendingActions(database),
    assessments: postgresAssessments(database),
    llmCalls: postgresLlmCalls(database),
    studyPlans: postgresStudyPlans(database),
    agentLogs: postgresAgentLogs(database),
    scheduler: postgresScheduler(database),
    surveys: postgresSurveys(database),
  });
}

export class PostgresStorage implements Storage {
  /**
   * The repositories on each pooled client, made once per connection rather than once per unit:
   * they hold nothing but the client, and building drizzle and the error wrappers of every
   * method for each unit was a visible share of a turn's CPU (issue 27).
   */
  private readonly repositoriesByClient = new WeakMap<pg.PoolClient, StorageRepositories>();
  /** Marks the async flow of the unit in progress, to refuse a nested one. */
  private readonly unitScope = new AsyncLocalStorage<{ open: boolean }>();
  /** Units started and not yet ended, which `close` waits for. */
  private readonly running = new Set<Promise<unknown>>();
  /** The lease the transactions of the async flow in progress are fenced by, if any. */
  private readonly fenceScope = new AsyncLocalStorage<LeaseFence>();
  private closed = false;

  /** Takes the pool over: `close` ends it. `sessionTypes`: the registry's catalog (core/session-type-states.ts). */
  constructor(
    private readonly pool: pg.Pool,
    private readonly sessionTypes: SessionTypeCatalog,
  ) {}

  /** Runs `work` with every transaction it starts fenced by `fence` (see the file's comment). */
  runFenced<T>(fence: LeaseFence, work: () => Promise<T>): Promise<T> {
    return this.fenceScope.run(fence, work);
  }

  transaction<T>(work: (tx: StorageTx) => Promise<T>): Promise<T> {
    const fence = this.fenceScope.getStore();
    return this.unit(async (client) => {
      if (fence) {
        // BEGIN and the lease check in one round trip (a simple query of two statements, so its
        // values are literals, escaped by the driver): a fenced unit no longer pays one for each.
        const results = (await client.query(
          `BEGIN; SELECT 1 FROM session_leases WHERE session_id = ${client.escapeLiteral(fence.sessionId)} AND owner = ${client.escapeLiteral(fence.owner)} AND epoch = ${Math.trunc(fence.epoch)} FOR SHARE`,
        )) as unknown as pg.QueryResult[];
        if (results[1]?.rowCount !== 1) throw new StorageError('fenced', `this instance no longer holds session ${fence.sessionId} (epoch ${fence.epoch}): another instance runs it now`);
      } else {
        await client.query('BEGIN');
      }
      const unit = new StorageUnit(this.repositoriesOn(client), 'write', this.sessionTypes);
      return runTransaction(unit, work, {
        commit: async () => {
          // PostgreSQL answers COMMIT of a transaction that already failed with ROLLBACK, not an error.
          const result = await client.query('COMMIT');
          if (result.command === 'ROLLBACK') throw new Error('PostgreSQL rolled the transaction back at COMMIT: a statement in it had failed unseen');
        },
        rollback: async () => {
          await client.query('ROLLBACK');
        },
      });
    });
  }

  read<T>(work: (reader: StorageReader) => Promise<T>): Promise<T> {
    return this.unit(async (client) => {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      const unit = new StorageUnit(this.repositoriesOn(client), 'read', this.sessionTypes);
      try {
        return await work(unit.handle);
      } finally {
        unit.end();
        await client.query('COMMIT');
      }
    });
  }

  loadSessionSnapshot(sessionId: string, options?: SnapshotOptions): Promise<SessionSnapshot | null> {
    return this.read((reader) => reader.loadSessionSnapshot(sessionId, options));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // Units already started still finish; anything asked for later is refused.
    this.closed = true;
    await Promise.allSettled([...this.running]);
    await this.pool.end();
  }

  private repositoriesOn(client: pg.PoolClient): StorageRepositories {
    let repositories = this.repositoriesByClient.get(client);
    if (!repositories) {
      repositories = postgresRepositories(onClient(client), this.sessionTypes);
      this.repositoriesByClient.set(client, repositories);
    }
    return repositories;
  }

  /** Runs `body` on a client of its own, inside the unit scope; the client goes back to the pool after (or is discarded if its state is unknown). */
  private unit<T>(body: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    if (this.unitScope.getStore()?.open) {
      return Promise.reject(new StorageError('nested_transaction', 'storage.transaction or storage.read called inside a unit of work; use its handle instead'));
    }
    if (this.closed) return Promise.reject(new StorageError('closed', 'storage is closed'));
    const scope = { open: true };
    const run = this.unitScope.run(scope, async () => {
      const client = await this.pool.connect();
      let clean = false;
      try {
        const result = await body(client);
        clean = true;
        return result;
      } catch (error) {
        // A failed BEGIN, COMMIT or ROLLBACK leaves the connection in an unknown state.
        clean = await client.query('ROLLBACK').then(
          () => true,
          () => false,
        );
        throw toPostgresStorageError(error);
      } finally {
        scope.open = false;
        client.release(!clean);
      }
    });
    this.running.add(run);
    const forget = () => this.running.delete(run);
    run.then(forget, forget);
    return run;
  }
}

/**
 * Storage on the PostgreSQL database at `url` (`postgres://user:password@host:port/database`),
 * its migrations applied first. `poolSize`: connections held at most (default 10).
 */
export async function openPostgresStorage(url: string, sessionTypes: SessionTypeCatalog, options: { poolSize?: number } = {}): Promise<PostgresStorage> {
  const pool = openPool(url, { max: options.poolSize });
  try {
    await migratePostgres(pool);
  } catch (error) {
    await pool.end();
    // Named by host, port and database only: the URL may hold a password.
    const parsed = URL.canParse(url) ? new URL(url) : null;
    const where = parsed ? `${parsed.host}${parsed.pathname}` : 'the database URL';
    throw new Error(`PostgreSQL at ${where} could not be opened and migrated: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return new PostgresStorage(pool, sessionTypes);
}
