import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Sqlite from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { at, newLearner, rejection, seedRecall, studyPlanContent } from '../../test/storage-contract/fixtures';
import { describeStorageContract } from '../../test/storage-contract/storage-contract';
import { isStorageError } from '../core/storage/storage-error';
import { sessionTypeCatalog } from '../core/session-type-states';
import { openSqliteStorage, type SqliteStorage } from './sqlite-storage';

const folder = mkdtempSync(path.join(tmpdir(), 'tutorloop-storage-'));
let files = 0;
const nextFile = () => path.join(folder, `storage-${(files += 1)}.db`);

afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});

describeStorageContract('sqlite (temp file)', () => openSqliteStorage(nextFile(), sessionTypeCatalog));

describe('sqlite storage', () => {
  const opened: SqliteStorage[] = [];
  const open = (file: string) => {
    const storage = openSqliteStorage(file, sessionTypeCatalog);
    opened.push(storage);
    return storage;
  };
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((storage) => storage.close()));
  });

  it('refuses a unit of work started inside another instead of waiting for itself forever', async () => {
    const storage = open(nextFile());
    const error = await rejection(storage.transaction(() => storage.read((reader) => reader.learners.get('x'))));
    expect(isStorageError(error, 'nested_transaction')).toBe(true);
    // After the refused unit, the connection is free again.
    expect(await storage.transaction(async (tx) => (await tx.learners.create(newLearner('l1'))).ok)).toBe(true);
  });

  it('keeps committed work across a reopen of the file, and nothing of a rolled-back one', async () => {
    const file = nextFile();
    const first = open(file);
    await first.transaction(async (tx) => tx.learners.create(newLearner('kept')));
    await rejection(
      first.transaction(async (tx) => {
        await tx.learners.create(newLearner('dropped'));
        throw new Error('rolled back');
      }),
    );
    await first.close();
    const again = open(file);
    expect(await again.read(async (reader) => [(await reader.learners.get('kept'))?.id, await reader.learners.get('dropped')])).toEqual(['kept', null]);
  });

  it('commits units queued behind one another together: one that fails undoes only its own writes, and each is answered once committed', async () => {
    const file = nextFile();
    const storage = open(file);
    const outside = new Sqlite(file, { readonly: true });
    const committed = (id: string) => (outside.prepare('SELECT id FROM learners WHERE id = ?').get(id) as { id: string } | undefined)?.id ?? null;
    // Asked for at once: each waits for the connection while the one before runs (one COMMIT for the group).
    const outcomes = await Promise.allSettled([
      storage.transaction((tx) => tx.learners.create(newLearner('a'))).then(() => committed('a')),
      storage.transaction(async (tx) => {
        await tx.learners.create(newLearner('b'));
        throw new Error('undone');
      }),
      storage.read(async (reader) => (await reader.learners.get('a'))?.id ?? null),
      storage.transaction((tx) => tx.learners.create(newLearner('c'))).then(() => committed('c')),
    ]);
    expect(outcomes.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : (outcome.reason as Error).message))).toEqual(['a', 'undone', 'a', 'c']);
    outside.close();
    await storage.close();
    const again = open(file);
    expect(await again.read(async (reader) => Promise.all(['a', 'b', 'c'].map(async (id) => (await reader.learners.get(id))?.id ?? null)))).toEqual(['a', null, 'c']);
  });

  it('keeps no legacy per-type session column: the type state is the only copy', async () => {
    const file = nextFile();
    const storage = open(file);
    await seedRecall(storage);
    await storage.close();
    const raw = new Sqlite(file, { readonly: true });
    try {
      const columns = (raw.prepare('PRAGMA table_info(sessions)').all() as Array<{ name: string }>).map((column) => column.name);
      expect(columns).toContain('type_state');
      for (const legacy of ['mode', 'rabbithole_topic', 'probe_index', 'probe_attempts', 'config']) expect(columns).not.toContain(legacy);
    } finally {
      raw.close();
    }
  });

  it('migrates a database made before type_state: its sessions keep the state of the legacy columns', async () => {
    const file = nextFile();
    const migrations = path.join(folder, `migrations-${files}`);
    cpSync(fileURLToPath(new URL('../../drizzle', import.meta.url)), migrations, { recursive: true });
    const journalFile = path.join(migrations, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: Array<{ tag: string }> };
    // The database as it was before type_state: every earlier migration applied.
    const before = journal.entries.findIndex((entry) => entry.tag === '0002_session_type_state');
    writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, before) }));
    const client = new Sqlite(file);
    migrate(drizzle(client), { migrationsFolder: migrations });
    client.exec(`
      INSERT INTO learners (id, username, username_key, password_hash, desired_retention, created_at) VALUES ('l1', 'Ada', 'ada', 'h', 0.9, 0);
      INSERT INTO sessions (id, learner_id, type, status, mode, rabbithole_topic, title, config, turn, probe_index, probe_attempts, created_at, updated_at)
        VALUES ('r1', 'l1', 'recall', 'active', 'rabbithole', 'roots', 'Old recall', '{"allPoints":true}', 4, 1, 2, 1000, 2000);
      INSERT INTO sessions (id, learner_id, type, status, mode, title, config, turn, probe_index, probe_attempts, created_at, updated_at)
        VALUES ('a1', 'l1', 'assessment', 'pending', 'recall', 'Old assessment', '{"blueprintId":"MATH","seed":"s","timeLimitSeconds":1800}', 0, 0, 0, 3000, 3000);
    `);
    client.close();
    const storage = open(file);
    const [recall, assessment] = await storage.read(async (reader) => [await reader.sessions.get('r1'), await reader.sessions.get('a1')]);
    expect(recall).toMatchObject({ type: 'recall', turn: 4, typeState: { type: 'recall', mode: 'rabbithole', rabbitholeTopic: 'roots', probeIndex: 1, probeAttempts: 2, allPoints: true } });
    expect(assessment?.typeState).toEqual({ type: 'assessment', blueprintId: 'MATH', seed: 's', timeLimitSeconds: 1800 });
    const updated = await storage.transaction((tx) => tx.sessions.update('r1', { turn: 5 }, at(1)));
    expect(updated.typeState).toEqual(recall?.typeState);
  });

  it('migrates model call records made before learner_id: each belongs to its session’s learner, and the daily sum is one index search', async () => {
    const file = nextFile();
    const migrations = path.join(folder, `migrations-${files}`);
    cpSync(fileURLToPath(new URL('../../drizzle', import.meta.url)), migrations, { recursive: true });
    const journalFile = path.join(migrations, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: Array<{ tag: string }> };
    const before = journal.entries.findIndex((entry) => entry.tag === '0008_llm_calls_learner');
    writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, before) }));
    const client = new Sqlite(file);
    migrate(drizzle(client), { migrationsFolder: migrations });
    client.exec(`
      INSERT INTO learners (id, username, username_key, password_hash, desired_retention, created_at) VALUES ('l1', 'Ada', 'ada', 'h', 0.9, 0);
      INSERT INTO sessions (id, learner_id, type, status, title, turn, type_state, created_at, updated_at)
        VALUES ('s1', 'l1', 'thought', 'active', 'Old', 0, '{"type":"thought","topic":null}', 1000, 1000);
      INSERT INTO llm_calls (id, session_id, purpose, provider, model, input_tokens, output_tokens, latency_ms, outcome, created_at)
        VALUES ('c1', 's1', 'tutor', 'anthropic', 'm', 100, 20, 5, 'ok', ${at(1).getTime()}),
               ('c2', 'deleted-session', 'tutor', 'anthropic', 'm', 7, 7, 5, 'ok', ${at(1).getTime()});
    `);
    client.close();
    const storage = open(file);
    expect(await storage.read((reader) => reader.llmCalls.tokensUsedSince('l1', at(0)))).toBe(120);
    expect((await storage.read((reader) => reader.llmCalls.listBySession('deleted-session')))[0]?.learnerId).toBeNull();
    await storage.close();
    const raw = new Sqlite(file, { readonly: true });
    try {
      const plan = raw
        .prepare('EXPLAIN QUERY PLAN SELECT coalesce(sum(input_tokens + output_tokens), 0) FROM llm_calls WHERE learner_id = ? AND created_at >= ?')
        .all('l1', 0) as Array<{ detail: string }>;
      expect(plan.map((row) => row.detail)).toEqual([expect.stringContaining('USING INDEX llm_calls_learner_created_idx (learner_id=? AND created_at>?)')]);
    } finally {
      raw.close();
    }
  });

  it('reports a stored type state that no longer parses as corrupt', async () => {
    const file = nextFile();
    const storage = open(file);
    const seed = await seedRecall(storage);
    await storage.close();
    const raw = new Sqlite(file);
    raw.prepare(`UPDATE sessions SET type_state = '{"type":"recall","mode":"sideways"}' WHERE id = ?`).run(seed.sessionId);
    raw.close();
    const reopened = open(file);
    const error = await rejection(reopened.loadSessionSnapshot(seed.sessionId));
    expect(isStorageError(error, 'corrupt')).toBe(true);
  });

  it('reports a stored study plan that no longer parses as corrupt (R9)', async () => {
    const file = nextFile();
    const storage = open(file);
    await storage.transaction(async (tx) => {
      await tx.learners.create(newLearner('l1'));
      await tx.studyPlans.create({ id: 'plan-1', ownerId: 'l1', shared: false, plan: studyPlanContent(), createdAt: at(1) });
    });
    await storage.close();
    const raw = new Sqlite(file);
    raw.prepare(`UPDATE study_plans SET plan_json = '{"title":"no steps"}' WHERE id = 'plan-1'`).run();
    raw.close();
    const reopened = open(file);
    expect(isStorageError(await rejection(reopened.read((reader) => reader.studyPlans.get('plan-1'))), 'corrupt')).toBe(true);
  });
});
