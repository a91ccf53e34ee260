import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startPostgresServer, type PostgresServer } from '../../../test/helpers/postgres-server';
import { at, choiceAction, gate, newLearner, rejection, seedRecall, studyPlanContent } from '../../../test/storage-contract/fixtures';
import { describeStorageContract } from '../../../test/storage-contract/storage-contract';
import { sessionTypeCatalog } from '../../core/session-type-states';
import { isStorageError, type StorageError } from '../../core/storage/storage-error';
import { openPostgresStorage, type PostgresStorage } from './postgres-storage';

let server: PostgresServer;
/** The contract's database: one for the suite, emptied before each test (the contract closes each test's storage). */
const contractDatabase = 'contract';
let contractUrl = '';

beforeAll(async () => {
  server = await startPostgresServer();
  contractUrl = await server.createDatabase(contractDatabase);
}, 60_000);

afterAll(async () => {
  await server?.stop();
}, 60_000);

describeStorageContract('postgresql', async () => {
  await server.emptyDatabase(contractDatabase);
  return openPostgresStorage(contractUrl, sessionTypeCatalog, { poolSize: 4 });
});

/** Runs one statement on database `url` beside the storage, as an operator (or a damaged disk) would. */
async function execute(url: string, statement: string, values: unknown[] = []): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement, values);
  } finally {
    await client.end();
  }
}

/** The driver's SQLSTATE behind a StorageError. */
function sqlState(error: unknown): string | undefined {
  for (let cause: unknown = (error as StorageError).cause; cause instanceof Error; cause = cause.cause) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

describe('postgresql storage', () => {
  const opened: PostgresStorage[] = [];
  const open = async (url: string) => {
    const storage = await openPostgresStorage(url, sessionTypeCatalog);
    opened.push(storage);
    return storage;
  };
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((storage) => storage.close()));
  });

  it('starts two instances together on one empty database: both come up, the migrations applied once', async () => {
    const url = await server.createDatabase('two_instances');
    const [first, second] = await Promise.all([open(url), open(url)]);
    await first.transaction((tx) => tx.learners.create(newLearner('l1')));
    expect((await second.read((reader) => reader.learners.get('l1')))?.id).toBe('l1');
    const journal = JSON.parse(readFileSync(new URL('../../../drizzle-postgres/meta/_journal.json', import.meta.url), 'utf8')) as { entries: unknown[] };
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const applied = await client.query('SELECT count(*)::int AS count FROM drizzle.__drizzle_migrations');
      expect(applied.rows[0].count).toBe(journal.entries.length);
    } finally {
      await client.end();
    }
  });

  it('keeps committed work across a restart of the storage, and nothing of a rolled-back one', async () => {
    const url = await server.createDatabase('reopen');
    const first = await open(url);
    await first.transaction(async (tx) => tx.learners.create(newLearner('kept')));
    await rejection(
      first.transaction(async (tx) => {
        await tx.learners.create(newLearner('dropped'));
        throw new Error('rolled back');
      }),
    );
    await first.close();
    const again = await open(url);
    expect(await again.read(async (reader) => [(await reader.learners.get('kept'))?.id, await reader.learners.get('dropped')])).toEqual(['kept', null]);
  });

  it('reports a stored type state or study plan that no longer parses as corrupt (R7, R9)', async () => {
    const url = await server.createDatabase('corrupt');
    const storage = await open(url);
    const seed = await seedRecall(storage);
    await storage.transaction((tx) => tx.studyPlans.create({ id: 'plan-1', ownerId: seed.learnerId, shared: false, plan: studyPlanContent(), createdAt: at(1) }));
    await execute(url, `UPDATE sessions SET type_state = '{"type":"recall","mode":"sideways"}' WHERE id = $1`, [seed.sessionId]);
    await execute(url, `UPDATE study_plans SET plan_json = '{"title":"no steps"}' WHERE id = 'plan-1'`);
    expect(isStorageError(await rejection(storage.loadSessionSnapshot(seed.sessionId)), 'corrupt')).toBe(true);
    expect(isStorageError(await rejection(storage.read((reader) => reader.studyPlans.get('plan-1'))), 'corrupt')).toBe(true);
  });

  it("maps PostgreSQL's SQLSTATEs to the port's codes: 23505 → conflict, 23503 → missing_reference", async () => {
    const storage = await open(await server.createDatabase('sqlstates'));
    await storage.transaction((tx) => tx.learners.create(newLearner('l1')));
    const duplicate = await rejection(storage.transaction((tx) => tx.learners.create(newLearner('l1', 'another-name'))));
    expect([isStorageError(duplicate, 'conflict'), sqlState(duplicate)]).toEqual([true, '23505']);
    const orphan = await rejection(storage.transaction((tx) => tx.recallSets.create({ id: 'set-1', learnerId: 'nobody', name: 'Orphan', description: null, createdAt: new Date(0) })));
    expect([isStorageError(orphan, 'missing_reference'), sqlState(orphan)]).toEqual([true, '23503']);
    expect(await storage.read((reader) => reader.recallSets.get('set-1'))).toBeNull();
  });

  it('refuses a unit of work started inside another instead of holding two connections', async () => {
    const storage = await open(await server.createDatabase('nested'));
    const error = await rejection(storage.transaction(() => storage.read((reader) => reader.learners.get('x'))));
    expect(isStorageError(error, 'nested_transaction')).toBe(true);
    expect(await storage.transaction(async (tx) => (await tx.learners.create(newLearner('l1'))).ok)).toBe(true);
  });

  it('lets only one of two concurrent transactions add a pending action to a session (R4 under concurrency)', async () => {
    const storage = await open(await server.createDatabase('pending'));
    const { sessionId } = await seedRecall(storage);
    const hold = gate();
    const started = gate();
    const first = storage.transaction(async (tx) => {
      await tx.pendingActions.create(choiceAction(sessionId, 'w1'));
      started.open();
      await hold.opened;
    });
    await started.opened;
    // The second waits on the session's row lock, then sees the first's committed action.
    const second = storage.transaction((tx) => tx.pendingActions.create(choiceAction(sessionId, 'w2')));
    hold.open();
    await first;
    expect(isStorageError(await rejection(second), 'conflict')).toBe(true);
    expect((await storage.read((reader) => reader.pendingActions.list(sessionId))).map((action) => action.id)).toEqual(['w1']);
  });
});
