/**
 * The PostgreSQL connection side of the storage (SPEC §11): a node-postgres pool for a
 * `postgres://` URL and the checked-in drizzle-kit migrations (server/drizzle-postgres/),
 * applied at start under an advisory lock so that instances starting together on one
 * database do not race to create the same tables.
 */
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { serverPaths } from '../../paths';

/** Drizzle on one pooled client: what the repositories of one unit of work run their statements on. */
export type PostgresDatabase = NodePgDatabase;

const migrationsFolder = serverPaths.postgresMigrations;

/**
 * The advisory lock the migrations run under, in the two-integer key space (which never meets
 * the one-bigint keys a session lock would use): "tutr", 1.
 */
const migrationLock = [0x74757472, 1] as const;

/** Drizzle over one client of the pool (statements then run on that client's connection). */
export function onClient(client: pg.PoolClient): PostgresDatabase {
  return drizzle(client);
}

/** A pool on `url`. An idle client whose connection drops is discarded (the next unit gets a new one) instead of crashing the process. */
export function openPool(url: string, options: { max?: number } = {}): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10 });
  pool.on('error', () => undefined);
  return pool;
}

/**
 * Applies the migrations not yet applied, holding the migration lock: a second instance
 * starting at the same moment waits, then finds them applied. The lock is session-level, on
 * this one connection; PostgreSQL releases it if the connection dies mid-way.
 */
export async function migratePostgres(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('SELECT pg_advisory_lock($1, $2)', [...migrationLock]);
    try {
      await migrate(onClient(client), { migrationsFolder });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1, $2)', [...migrationLock]).catch(() => {
        broken = true;
      });
    }
  } catch (error) {
    broken = true;
    throw error;
  } finally {
    // A connection that may still hold the lock is closed, not returned to the pool.
    client.release(broken);
  }
}
