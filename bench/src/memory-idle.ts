/**
 * Idle memory of the server as `npm start` runs it (issue 27 item 2), not part of `npm test`:
 *
 *   corepack pnpm exec tsx bench/src/memory-idle.ts [--heap] [--settle-ms 5000] [--only compiled|tsx] [--node-flags "--max-semi-space-size=2"]
 *
 * Starts the server as its own process four ways — compiled (`node server/dist/main.js`, built
 * first when stale) and from the sources (`node --import tsx src/main.ts`), each with the offline
 * tutor and with a model provider configured (a key and an unreachable base URL: nothing is
 * called while idle) — in a fresh DATA_DIR on a free loopback port, answers `/api/health` and `/`,
 * waits `--settle-ms`, and reads the process's RSS and heap from /proc. With `--heap` it then
 * takes a heap snapshot (`--heapsnapshot-signal`, which also runs a full GC) and prints what
 * holds the heap: the largest groups by self size (constructor name, or the kind of a string,
 * array, code or native buffer). Figures depend on the machine and its load: the load average is
 * printed with them.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { summariseHeapSnapshot, type HeapGroup } from './heap-summary';

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const serverDirectory = path.join(repositoryRoot, 'server');

type Mode = 'compiled' | 'tsx';
type ProviderSetup = 'offline' | 'model';

interface Options {
  heap: boolean;
  settleMs: number;
  modes: Mode[];
  /** Node/V8 flags for the server process, e.g. `--max-semi-space-size=2`. */
  nodeFlags: string[];
}

function parseOptions(argv: string[]): Options {
  const options: Options = { heap: false, settleMs: 5000, modes: ['compiled', 'tsx'], nodeFlags: [] };
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index];
    if (argument === '--heap') options.heap = true;
    else if (argument === '--settle-ms') options.settleMs = Number(argv[++index]);
    else if (argument === '--only') options.modes = [argv[++index] as Mode];
    else if (argument === '--node-flags') options.nodeFlags = (argv[++index] ?? '').split(/\s+/).filter(Boolean);
    else throw new Error(`unknown argument ${argument}; expected --heap, --settle-ms N, --only compiled|tsx, --node-flags "FLAGS"`);
  }
  if (!Number.isFinite(options.settleMs) || options.settleMs < 0) throw new Error('--settle-ms takes a number of milliseconds');
  if (options.modes.some((mode) => mode !== 'compiled' && mode !== 'tsx')) throw new Error('--only takes compiled or tsx');
  return options;
}

/** What /proc says about a process, in MB. */
function processMemory(pid: number): { rssMb: number; heapHint: string } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kilobytes = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rssMb: kilobytes('VmRSS') / 1024, heapHint: `anon ${(kilobytes('RssAnon') / 1024).toFixed(0)} MB, file ${(kilobytes('RssFile') / 1024).toFixed(0)} MB` };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Started {
  child: ChildProcess;
  url: string;
  startMs: number;
  output: () => string;
}

async function startServer(mode: Mode, provider: ProviderSetup, dataDirectory: string, diagnosticDirectory: string, nodeFlags: readonly string[]): Promise<Started> {
  // As scripts/start.mjs runs it.
  const entry = mode === 'compiled' ? ['dist/main.js'] : ['--import', 'tsx', 'src/main.ts'];
  const environment: Record<string, string | undefined> = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDirectory,
    LOG_LEVEL: 'warn',
    MALLOC_ARENA_MAX: '2',
    ANTHROPIC_API_KEY: undefined,
    OPENAI_API_KEY: undefined,
    LLM_PROVIDER: provider === 'offline' ? 'offline' : 'anthropic',
    ...(provider === 'model' ? { ANTHROPIC_API_KEY: 'bench-key-never-sent', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' } : {}),
  };
  const started = performance.now();
  const child = spawn(process.execPath, [`--heapsnapshot-signal=SIGUSR2`, `--diagnostic-dir=${diagnosticDirectory}`, ...nodeFlags, ...entry], {
    cwd: serverDirectory,
    env: environment,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the ${mode} server did not start in 120 s:\n${text}`)), 120_000);
    const check = () => {
      const match = /running at (http:\/\/[\d.:]+)/.exec(text);
      if (!match) return;
      clearTimeout(timer);
      resolve(match[1]!);
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the ${mode} server exited with ${code}:\n${text}`));
    });
  });
  return { child, url, startMs: performance.now() - started, output: () => text };
}

