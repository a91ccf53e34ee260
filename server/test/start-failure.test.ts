/**
 * A start that fails part way closes what it had opened (server.ts `startServer`): a program that embeds the
 * server (a test, the bench, a supervisor that retries) gets the error and can exit, instead of hanging on a
 * database pool, a LISTEN connection, a worker thread or a timer nobody can reach. On SQLite nothing that holds a
 * process open is opened before the port is bound, so PostgreSQL is the case that shows it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgresServer, type PostgresServer } from './helpers/postgres-server';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Starts the server in a process of its own on `port`, and reports how that process ended (or that it hung). */
function startOnTakenPort(port: number, env: Record<string, string>): Promise<{ code: number | null; output: string; hung: boolean }> {
  const script = `
    import { parseConfig } from './src/config.ts';
    import { startServer } from './src/server.ts';
    const config = parseConfig(process.env);
    if (!config.ok) { console.log('config: ' + config.error); process.exitCode = 3; }
    else {
      try { await startServer(config.value); console.log('started'); }
      catch (error) { console.log('refused: ' + (error.code ?? error.message)); }
    }`;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: serverDir,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LLM_PROVIDER: 'offline', ANTHROPIC_API_KEY: '', LOG_LEVEL: 'silent', WEB_DIST: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // Generous for a loaded machine: a process that still runs after this is held open by something the start left.
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    let hung = false;
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      hung = signal === 'SIGKILL';
      resolve({ code, output, hung });
    });
  });
}

describe('a start that fails closes what it opened', () => {
  let blocker: Server;
  let port: number;
  let postgres: PostgresServer;
  const dataDirs: string[] = [];

  beforeAll(async () => {
    blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    port = (blocker.address() as { port: number }).port;
    postgres = await startPostgresServer();
  }, 120_000);

  afterAll(async () => {
    blocker.close();
    await postgres?.stop();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  function dataDir(): string {
    const dir = mkdtempSync(path.join(tmpdir(), 'tutorloop-start-failure-'));
    dataDirs.push(dir);
    return dir;
  }

  it('on PostgreSQL: the pool and the LISTEN connection are closed, so the process exits by itself', async () => {
    const url = await postgres.createDatabase('start_failure');
    const result = await startOnTakenPort(port, { DATA_DIR: dataDir(), DATABASE_URL: url });
    expect(result.output).toContain('refused: EADDRINUSE');
    expect(result.hung).toBe(false);
    expect(result.code).toBe(0);
  }, 90_000);
});
