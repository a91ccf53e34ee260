/**
 * The web delivery rows (issue 27 item 5): Lighthouse's performance score, FCP, LCP and bytes
 * transferred for the landing page (signed out) and the home page (signed in), with
 * Lighthouse's default mobile settings (simulated throttling), driving Debian's Chromium
 * against the compiled server serving the built web app — as `npm start` serves it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { AuthResponse } from '@tutorloop/shared';
import { launch, type LaunchedChrome } from 'chrome-launcher';
import lighthouse, { type Result as LighthouseResult } from 'lighthouse';
import WebSocket from 'ws';
import { registerCleanup } from './cleanup';
import { createRecallSet } from './rest-client';

const chromiumPath = '/usr/bin/chromium';
const chromiumFlags = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
/** Runs per page; the median run is reported (one run's score moves by a few points on a shared machine). */
const runsPerPage = 3;
/** Where the web app keeps the signed-in learner (`web/src/store/auth-store.ts`, authStorageKey). */
const authStorageKey = 'tutorloop.auth';
const startTimeoutMs = 60_000;

export interface LighthouseOpportunity {
  id: string;
  title: string;
  savingsMs: number;
  savingsBytes: number;
}

export interface LighthouseMeasurement {
  score: number;
  fcpMs: number;
  lcpMs: number;
  transferBytes: number;
  opportunities: LighthouseOpportunity[];
  warnings: string[];
}

export interface LighthousePage {
  name: 'landing' | 'home';
  description: string;
  runs: LighthouseMeasurement[];
  median: LighthouseMeasurement;
  /** The median run's HTML report, relative to the repository. */
  reportFile: string;
}

export type LighthouseBench =
  | { status: 'measured'; lighthouseVersion: string; chromium: string; pages: LighthousePage[] }
  | { status: 'unavailable'; reason: string };

/** The figures of one Lighthouse result; opportunities that would save time, biggest first. */
export function summarizeLighthouse(result: LighthouseResult): LighthouseMeasurement {
  const numeric = (id: string) => result.audits[id]?.numericValue ?? Number.NaN;
  const opportunities = Object.values(result.audits)
    .flatMap((audit) => {
      const details = audit.details;
      if (details?.type !== 'opportunity') return [];
      return [{ id: audit.id, title: audit.title, savingsMs: details.overallSavingsMs ?? 0, savingsBytes: details.overallSavingsBytes ?? 0 }];
    })
    .filter((entry) => entry.savingsMs > 0 || entry.savingsBytes > 0)
    .sort((a, b) => b.savingsMs - a.savingsMs || b.savingsBytes - a.savingsBytes);
  return {
    score: result.categories.performance?.score ?? Number.NaN,
    fcpMs: numeric('first-contentful-paint'),
    lcpMs: numeric('largest-contentful-paint'),
    transferBytes: numeric('total-byte-weight'),
    opportunities,
    warnings: result.runWarnings.map(String),
  };
}

/** The run with the median score (ties: the median LCP among them), so one outlier decides nothing. */
export function medianRun<Run extends Pick<LighthouseMeasurement, 'score' | 'lcpMs'>>(runs: readonly Run[]): Run {
  if (!runs.length) throw new Error('no Lighthouse runs');
  const sorted = [...runs].sort((a, b) => a.score - b.score || b.lcpMs - a.lcpMs);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function runQuietly(command: string, args: string[], cwd: string): void {
  // The child's output goes to stderr: stdout carries only the bench's table.
  const result = spawnSync(command, args, { cwd, stdio: ['ignore', 2, 2] });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed with exit code ${result.status}`);
}

/** Builds the web app if `web/dist` is missing, and the server unless its build stamp matches its sources. */
function ensureBuilds(repositoryRoot: string, progress: (message: string) => void): void {
  if (!existsSync(path.join(repositoryRoot, 'web', 'dist', 'index.html'))) {
    progress('lighthouse: web/dist is missing, building the web app…');
    runQuietly('corepack', ['pnpm', '--filter', '@tutorloop/web', 'run', 'build'], repositoryRoot);
  }
  progress('lighthouse: compiling the server (skipped when its sources are unchanged)…');
  runQuietly(process.execPath, [path.join('scripts', 'build-server.mjs')], repositoryRoot);
}

/** `server/dist/main.js` under plain node, as `npm start` runs it, in a fresh temp DATA_DIR. */
async function startCompiledServer(repositoryRoot: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const dataDirectory = mkdtempSync(path.join(tmpdir(), 'tutorloop-bench-lighthouse-'));
  const child = spawn(process.execPath, ['--enable-source-maps', path.join(repositoryRoot, 'server', 'dist', 'main.js')], {
    // cwd is the temp folder, so a developer's .env (API keys) does not reach the measured server.
    cwd: dataDirectory,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDirectory,
      LLM_PROVIDER: 'offline',
      LOG_LEVEL: 'warn',
      WEB_DIST: path.join(repositoryRoot, 'web', 'dist'),
      MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())));
  const stop = async () => {
    if (!exited) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exit;
      clearTimeout(timer);
    }
    rmSync(dataDirectory, { recursive: true, force: true });
    unregister();
  };
  const unregister = registerCleanup(stop);
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the compiled server did not start in ${startTimeoutMs / 1000} s:\n${output.join('')}`)), startTimeoutMs);
      const watch = (chunk: Buffer) => {
        output.push(chunk.toString());
        const match = /running at (http:\/\/\S+)/.exec(output.join(''));
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      };
      child.stdout.on('data', watch);
      child.stderr.on('data', watch);
      void exit.then(() => {
        clearTimeout(timer);
        reject(new Error(`the compiled server exited before it listened:\n${output.join('')}`));
      });
    });
    return { url, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function registerLearner(baseUrl: string): Promise<AuthResponse> {
  const response = await fetch(`${baseUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: `lighthouse${Date.now()}`, password: 'correct horse battery staple' }),
  });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`POST /api/auth/register answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as AuthResponse;
}

/**
 * Writes one localStorage entry for `origin` in the browser over the DevTools protocol. The
 * tab loads a JSON route of the origin, so no asset of the app enters the cache; Lighthouse
 * clears the cache before it loads the page but keeps local storage (its default clearStorageTypes).
 */
async function putInLocalStorage(debuggingPort: number, origin: string, key: string, value: string): Promise<void> {
  const version = (await (await fetch(`http://127.0.0.1:${debuggingPort}/json/version`)).json()) as { webSocketDebuggerUrl: string };
  const socket = new WebSocket(version.webSocketDebuggerUrl, { perMessageDeflate: false });
  await new Promise<void>((resolve, reject) => socket.once('open', () => resolve()).once('error', reject));
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as { id?: number; result?: unknown; error?: { message: string } };
    const waiter = message.id === undefined ? undefined : pending.get(message.id);
    if (!waiter) return;
    pending.delete(message.id!);
    if (message.error) waiter.reject(new Error(`DevTools protocol: ${message.error.message}`));
    else waiter.resolve(message.result);
  });
  const send = <Result>(method: string, params: object, sessionId?: string) =>
    new Promise<Result>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve: (result) => resolve(result as Result), reject });
      socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    });
  try {
    const { targetId } = await send<{ targetId: string }>('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
    await send('Page.navigate', { url: `${origin}/api/health` }, sessionId);
    const expression = `location.origin === ${JSON.stringify(origin)} && (localStorage.setItem(${JSON.stringify(key)}, ${JSON.stringify(value)}), true)`;
    for (let attempt = 0; ; attempt += 1) {
      const evaluated = await send<{ result: { value?: unknown } }>('Runtime.evaluate', { expression, returnByValue: true }, sessionId);
      if (evaluated.result.value === true) break;
      if (attempt >= 100) throw new Error(`could not reach ${origin} in the browser to store the sign-in`);
      await delay(100);
    }
    await send('Target.closeTarget', { targetId });
  } finally {
    socket.close();
  }
}