async function takeHeapSnapshot(child: ChildProcess, directory: string): Promise<string> {
  const before = new Set(readdirSync(directory));
  child.kill('SIGUSR2');
  for (let waited = 0; waited < 120_000; waited += 250) {
    await sleep(250);
    const written = readdirSync(directory).find((name) => !before.has(name) && name.endsWith('.heapsnapshot'));
    // The file is complete once its size stops changing.
    if (written) {
      const file = path.join(directory, written);
      let size = -1;
      for (;;) {
        await sleep(500);
        const now = readFileSync(file).byteLength;
        if (now === size && now > 0) return file;
        size = now;
      }
    }
  }
  throw new Error('no heap snapshot was written in 120 s');
}

interface Row {
  mode: Mode;
  provider: ProviderSetup;
  startMs: number;
  rssMb: number;
  detail: string;
  heap?: { totalMb: number; groups: HeapGroup[]; largestStrings: string[] };
}

async function measure(mode: Mode, provider: ProviderSetup, options: Options): Promise<Row> {
  const dataDirectory = mkdtempSync(path.join(tmpdir(), 'tutorloop-memory-'));
  const diagnosticDirectory = mkdtempSync(path.join(tmpdir(), 'tutorloop-heap-'));
  let server: Started | undefined;
  try {
    server = await startServer(mode, provider, dataDirectory, diagnosticDirectory, options.nodeFlags);
    for (const route of ['/api/health', '/']) {
      const response = await fetch(`${server.url}${route}`);
      if (!response.ok) throw new Error(`${route} answered ${response.status}`);
      await response.arrayBuffer();
    }
    await sleep(options.settleMs);
    const memory = processMemory(server.child.pid!);
    const row: Row = { mode, provider, startMs: server.startMs, rssMb: memory.rssMb, detail: memory.heapHint };
    if (options.heap) {
      const file = await takeHeapSnapshot(server.child, diagnosticDirectory);
      row.heap = summariseHeapSnapshot(file);
    }
    return row;
  } finally {
    server?.child.kill('SIGTERM');
    if (server) await new Promise((resolve) => (server!.child.exitCode === null ? server!.child.once('exit', resolve) : resolve(null)));
    rmSync(dataDirectory, { recursive: true, force: true });
    rmSync(diagnosticDirectory, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  if (options.modes.includes('compiled')) {
    const built = spawnSync(process.execPath, [path.join(repositoryRoot, 'scripts', 'build-server.mjs')], { stdio: 'inherit' });
    if (built.status !== 0) throw new Error('the server build failed');
  }
  const rows: Row[] = [];
  for (const mode of options.modes) {
    for (const provider of ['model', 'offline'] as const) {
      console.log(`measuring ${mode}, ${provider} tutor…`);
      rows.push(await measure(mode, provider, options));
    }
  }
  const load = loadavg().map((value) => value.toFixed(2)).join(' ');
  console.log(`\nIdle memory, ${options.settleMs} ms after /api/health and / answered (load average ${load}, Node ${process.version}${options.nodeFlags.length ? `, ${options.nodeFlags.join(' ')}` : ''}):\n`);
  // No RSS after the snapshot: writing one takes hundreds of MB of its own.
  console.log('| server | tutor | ready in | RSS idle | RSS by kind | heap in snapshot (after a full GC) |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const row of rows) {
    const heap = row.heap ? `${row.heap.totalMb.toFixed(1)} MB` : '–';
    console.log(`| ${row.mode} | ${row.provider} | ${(row.startMs / 1000).toFixed(1)} s | ${row.rssMb.toFixed(0)} MB | ${row.detail} | ${heap} |`);
  }
  for (const row of rows) {
    if (!row.heap) continue;
    console.log(`\nLargest heap groups by self size — ${row.mode}, ${row.provider} tutor:`);
    for (const group of row.heap.groups) console.log(`  ${group.selfMb.toFixed(2).padStart(7)} MB  ${String(group.count).padStart(8)} × ${group.name}`);
    for (const text of row.heap.largestStrings) console.log(`    largest string ${text}`);
  }
}

await main();
