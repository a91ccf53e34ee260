/**
 * The measured runs against server children: per-turn overhead (tutorloop with the fake
 * LLM, and the bare echo + insert baseline under the same client load). The connections row
 * is `connection-run.ts`.
 */
import path from 'node:path';
import type { ChildStats } from './child-protocol';
import { latencyProfiles, nominalModelTime, type LatencyProfileName } from './fake-tutor-provider';
import { BenchSocket, runClosedLoop, type LoadResult } from './load-client';
import { createFreshSession, createLearner, sessionSocketUrl, type BenchLearner } from './rest-client';
import type { ServerProcess } from './server-process';
import { distribution, mapWithLimit, type Distribution } from './statistics';
import { analyseTurns, type TurnBreakdown } from './turn-analysis';

export interface LoadShape {
  sessions: number;
  turns: number;
  thinkMs: number;
}

export interface TutorloopRun {
  /** The run's name (also in each learner message). */
  phase: string;
  profile: LatencyProfileName;
  sessions: number;
  turnsPerSession: number;
  turns: number;
  failures: Record<string, number>;
  turnsPerSecond: number;
  nominalModelMs: { firstToken: number; total: number };
  breakdown: TurnBreakdown;
  serverCpuMsPerTurn: number;
  eventLoopDelayMs: ChildStats['eventLoopDelay'];
  profileFile: string | null;
  /** The server's last log lines, kept when turns failed. */
  serverLogTail: string | null;
}

export interface EchoRun {
  profile: LatencyProfileName;
  sessions: number;
  messages: number;
  failures: Record<string, number>;
  messagesPerSecond: number;
  roundTripMs: Distribution;
  serverCpuMsPerMessage: number;
  eventLoopDelayMs: ChildStats['eventLoopDelay'];
}

function countFailures(failures: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const failure of failures) counts[failure] = (counts[failure] ?? 0) + 1;
  return counts;
}

function throughput(result: LoadResult, count: number): number {
  return count / Math.max(0.001, (result.endedAt - result.startedAt) / 1000);
}

/** Opens one socket per session and waits for each tutor greeting (at most `limit` opening at once). */
export async function openSessions(baseUrl: string, sessions: ReadonlyArray<{ sessionId: string; learner: BenchLearner }>, limit = 50): Promise<{ sockets: BenchSocket[]; failures: string[] }> {
  const failures: string[] = [];
  const sockets = await mapWithLimit(sessions, limit, async ({ sessionId, learner }) => {
    try {
      const socket = await BenchSocket.open(sessionSocketUrl(baseUrl, sessionId, learner.token));
      await socket.waitForGreeting();
      return socket;
    } catch (error) {
      failures.push(error instanceof Error ? error.message.split('\n')[0]! : String(error));
      return null;
    }
  });
  return { sockets: sockets.filter((socket): socket is BenchSocket => socket !== null), failures };
}

export async function closeAll(sockets: readonly BenchSocket[]): Promise<void> {
  await mapWithLimit(sockets, 200, (socket) => socket.close());
}

/** Learners for a tutorloop child; registration hashes passwords (scrypt), so a few at a time. */
export async function createLearners(baseUrl: string, count: number, prefix: string): Promise<BenchLearner[]> {
  const stamp = Date.now().toString(36);
  return mapWithLimit(Array.from({ length: count }, (_, index) => index), 4, (index) => createLearner(baseUrl, `${prefix}${stamp}n${index}`));
}

/** Stagger and think time that give the echo baseline the tutorloop run's message rate. */
function pacing(profile: LatencyProfileName, thinkMs: number): { staggerMs: number; echoThinkMs: number } {
  if (profile === 'zero') return { staggerMs: 0, echoThinkMs: thinkMs };
  const model = nominalModelTime(latencyProfiles[profile]).totalMs;
  return { staggerMs: model + thinkMs, echoThinkMs: model + thinkMs };
}

export async function runTutorloopLoad(
  server: ServerProcess,
  baseUrl: string,
  learners: readonly BenchLearner[],
  profile: LatencyProfileName,
  shape: LoadShape,
  options: { phase: string; seed: number; profileDirectory: string | null },
): Promise<TutorloopRun> {
  await server.request('latency', { profile });
  const sessions = await mapWithLimit(learners.slice(0, shape.sessions), 8, async (learner) => ({ sessionId: await createFreshSession(baseUrl, learner), learner }));
  const opened = await openSessions(baseUrl, sessions);
  await server.request('timings', {}); // drop the greetings' records
  const offset = await server.clockOffset();
  const before = await server.request('stats', { reset: true });
  const profileFile = options.profileDirectory ? path.join(options.profileDirectory, `tutorloop-${options.phase}.cpuprofile`) : null;
  if (profileFile) await server.request('profile_start', {});
  const result = await runClosedLoop(opened.sockets, {
    phase: options.phase,
    turns: shape.turns,
    thinkMs: shape.thinkMs,
    staggerMs: pacing(profile, shape.thinkMs).staggerMs,
    awaitStateUpdate: true,
    seed: options.seed,
  });
  if (profileFile) await server.request('profile_stop', { file: profileFile });
  const after = await server.request('stats', { reset: false });
  const timings = await server.request('timings', {});
  await closeAll(opened.sockets);
  const nominal = nominalModelTime(latencyProfiles[profile]);
  const turns = result.observations.length;
  return {
    phase: options.phase,
    profile,
    sessions: opened.sockets.length,
    turnsPerSession: shape.turns,
    turns,
    failures: countFailures([...opened.failures, ...result.failures]),
    turnsPerSecond: throughput(result, turns),
    nominalModelMs: { firstToken: nominal.firstTokenMs, total: nominal.totalMs },
    breakdown: analyseTurns(result.observations, timings, offset, latencyProfiles[profile]),
    serverCpuMsPerTurn: turns ? (after.cpuMs - before.cpuMs) / turns : Number.NaN,
    eventLoopDelayMs: after.eventLoopDelay,
    profileFile,
    serverLogTail: result.failures.length || opened.failures.length ? server.logTail() : null,
  };
}

export async function runEchoLoad(server: ServerProcess, baseUrl: string, profile: LatencyProfileName, shape: LoadShape, options: { phase: string; seed: number }): Promise<EchoRun> {
  const failures: string[] = [];
  const sockets = (
    await mapWithLimit(Array.from({ length: shape.sessions }, (_, index) => index), 50, async (index) => {
      try {
        return await BenchSocket.open(`${baseUrl.replace(/^http/, 'ws')}/echo/${options.phase}/${index}`);
      } catch (error) {
        failures.push(error instanceof Error ? error.message : String(error));
        return null;
      }
    })
  ).filter((socket): socket is BenchSocket => socket !== null);
  const { staggerMs, echoThinkMs } = pacing(profile, shape.thinkMs);
  const before = await server.request('stats', { reset: true });
  const result = await runClosedLoop(sockets, { phase: options.phase, turns: shape.turns, thinkMs: echoThinkMs, staggerMs, awaitStateUpdate: false, seed: options.seed });
  const after = await server.request('stats', { reset: false });
  await closeAll(sockets);
  const messages = result.observations.length;
  return {
    profile,
    sessions: sockets.length,
    messages,
    failures: countFailures([...failures, ...result.failures]),
    messagesPerSecond: throughput(result, messages),
    roundTripMs: distribution(result.observations.map((observation) => observation.assistantAt - observation.sentAt)),
    serverCpuMsPerMessage: messages ? (after.cpuMs - before.cpuMs) / messages : Number.NaN,
    eventLoopDelayMs: after.eventLoopDelay,
  };
}
