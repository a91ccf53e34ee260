/**
 * `pnpm bench --database postgres` (SPEC §9, §11; issue 24 item 5): the overhead and
 * saturation runs on a throwaway PostgreSQL (the tests' helper: Debian's binaries, a temp
 * cluster on loopback, `fsync` off — so the figures show the server's cost, not a disk's),
 * with one server instance and with two instances on one database. With two, every session
 * has a socket on each instance: the learner drives it from the instance that opened it (and
 * so owns its turns), the other socket only watches. Cross-instance delivery latency (commit on
 * one instance → frame on a socket of the other): from the moment the owner finished handling
 * the model's stream (recorded by the fake model in the owner's process; the commit follows it)
 * to the reply's arrival on the watcher, on the bench's clock — and, beside it, how far the
 * watcher's arrival trails the owner's own socket's.
 */
import { randomBytes } from 'node:crypto';
import { startPostgresServer } from '../../server/test/helpers/postgres-server';
import type { ChildStats } from './child-protocol';
import { registerCleanup } from './cleanup';
import { epochNow, sleep } from './clock';
import { latencyProfiles, nominalModelTime, type LatencyProfileName } from './fake-tutor-provider';
import { BenchSocket, runClosedLoop } from './load-client';
import { closeAll, createLearners, runTutorloopLoad, type LoadShape, type TutorloopRun } from './load-runs';
import type { BenchOptions } from './options';
import { createFreshSession, sessionSocketUrl, type BenchLearner } from './rest-client';
import { ServerProcess } from './server-process';
import { distribution, mapWithLimit, type Distribution } from './statistics';
import { analyseTurns } from './turn-analysis';

/** A run on two instances: a tutorloop run (CPU per turn summed over both) plus the delivery to the watching sockets. */
export interface FleetRun extends TutorloopRun {
  /**
   * The reply's stream handled on the owner (then sanitize, the commit, the wake-up of the other
   * instance, its read and send) → the reply on the other instance's socket, per reply.
   */
  deliveryMs: Distribution;
  /** How much later the other instance's socket got each reply than the owner's own socket. */
  behindOwnerMs: Distribution;
  /** Replies the owner's socket got that the watching socket never did. */
  undelivered: number;
}

export interface PostgresBench {
  single: { zero: TutorloopRun; realistic: TutorloopRun };
  fleet: { zero: FleetRun; realistic: FleetRun };
}

/** How long the watchers get, after the last turn, to show the replies their drivers saw. */
const deliveryGraceMs = 10_000;

/** The session index and turn of a learner message (`learnerMessage` in load-client.ts). */
function sessionOf(key: string): number {
  const match = /^\(\S+ (\d+)\.\d+\)/.exec(key);
  return match ? Number(match[1]) : -1;
}

async function openSocket(url: string, kind: 'driver' | 'watcher', failures: string[]): Promise<BenchSocket | null> {
  try {
    const socket = await BenchSocket.open(url);
    await (kind === 'driver' ? socket.waitForGreeting() : socket.waitForAttach());
    return socket;
  } catch (error) {
    failures.push(`${kind}: ${error instanceof Error ? error.message.split('\n')[0]! : String(error)}`);
    return null;
  }
}

/**
 * `shape.sessions` sessions over two instances: session i is opened (greeting and turns) on
 * instance i mod 2 and watched from the other, so both instances own half the sessions.
 */
