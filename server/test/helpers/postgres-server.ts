/**
 * A throwaway PostgreSQL server for tests (SPEC §11; ../shared/ENVIRONMENT.md): Debian's
 * binaries, a cluster in a temp folder, a free loopback port, `fsync` off, one database per
 * suite (or per test) created on demand, and everything stopped and removed afterwards —
 * also when the test process ends on a failure. Works as root (as tests run here and in CI):
 * `initdb` and `postgres` refuse root, so they run as the `postgres` user, on a folder it owns.
 */
import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/** The superuser the cluster is made with (trust authentication on loopback: no password). */
const superuser = 'tutorloop';

export interface PostgresServer {
  readonly port: number;
  /** The URL of database `name` on this server. */
  url(name: string): string;
  /** Creates database `name` (a copy of `template` when given) and returns its URL. */
  createDatabase(name: string, template?: string): Promise<string>;
  /**
   * Empties every table of database `name` (its migrations stay applied): a fresh storage for
   * the next test in a fraction of the time a new database takes. Nothing may be connected to it.
   */
  emptyDatabase(name: string): Promise<void>;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
}

/** The folder of `initdb` and `pg_ctl`: on PATH, else the newest /usr/lib/postgresql/<version>/bin. */
function binaryFolder(): string {
  for (const folder of (process.env.PATH ?? '').split(path.delimiter)) {
    if (folder && existsSync(path.join(folder, 'initdb')) && existsSync(path.join(folder, 'pg_ctl'))) return folder;
  }
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((version) => existsSync(path.join(root, version, 'bin', 'initdb'))) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) throw new Error("PostgreSQL's initdb was found neither on PATH nor in /usr/lib/postgresql/*/bin: install Debian's postgresql package (npm test does so as root)");
  return path.join(root, newest, 'bin');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function postgresUser(): { uid: number; gid: number } {
  const [uid, gid] = ['-u', '-g'].map((flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim()));
  return { uid: uid!, gid: gid! };
}

/** Starts a server; the caller stops it (`afterAll(() => server.stop())`). */
export async function startPostgresServer(): Promise<PostgresServer> {
  const bin = binaryFolder();
  const isRoot = process.getuid?.() === 0;
  const folder = mkdtempSync(path.join(tmpdir(), 'tutorloop-pg-'));
  if (isRoot) {
    const { uid, gid } = postgresUser();
    chownSync(folder, uid, gid);
  }
  const data = path.join(folder, 'data');
  // As root, the server's binaries run as postgres; otherwise as whoever runs the tests.
  const command = (tool: string, args: string[]): [string, string[]] => (isRoot ? ['runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args]] : [path.join(bin, tool), args]);
  const exec = (tool: string, args: string[]) => run(...command(tool, args), { cwd: folder });

  let stopped = false;
  const stopNow = () => {
    if (stopped) return;
    stopped = true;
    try {
      if (existsSync(path.join(data, 'postmaster.pid'))) execFileSync(...command('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']), { cwd: folder, stdio: 'ignore' });
    } catch {
      // Already gone.
    }
    rmSync(folder, { recursive: true, force: true });
  };
  // A test process that ends without calling stop (a crash, a failed beforeAll) still leaves nothing running.
  process.once('exit', stopNow);

  try {
    await exec('initdb', ['-D', data, '-A', 'trust', '-U', superuser, '--no-sync', '--encoding=UTF8', '--locale=C']);
    let port = 0;
    // The free port may be taken between the probe and the start: try a few.
    for (let attempt = 1; ; attempt += 1) {
      port = await freePort();
      const options = `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
      try {
        await exec('pg_ctl', ['-D', data, '-o', options, '-l', path.join(folder, 'log'), '-w', '-t', '60', 'start']);
        break;
      } catch (error) {
        if (attempt >= 3) throw error;
      }
    }
    const url = (name: string) => `postgres://${superuser}@127.0.0.1:${port}/${encodeURIComponent(name)}`;
    return {
      port,
      url,
      async createDatabase(name, template) {
        const client = new pg.Client({ connectionString: url('postgres') });
        await client.connect();
        try {
          const quote = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;
          await client.query(`CREATE DATABASE ${quote(name)}${template ? ` TEMPLATE ${quote(template)}` : ''}`);
        } finally {
          await client.end();
        }
        return url(name);
      },
      async emptyDatabase(name) {
        const client = new pg.Client({ connectionString: url(name) });
        await client.connect();
        try {
          const tables = await client.query<{ name: string }>("SELECT format('%I', tablename) AS name FROM pg_tables WHERE schemaname = 'public'");
          // DELETE with foreign-key triggers off rather than TRUNCATE: test tables are small, and
          // TRUNCATE's new files cost far more than the rows (as the superuser, the role may be set).
          const statements = tables.rows.map((table) => `DELETE FROM ${table.name};`).join(' ');
          await client.query(`BEGIN; SET LOCAL session_replication_role = replica; ${statements} COMMIT;`);
        } finally {
          await client.end();
        }
      },
      async stop() {
        process.removeListener('exit', stopNow);
        if (stopped) return;
        stopped = true;
        await exec('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']).catch(() => undefined);
        rmSync(folder, { recursive: true, force: true });
      },
    };
  } catch (error) {
    process.removeListener('exit', stopNow);
    stopNow();
    throw error;
  }
}
