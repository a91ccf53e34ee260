/**
 * `pnpm bench` (issue 6, SPEC §9): server overhead per turn against a bare ws echo + SQLite
 * insert, turns per second, time to first token, connections held and RSS, evaluator input
 * tokens as points get recalled, the web app's initial JS and Lighthouse's score of the landing
 * and home pages. Prints one table and writes it to reports/bench.md and reports/bench.json.
 * Not part of the test command.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanUpOnSignals, runCleanups } from './cleanup';
import { measureEvaluatorTokens } from './evaluator-tokens';
import { measureLighthouse } from './lighthouse-run';
import { measureTimerLateness } from './machine-noise';
import { runOptimizerBench } from './optimizer-run';
import { runConnections } from './connection-run';
import { createLearners, runEchoLoad, runTutorloopLoad } from './load-runs';
import { parseOptions, usage, type BenchOptions } from './options';
import { measurePostgres } from './postgres-runs';
import { formatProfileSummary, summarizeProfile } from './profile-summary';
import { buildNotes, buildRows, renderMarkdownReport, renderTextTable, type BenchResults } from './report';
import { ServerProcess } from './server-process';
import { measureWebBundle } from './web-bundle';

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const began = performance.now();

function progress(message: string): void {
  process.stderr.write(`[bench ${((performance.now() - began) / 1000).toFixed(0).padStart(4)} s] ${message}\n`);
}

async function measureOverhead(options: BenchOptions, profileDirectory: string | null): Promise<NonNullable<BenchResults['overhead']>> {
  progress('starting the echo + insert baseline and the tutorloop server (child processes)…');
  const echo = await ServerProcess.start({ kind: 'echo', latency: 'zero' });
  const tutorloop = await ServerProcess.start({ kind: 'tutorloop', latency: 'zero' });
  try {
    progress(`registering ${options.sessions} learners…`);
    const learners = await createLearners(tutorloop.url, options.sessions, 'load');
    const zeroShape = { sessions: options.sessions, turns: options.turns, thinkMs: options.thinkMs };
    const realisticShape = { sessions: options.sessions, turns: options.realisticTurns, thinkMs: options.thinkMs };
    progress('warming up both servers…');
    await runEchoLoad(echo.server, echo.url, 'zero', { sessions: options.warmupSessions, turns: 20, thinkMs: 0 }, { phase: 'warmup', seed: options.seed });
    await runTutorloopLoad(tutorloop.server, tutorloop.url, learners, 'zero', { sessions: options.warmupSessions, turns: 5, thinkMs: 0 }, { phase: 'warmup', seed: options.seed, profileDirectory: null });
    // Baseline and tutorloop alternate, so a change in the machine's load hits both alike.
    progress(`zero-latency fake: echo + insert, ${options.sessions} connections × ${options.turns} messages…`);
    const echoZero = await runEchoLoad(echo.server, echo.url, 'zero', zeroShape, { phase: 'zero', seed: options.seed });
    progress(`zero-latency fake: tutorloop, ${options.sessions} sessions × ${options.turns} turns…`);
    const tutorloopZero = await runTutorloopLoad(tutorloop.server, tutorloop.url, learners, 'zero', zeroShape, { phase: 'zero', seed: options.seed, profileDirectory });
    progress(`realistic fake: echo + insert paced like tutorloop, ${options.sessions} × ${options.realisticTurns}…`);
    const echoRealistic = await runEchoLoad(echo.server, echo.url, 'realistic', realisticShape, { phase: 'realistic', seed: options.seed });
    progress('realistic fake: tutorloop unloaded (2 sessions × 10 turns), the latency floor…');
    const tutorloopUnloaded = await runTutorloopLoad(tutorloop.server, tutorloop.url, learners, 'realistic', { sessions: 2, turns: 10, thinkMs: 0 }, { phase: 'unloaded', seed: options.seed, profileDirectory: null });
    progress(`realistic fake: tutorloop, ${options.sessions} sessions × ${options.realisticTurns} turns (≥1.2 s model time each)…`);
    const tutorloopRealistic = await runTutorloopLoad(tutorloop.server, tutorloop.url, learners, 'realistic', realisticShape, { phase: 'realistic', seed: options.seed, profileDirectory });
    return { tutorloop: { zero: tutorloopZero, realistic: tutorloopRealistic, unloaded: tutorloopUnloaded }, echo: { zero: echoZero, realistic: echoRealistic } };
  } finally {
    await Promise.all([echo.server.stop(), tutorloop.server.stop()]);
  }
}

async function measureConnections(options: BenchOptions, outputDirectory: string): Promise<NonNullable<BenchResults['connections']>> {
  progress(`connections: fresh tutorloop server for ${options.connections} sessions' sockets…`);
  const snapshotDirectory = options.heapSnapshots ? path.join(outputDirectory, 'heap') : null;
  if (snapshotDirectory) mkdirSync(snapshotDirectory, { recursive: true });
  const { server, url } = await ServerProcess.start({ kind: 'tutorloop', latency: 'zero' });
  try {
    return await runConnections(server, url, options.connections, { snapshotDirectory, progress });
  } finally {
    await server.stop();
  }
}

async function measureOptimizer(options: BenchOptions): Promise<NonNullable<BenchResults['optimizer']>> {
  progress('optimiser: fresh tutorloop server (child process)…');
  const { server, url } = await ServerProcess.start({ kind: 'tutorloop', latency: 'realistic' });
  try {
    progress(`optimiser: registering ${options.sessions} learners…`);
    const learners = await createLearners(url, options.sessions, 'opt');
    await runTutorloopLoad(server, url, learners, 'zero', { sessions: options.warmupSessions, turns: 5, thinkMs: 0 }, { phase: 'optimizer-warmup', seed: options.seed, profileDirectory: null });
    return await runOptimizerBench(
      server,
      url,
      learners,
      { sessions: options.sessions, turns: options.realisticTurns, thinkMs: options.thinkMs, rounds: options.optimizerRounds, cards: options.optimizerCards, reviewsPerCard: 10 },
      { seed: options.seed, progress },
    );
  } finally {
    await server.stop();
  }
}

async function main(): Promise<number> {
  cleanUpOnSignals();
  const parsed = parseOptions(process.argv.slice(2));
  if (parsed.ok === 'help') {
    console.log(usage);
    return 0;
  }
  if (!parsed.ok) {
    console.error(`bench: ${parsed.error}\n\n${usage}`);
    return 2;
  }
  const options = parsed.value;
  ServerProcess.nodeFlags = options.serverNodeFlags;
  const outputDirectory = path.resolve(repositoryRoot, options.outputDirectory);
  const profileDirectory = options.profile ? path.join(outputDirectory, 'profiles') : null;
  mkdirSync(profileDirectory ?? outputDirectory, { recursive: true });
  const startedAt = new Date();
  const loadAverageBefore = os.loadavg();
  progress(`tutorloop bench: ${[...options.parts].join(', ')} (defaults take ~10 minutes; --help for sizes)`);
  progress('measuring how late an idle timer fires on this machine (3 s)…');

  const results: BenchResults = {
    startedAt: startedAt.toISOString(),
    durationSeconds: 0,
    environment: {
      node: process.versions.node,
      platform: `${os.platform()} ${os.release()}`,
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown CPU',
      memoryGb: os.totalmem() / 1e9,
      loadAverageBefore,
      loadAverageAfter: [],
      idleTimerLatenessMs: await measureTimerLateness(3000),
    },
    options: { ...options, parts: [...options.parts] },
  };
  if (options.parts.has('web')) results.web = measureWebBundle(repositoryRoot);
  if (options.parts.has('lighthouse')) results.lighthouse = await measureLighthouse(repositoryRoot, outputDirectory, progress);
  if (options.parts.has('tokens')) {
    progress('evaluator tokens: real anthropic provider against the fake Messages API, 10 turns…');
    results.evaluatorTokens = await measureEvaluatorTokens();
  }
  if (options.parts.has('overhead')) results.overhead = await measureOverhead(options, profileDirectory);
  if (options.parts.has('overhead') && options.database === 'postgres') results.postgres = await measurePostgres(options, progress);
  if (options.parts.has('connections')) results.connections = await measureConnections(options, outputDirectory);
  if (options.parts.has('optimizer')) results.optimizer = await measureOptimizer(options);

  if (results.overhead && profileDirectory) {
    results.profiles = [results.overhead.tutorloop.zero, results.overhead.tutorloop.realistic]
      .filter((run) => run.profileFile)
      .map((run) => ({ title: `tutorloop, ${run.profile} fake`, file: path.relative(repositoryRoot, run.profileFile!), summary: summarizeProfile(run.profileFile!) }));
  }
  results.environment.loadAverageAfter = os.loadavg();
  results.durationSeconds = (performance.now() - began) / 1000;

  const rows = buildRows(results);
  console.log(`\n${renderTextTable(rows)}\n`);
  for (const note of buildNotes(results)) console.log(`• ${note}`);
  for (const profile of results.profiles ?? []) console.log(`\n${formatProfileSummary(profile.title, profile.summary)}`);
  writeFileSync(path.join(outputDirectory, 'bench.md'), renderMarkdownReport(results, rows));
  writeFileSync(path.join(outputDirectory, 'bench.json'), `${JSON.stringify({ ...results, table: rows }, null, 2)}\n`);
  console.log(`\nWritten: ${path.relative(process.cwd(), path.join(outputDirectory, 'bench.md'))}, ${path.relative(process.cwd(), path.join(outputDirectory, 'bench.json'))}`);
  return 0;
}

main()
  .then(async (code) => {
    await runCleanups();
    process.exit(code);
  })
  .catch(async (error: unknown) => {
    console.error(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    await runCleanups();
    process.exit(1);
  });

