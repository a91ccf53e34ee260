/**
 * Opens the SQLite database (better-sqlite3), turns on WAL and foreign keys, and applies
 * the checked-in drizzle-kit migrations. The only place that knows the file layout.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { serverPaths } from '../paths';
import * as schema from './schema';

export type Database = BetterSQLite3Database<typeof schema> & { $client: Sqlite.Database };

const migrationsFolder = serverPaths.sqliteMigrations;

/** Opens (creating if needed) the database at `file` (or `:memory:`) with migrations applied. */
export function openDatabase(file: string): Database {
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
  const client = new Sqlite(file);
  client.pragma('journal_mode = WAL');
  client.pragma('foreign_keys = ON');
  client.pragma('busy_timeout = 5000');
  // WAL with synchronous=NORMAL keeps committed transactions across a process crash.
  client.pragma('synchronous = NORMAL');
  const database = drizzle(client, { schema }) as Database;
  migrate(database, { migrationsFolder });
  return database;
}

export { schema };

/**
 * A read-only connection to an existing database file, for inspecting what the server stored
 * (tests, tools) beside the storage's own connection; WAL lets it read while the server writes.
 */
export function openReadOnlyDatabase(file: string): Database {
  const client = new Sqlite(file, { readonly: true, fileMustExist: true });
  return drizzle(client, { schema }) as Database;
}
