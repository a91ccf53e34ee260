/**
 * Starts the real server as its own process (`node --import tsx src/main.ts`, so a SIGKILL
 * hits the server itself, not a wrapper) on a free loopback port, for restart tests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Everything the process printed so far (stdout and stderr), to explain a failure. */
  output(): string;
}

/** Resolves once the server prints its URL; `env` adds to an offline, quiet configuration. */
export function startServerProcess(dataDir: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: serverDir,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LLM_PROVIDER: 'offline', ANTHROPIC_API_KEY: '', LOG_LEVEL: 'warn', WEB_DIST: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    // Generous: under a loaded machine (CI beside other runs) a tsx start can take tens of seconds.
    const timer = setTimeout(() => reject(new Error(`server did not start: ${output}`)), 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /running at (http:\/\/[^\s]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1]!, output: () => output });
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}: ${output}`));
    });
  });
}

/** POSTs JSON to a server process (optionally as a learner) and returns the parsed answer. */
export async function postJson<T>(url: string, route: string, body: unknown, token?: string): Promise<T> {
  const response = await fetch(`${url}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return (await response.json()) as T;
}