export async function runFleetLoad(
  servers: readonly [ServerProcess, ServerProcess],
  urls: readonly [string, string],
  learners: readonly BenchLearner[],
  profile: LatencyProfileName,
  shape: LoadShape,
  options: { phase: string; seed: number },
): Promise<FleetRun> {
  await Promise.all(servers.map((server) => server.request('latency', { profile })));
  const sessions = await mapWithLimit(learners.slice(0, shape.sessions), 8, async (learner) => ({ sessionId: await createFreshSession(urls[0], learner), learner }));
  const failures: string[] = [];
  const pairs = await mapWithLimit(sessions, 25, async ({ sessionId, learner }, index) => {
    const driver = await openSocket(sessionSocketUrl(urls[index % 2]!, sessionId, learner.token), 'driver', failures);
    const watcher = driver ? await openSocket(sessionSocketUrl(urls[(index + 1) % 2]!, sessionId, learner.token), 'watcher', failures) : null;
    if (!driver || !watcher) {
      await closeAll([driver, watcher].filter((socket): socket is BenchSocket => socket !== null));
      return null;
    }
    return { driver, watcher };
  });
  const open = pairs.filter((pair): pair is { driver: BenchSocket; watcher: BenchSocket } => pair !== null);
  await Promise.all(servers.map((server) => server.request('timings', {})));
  const offsets = [await servers[0].clockOffset(), await servers[1].clockOffset()];
  const before = await Promise.all(servers.map((server) => server.request('stats', { reset: true })));
  const model = nominalModelTime(latencyProfiles[profile]).totalMs;
  const result = await runClosedLoop(
    open.map((pair) => pair.driver),
    { phase: options.phase, turns: shape.turns, thinkMs: shape.thinkMs, staggerMs: profile === 'zero' ? 0 : model + shape.thinkMs, awaitStateUpdate: true, seed: options.seed },
  );
  const after = await Promise.all(servers.map((server) => server.request('stats', { reset: false })));
  const timingsByServer = await Promise.all(servers.map((server) => server.request('timings', {})));
  // Each turn's fake-model record, with its times moved onto the bench's clock (the child that ran it has its own offset).
  const streamEnded = new Map<string, number>();
  timingsByServer.forEach((timings, index) => {
    for (const timing of timings) if (timing.replyEndedAt !== null) streamEnded.set(timing.key, timing.replyEndedAt - offsets[index]!);
  });

  // The driver's replies, per session in turn order, against the watcher's `assistant` arrivals.
  const replies = open.map(() => [] as Array<{ at: number; key: string }>);
  for (const observation of result.observations) replies[sessionOf(observation.key)]?.push({ at: observation.assistantAt, key: observation.key });
  const deadline = epochNow() + deliveryGraceMs;
  while (epochNow() < deadline && open.some((pair, index) => pair.watcher.arrivals('assistant').length < replies[index]!.length)) await sleep(50);
  const delivery: number[] = [];
  const behindOwner: number[] = [];
  let undelivered = 0;
  open.forEach((pair, index) => {
    const watched = pair.watcher.arrivals('assistant');
    replies[index]!.forEach(({ at, key }, turn) => {
      const seen = watched[turn];
      if (seen === undefined) {
        undelivered += 1;
        return;
      }
      behindOwner.push(seen - at);
      const ended = streamEnded.get(key);
      if (ended !== undefined) delivery.push(seen - ended);
    });
  });
  await closeAll(open.flatMap((pair) => [pair.driver, pair.watcher]));

  const turns = result.observations.length;
  const cpuMs = after.reduce((total, stats, index) => total + stats.cpuMs - before[index]!.cpuMs, 0);
  const worstLoop = after.map((stats) => stats.eventLoopDelay).reduce<ChildStats['eventLoopDelay']>((worst, delay) => (delay.p99 > worst.p99 ? delay : worst), after[0]!.eventLoopDelay);
  const counts: Record<string, number> = {};
  for (const failure of [...failures, ...result.failures]) counts[failure] = (counts[failure] ?? 0) + 1;
  const nominal = nominalModelTime(latencyProfiles[profile]);
  return {
    phase: options.phase,
    profile,
    sessions: open.length,
    turnsPerSession: shape.turns,
    turns,
    failures: counts,
    turnsPerSecond: turns / Math.max(0.001, (result.endedAt - result.startedAt) / 1000),
    nominalModelMs: { firstToken: nominal.firstTokenMs, total: nominal.totalMs },
    // One offset for both children: they share the machine's clock, so theirs differ by the IPC measurement error only.
    breakdown: analyseTurns(result.observations, timingsByServer.flat(), offsets[0]!, latencyProfiles[profile]),
    serverCpuMsPerTurn: turns ? cpuMs / turns : Number.NaN,
    eventLoopDelayMs: worstLoop,
    profileFile: null,
    serverLogTail: Object.keys(counts).length ? servers.map((server) => server.logTail()).join('\n') : null,
    deliveryMs: distribution(delivery),
    behindOwnerMs: distribution(behindOwner),
    undelivered,
  };
}

