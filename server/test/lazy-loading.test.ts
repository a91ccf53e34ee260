/**
 * Issue 27 item 2 — a fresh compiled server loads only what its configuration uses: the model
 * provider it was given (with that vendor's SDK, never the other's), the offline tutor only in
 * offline mode (its creation loads WordNet), and the OpenAPI generator on the first request for
 * the document, and PostgreSQL's driver only with DATABASE_URL. Each server is the real build (scripts/build-server.mjs, into a folder of its
 * own) run with plain `node` and a module-resolution hook that writes every module it loads to a
 * file, so the test sees what the process loaded, not what the sources say.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(serverDir, `dist-test-lazy-${process.pid}`);
const buildScript = path.join(serverDir, '..', 'scripts', 'build-server.mjs');
const folder = mkdtempSync(path.join(tmpdir(), 'tutorloop-lazy-'));
const hookFile = path.join(folder, 'log-modules.mjs');
const resolveHookFile = path.join(folder, 'log-modules-hooks.mjs');

const running: ChildProcess[] = [];

/** What a server process has loaded, in the terms of this issue. */
function loaded(log: string): { anthropicSdk: boolean; openaiSdk: boolean; offlineTutor: boolean; openApiGenerator: boolean; postgresDriver: boolean } {
  const urls = log.split('\n');
  return {
    anthropicSdk: urls.some((url) => url.includes('/node_modules/@anthropic-ai/sdk/')),
    openaiSdk: urls.some((url) => url.includes('/node_modules/openai/')),
    offlineTutor: urls.some((url) => /\/offline-provider-[\w-]+\.js$/.test(url)),
    openApiGenerator: urls.some((url) => url.includes('/node_modules/@asteasolutions/zod-to-openapi/')),
    // These servers store on SQLite: PostgreSQL's driver is loaded only with DATABASE_URL.
    postgresDriver: urls.some((url) => url.includes('/node_modules/pg/')),
  };
}

async function startCompiled(name: string, environment: Record<string, string>): Promise<{ url: string; log: () => string }> {
  const logFile = path.join(folder, `${name}.log`);
  writeFileSync(logFile, '');
  const child = spawn(process.execPath, ['--import', pathToFileURL(hookFile).href, path.join(outDir, 'main.js')], {
    cwd: serverDir,
    env: { PATH: process.env.PATH, PORT: '0', HOST: '127.0.0.1', DATA_DIR: path.join(folder, name), LOG_LEVEL: 'warn', MODULE_LOG: logFile, ...environment },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /running at (http:\/\/[^\s]+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`the compiled server exited with ${code}: ${output}`)));
  });
  return { url, log: () => readFileSync(logFile, 'utf8') };
}

describe('a fresh compiled server loads only what its configuration uses (issue 27)', () => {
  beforeAll(() => {
    const built = spawnSync(process.execPath, [buildScript, '--out', outDir], { encoding: 'utf8' });
    if (built.status !== 0) throw new Error(`the build failed: ${built.stdout}${built.stderr}`);
    // The hooks run on the loader's own thread and append each resolved URL to MODULE_LOG.
    writeFileSync(
      resolveHookFile,
      [
        "import { appendFileSync } from 'node:fs';",
        'let file;',
        'export function initialize(data) { file = data.file; }',
        'export async function resolve(specifier, context, next) { const result = await next(specifier, context); appendFileSync(file, result.url + "\\n"); return result; }',
      ].join('\n'),
    );
    writeFileSync(hookFile, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(resolveHookFile).href)}, { data: { file: process.env.MODULE_LOG } });\n`);
  }, 120_000);

  afterAll(() => {
    for (const child of running) child.kill('SIGKILL');
    rmSync(outDir, { recursive: true, force: true });
    rmSync(folder, { recursive: true, force: true });
  });

  it('with Anthropic configured: its SDK only, no offline tutor, and the OpenAPI generator on the first request for the document', async () => {
    const server = await startCompiled('anthropic', { LLM_PROVIDER: 'anthropic', ANTHROPIC_API_KEY: 'never-sent', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' });
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    expect(loaded(server.log())).toEqual({ anthropicSdk: true, openaiSdk: false, offlineTutor: false, openApiGenerator: false, postgresDriver: false });
    const document = await fetch(`${server.url}/api/openapi.json`);
    expect({ status: document.status, openapi: ((await document.json()) as { openapi: string }).openapi }).toEqual({ status: 200, openapi: '3.1.0' });
    expect(loaded(server.log())).toEqual({ anthropicSdk: true, openaiSdk: false, offlineTutor: false, openApiGenerator: true, postgresDriver: false });
  }, 60_000);

  it('with an OpenAI-compatible server configured: its SDK only', async () => {
    const server = await startCompiled('openai', { LLM_PROVIDER: 'openai', OPENAI_API_KEY: 'never-sent', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' });
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    expect(loaded(server.log())).toEqual({ anthropicSdk: false, openaiSdk: true, offlineTutor: false, openApiGenerator: false, postgresDriver: false });
  }, 60_000);

  it('offline: the offline tutor and no SDK', async () => {
    const server = await startCompiled('offline', { LLM_PROVIDER: 'offline' });
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    expect(loaded(server.log())).toEqual({ anthropicSdk: false, openaiSdk: false, offlineTutor: true, openApiGenerator: false, postgresDriver: false });
  }, 60_000);
});
