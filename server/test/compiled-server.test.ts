/**
 * Issue 27 item 1 — the compiled server `npm start` runs (scripts/build-server.mjs): built into a
 * folder of its own beside server/dist, started with plain `node` (no tsx anywhere in the
 * process), it finds its migrations, blueprints, study plans and surveys, serves the web app,
 * runs an offline recall session over the socket and reads a document in its compiled worker
 * thread (a worker that tsx compiles when the sources run).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(serverDir, `dist-test-${process.pid}`);
const buildScript = path.join(serverDir, '..', 'scripts', 'build-server.mjs');

interface Running {
  child: ChildProcess;
  url: string;
  output: () => string;
}

function startCompiled(dataDir: string, webDist: string): Promise<Running> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(outDir, 'main.js')], {
      cwd: serverDir,
      env: { PATH: process.env.PATH, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LLM_PROVIDER: 'offline', LOG_LEVEL: 'warn', WEB_DIST: webDist },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /running at (http:\/\/[^\s]+)/.exec(output);
      if (match) resolve({ child, url: match[1]!, output: () => output });
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`the compiled server exited with ${code}: ${output}`)));
  });
}

async function request<T>(url: string, method: string, route: string, body?: unknown, token?: string): Promise<{ status: number; body: T }> {
  const response = await fetch(`${url}${route}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text) as T };
}

describe('the compiled server (npm start)', () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'tutorloop-compiled-'));
  const webDist = path.join(folder, 'web');
  let server: Running;

  beforeAll(async () => {
    const built = spawnSync(process.execPath, [buildScript, '--out', outDir], { encoding: 'utf8' });
    if (built.status !== 0) throw new Error(`the build failed: ${built.stdout}${built.stderr}`);
    mkdirSync(webDist);
    writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>tutorloop</title><div id="root"></div>');
    server = await startCompiled(path.join(folder, 'data'), webDist);
  }, 120_000);

  afterAll(() => {
    server?.child.kill('SIGKILL');
    rmSync(outDir, { recursive: true, force: true });
    rmSync(folder, { recursive: true, force: true });
  });

  it('is built without tsx: the server and its worker threads are plain JavaScript next to each other', () => {
    const files = readdirSync(outDir).filter((name) => /\.(m?js|py|html)$/.test(name)).sort();
    expect(files).toEqual(
      expect.arrayContaining(['main.js', 'apkg-worker.mjs', 'document-worker.mjs', 'simulation-worker.mjs', 'optimizer-worker.mjs', 'python-worker.mjs', 'python-harness.py', 'javascript-worker.mjs', 'openapi-docs.html']),
    );
    for (const name of files.filter((file) => /\.m?js$/.test(file))) expect(readFileSync(path.join(outDir, name), 'utf8')).not.toMatch(/from ['"]tsx\//);
  });

  it('answers /api/health and serves the web app at /', async () => {
    expect(await request(server.url, 'GET', '/api/health')).toEqual({ status: 200, body: { status: 'ok', tutor: 'offline', version: expect.any(String) } });
    const page = await request<string>(server.url, 'GET', '/');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<div id="root"></div>');
  });

  it('runs an offline recall session over the socket, and lists the built-in blueprints, study plans and surveys', async () => {
    const auth = await request<{ token: string }>(server.url, 'POST', '/api/auth/register', { username: 'compiled', password: 'correct horse battery staple' });
    expect(auth.status).toBe(201);
    const token = auth.body.token;
    const set = await request<{ id: string }>(server.url, 'POST', '/api/recall-sets', { name: 'Respiration', points: [{ content: 'Oxygen is the final electron acceptor and is reduced to water.' }] }, token);
    const session = await request<{ sessionId: string }>(server.url, 'POST', '/api/sessions', { type: 'recall', recallSetId: set.body.id }, token);
    expect(session.status).toBe(201);
    const socket = new WebSocket(`${server.url.replace('http', 'ws')}/sessions/ws/${session.body.sessionId}?token=${encodeURIComponent(token)}`);
    const welcome = await new Promise<{ type: string; payload: { message: string } }>((resolve, reject) => {
      socket.on('message', (data) => {
        const event = JSON.parse(String(data)) as { type: string; payload: { message: string } };
        if (event.type === 'assistant') resolve(event);
      });
      socket.on('error', reject);
    });
    socket.close();
    expect(welcome.payload.message).toContain('Respiration');
    // Each list holds the files shipped in server/ (blueprints/, study-plans/, surveys/), found from the build.
    for (const [route, field] of [['/api/blueprints', 'blueprints'], ['/api/study-plans', 'studyPlans'], ['/api/surveys', 'surveys']] as const) {
      const listed = await request<Record<string, unknown[]>>(server.url, 'GET', route, undefined, token);
      expect({ route, status: listed.status, shipped: (listed.body[field]?.length ?? 0) > 0 }).toEqual({ route, status: 200, shipped: true });
    }
  }, 60_000);

  it('reads a document in its compiled worker thread', async () => {
    const auth = await request<{ token: string }>(server.url, 'POST', '/api/auth/register', { username: 'compiled-documents', password: 'correct horse battery staple' });
    const text = 'Photosynthesis\n\nChlorophyll absorbs red and blue light and reflects green light. The light reactions split water and release oxygen. The Calvin cycle fixes carbon dioxide into sugar.';
    const proposed = await request<{ proposals: Array<{ content: string }> }>(server.url, 'POST', '/api/documents/propose', { format: 'text', text }, auth.body.token);
    expect(proposed.status).toBe(200);
    expect(proposed.body.proposals.map((proposal) => proposal.content).join(' ')).toContain('Chlorophyll');
  }, 60_000);
});