/** The PostgreSQL rows: one instance, then two on one database, each warmed up first. */
export async function measurePostgres(options: BenchOptions, progress: (message: string) => void): Promise<PostgresBench> {
  progress('PostgreSQL: starting a throwaway cluster (initdb, loopback, fsync off)…');
  const cluster = await startPostgresServer();
  const unregister = registerCleanup(() => cluster.stop());
  const zeroShape = { sessions: options.sessions, turns: options.turns, thinkMs: options.thinkMs };
  const realisticShape = { sessions: options.sessions, turns: options.realisticTurns, thinkMs: options.thinkMs };
  try {
    const single = await (async () => {
      const databaseUrl = await cluster.createDatabase('single');
      const { server, url } = await ServerProcess.start({ kind: 'tutorloop', latency: 'zero', databaseUrl });
      try {
        progress(`PostgreSQL × 1: registering ${options.sessions} learners, warming up…`);
        const learners = await createLearners(url, options.sessions, 'pg');
        await runTutorloopLoad(server, url, learners, 'zero', { sessions: options.warmupSessions, turns: 5, thinkMs: 0 }, { phase: 'pg-warmup', seed: options.seed, profileDirectory: null });
        progress(`PostgreSQL × 1: zero-latency fake, ${options.sessions} sessions × ${options.turns} turns…`);
        const zero = await runTutorloopLoad(server, url, learners, 'zero', zeroShape, { phase: 'pg-zero', seed: options.seed, profileDirectory: null });
        progress(`PostgreSQL × 1: realistic fake, ${options.sessions} sessions × ${options.realisticTurns} turns…`);
        const realistic = await runTutorloopLoad(server, url, learners, 'realistic', realisticShape, { phase: 'pg-realistic', seed: options.seed, profileDirectory: null });
        return { zero, realistic };
      } finally {
        await server.stop();
      }
    })();

    const databaseUrl = await cluster.createDatabase('fleet');
    const jwtSecret = randomBytes(32).toString('hex');
    progress('PostgreSQL × 2: starting two instances on one database…');
    // One after the other: the second finds the migrations applied.
    const first = await ServerProcess.start({ kind: 'tutorloop', latency: 'zero', databaseUrl, jwtSecret });
    const second = await ServerProcess.start({ kind: 'tutorloop', latency: 'zero', databaseUrl, jwtSecret }).catch(async (error: unknown) => {
      await first.server.stop();
      throw error;
    });
    try {
      const servers = [first.server, second.server] as const;
      const urls = [first.url, second.url] as const;
      progress(`PostgreSQL × 2: registering ${options.sessions} learners, warming up…`);
      const learners = await createLearners(urls[0], options.sessions, 'fleet');
      await runFleetLoad(servers, urls, learners, 'zero', { sessions: options.warmupSessions, turns: 5, thinkMs: 0 }, { phase: 'fleet-warmup', seed: options.seed });
      progress(`PostgreSQL × 2: zero-latency fake, ${options.sessions} sessions × ${options.turns} turns, a socket of each on each instance…`);
      const zero = await runFleetLoad(servers, urls, learners, 'zero', zeroShape, { phase: 'fleet-zero', seed: options.seed });
      progress(`PostgreSQL × 2: realistic fake, ${options.sessions} sessions × ${options.realisticTurns} turns…`);
      const realistic = await runFleetLoad(servers, urls, learners, 'realistic', realisticShape, { phase: 'fleet-realistic', seed: options.seed });
      return { single, fleet: { zero, realistic } };
    } finally {
      await Promise.all([first.server.stop(), second.server.stop()]);
    }
  } finally {
    await cluster.stop();
    unregister();
  }
}