async function lighthouseOnce(url: string, port: number): Promise<LighthouseResult & { report: string }> {
  // Lighthouse's defaults are the mobile form factor with simulated throttling (slow 4G, 4× CPU).
  const result = await lighthouse(url, { port, output: 'html', logLevel: 'error', onlyCategories: ['performance'] });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  if (result.lhr.runtimeError) throw new Error(`Lighthouse on ${url}: ${result.lhr.runtimeError.code} ${result.lhr.runtimeError.message}`);
  return Object.assign(result.lhr, { report: Array.isArray(result.report) ? result.report.join('\n') : result.report });
}

export async function measureLighthouse(repositoryRoot: string, outputDirectory: string, progress: (message: string) => void): Promise<LighthouseBench> {
  if (!existsSync(chromiumPath)) return { status: 'unavailable', reason: `${chromiumPath} is missing (apt-get install -y chromium)` };
  ensureBuilds(repositoryRoot, progress);
  progress('lighthouse: starting the compiled server with the built web app…');
  const server = await startCompiledServer(repositoryRoot);
  let chrome: LaunchedChrome | null = null;
  const unregisterChrome = registerCleanup(() => chrome?.kill());
  try {
    chrome = await launch({ chromePath: chromiumPath, chromeFlags: chromiumFlags, logLevel: 'error' });
    const pages: LighthousePage[] = [];
    let lighthouseVersion = '';
    const measurePage = async (name: LighthousePage['name'], description: string) => {
      const runs: Array<LighthouseMeasurement & { report: string }> = [];
      for (let run = 1; run <= runsPerPage; run += 1) {
        progress(`lighthouse: ${description}, run ${run} of ${runsPerPage}…`);
        const result = await lighthouseOnce(`${server.url}/`, chrome!.port);
        lighthouseVersion = result.lighthouseVersion;
        runs.push({ ...summarizeLighthouse(result), report: result.report });
      }
      const median = medianRun(runs);
      const reportFile = path.join(outputDirectory, `lighthouse-${name}.html`);
      writeFileSync(reportFile, median.report);
      const strip = ({ report: _report, ...measurement }: LighthouseMeasurement & { report: string }) => measurement;
      pages.push({ name, description, runs: runs.map(strip), median: strip(median), reportFile: path.relative(repositoryRoot, reportFile) });
    };
    await measurePage('landing', 'landing page (signed out, /)');
    // A learner with one recall set, signed in the way the web app remembers a sign-in.
    const auth = await registerLearner(server.url);
    await createRecallSet(server.url, { token: auth.token });
    await putInLocalStorage(chrome.port, server.url, authStorageKey, JSON.stringify({ token: auth.token, learner: auth.learner }));
    await measurePage('home', 'home page (signed in, /)');
    const version = spawnSync(chromiumPath, ['--version'], { encoding: 'utf8' }).stdout.trim();
    return { status: 'measured', lighthouseVersion, chromium: version || chromiumPath, pages };
  } finally {
    chrome?.kill();
    unregisterChrome();
    await server.stop();
  }
}
