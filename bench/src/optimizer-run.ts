/**
 * The optimiser row (issue 17: "the optimiser never blocks a turn"): turn overhead with the
 * realistic fake, without and then with FSRS optimisations running for a learner with a long
 * synthetic review history (~10,000 reviews). During the second run the learner's optimiser
 * is kept busy back to back — each run re-queued over the public API as soon as the previous
 * one finished — so every measured turn overlaps a fit, the main thread's part of one (reading
 * the history, rescheduling the cards when kept) included. Runs alternate without/with, so a
 * change in the machine's load hits both alike.
 */
import type { SchedulerStatus } from '@tutorloop/shared';
import { createLearner, type BenchLearner } from './rest-client';
import { runTutorloopLoad, type LoadShape, type TutorloopRun } from './load-runs';
import type { ServerProcess } from './server-process';

export interface OptimizerLoadRun {
  /** The overhead run while optimisations ran. */
  run: TutorloopRun;
  /** Optimisations that finished during the run, and how many were kept (cards rescheduled). */
  optimizations: number;
  kept: number;
  /** Share of the run's wall time during which an optimisation was queued or running. */
  busyShare: number;
}

export interface OptimizerBench {
  reviewCount: number;
  cards: number;
  /** One optimisation alone, no load: wall time from request to finished, the fit itself, and the server's event-loop delay meanwhile. */
  solo: { wallMs: number; fitMs: number; eventLoopDelayMs: { p99: number; max: number } };
  without: TutorloopRun[];
  with: OptimizerLoadRun[];
}

async function schedulerCall(baseUrl: string, learner: BenchLearner, method: 'GET' | 'POST', route: string): Promise<SchedulerStatus> {
  const response = await fetch(`${baseUrl}${route}`, { method, headers: { authorization: `Bearer ${learner.token}` } });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${route} answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as SchedulerStatus;
}

const busy = (status: SchedulerStatus) => status.optimization.state === 'queued' || status.optimization.state === 'running';
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Keeps the learner's optimiser busy until `stop()`: polls every 100 ms and re-queues a run as
 * soon as the last one finished. Counts finished runs (by the runs list) and busy time.
 */
function keepOptimizing(baseUrl: string, learner: BenchLearner) {
  let stopped = false;
  let busyMs = 0;
  const startedAt = performance.now();
  const seenRuns = new Set<string>();
  let kept = 0;
  const loop = (async () => {
    let status = await schedulerCall(baseUrl, learner, 'GET', '/api/me/scheduler');
    for (const run of status.runs) seenRuns.add(run.id);
    const already = seenRuns.size;
    let last = performance.now();
    while (!stopped) {
      if (!busy(status)) status = await schedulerCall(baseUrl, learner, 'POST', '/api/me/scheduler/optimize');
      await pause(100);
      const wasBusy = busy(status);
      status = await schedulerCall(baseUrl, learner, 'GET', '/api/me/scheduler');
      const now = performance.now();
      if (wasBusy) busyMs += now - last;
      last = now;
      for (const run of status.runs) {
        if (seenRuns.has(run.id)) continue;
        seenRuns.add(run.id);
        if (run.kept) kept += 1;
      }
    }
    // Let the last run finish, so the next measurement starts from an idle optimiser.
    while (busy(status)) {
      await pause(100);
      status = await schedulerCall(baseUrl, learner, 'GET', '/api/me/scheduler');
    }
    return already;
  })();
  return {
    async stop(): Promise<{ optimizations: number; kept: number; busyShare: number }> {
      const elapsed = performance.now() - startedAt;
      stopped = true;
      const already = await loop;
      return { optimizations: seenRuns.size - already, kept, busyShare: Math.min(1, busyMs / elapsed) };
    },
  };
}

export async function runOptimizerBench(
  server: ServerProcess,
  baseUrl: string,
  learners: readonly BenchLearner[],
  shape: LoadShape & { rounds: number; cards: number; reviewsPerCard: number },
  options: { seed: number; progress: (message: string) => void },
): Promise<OptimizerBench> {
  const username = `optimiser${Date.now().toString(36)}`;
  const owner = await createLearner(baseUrl, username);
  options.progress(`optimiser: seeding a synthetic history (${shape.cards} cards × up to ${shape.reviewsPerCard} reviews) in the server's database…`);
  const seeded = await server.request('seed_history', { username, cards: shape.cards, reviewsPerCard: shape.reviewsPerCard });

  options.progress(`optimiser: one optimisation of ${seeded.reviewCount.toLocaleString('en-US')} reviews alone…`);
  await server.request('stats', { reset: true });
  const soloStarted = performance.now();
  let status = await schedulerCall(baseUrl, owner, 'POST', '/api/me/scheduler/optimize');
  while (busy(status)) {
    await pause(20);
    status = await schedulerCall(baseUrl, owner, 'GET', '/api/me/scheduler');
  }
  const soloWallMs = performance.now() - soloStarted;
  const soloStats = await server.request('stats', { reset: true });
  const soloRun = status.runs[0];
  if (!soloRun) throw new Error(`the optimisation left no run (state ${status.optimization.state}: ${status.optimization.error ?? 'no error'})`);

  const result: OptimizerBench = {
    reviewCount: seeded.reviewCount,
    cards: seeded.cards,
    solo: { wallMs: soloWallMs, fitMs: soloRun.durationMs, eventLoopDelayMs: { p99: soloStats.eventLoopDelay.p99, max: soloStats.eventLoopDelay.max } },
    without: [],
    with: [],
  };
  for (let round = 1; round <= shape.rounds; round += 1) {
    options.progress(`optimiser round ${round}/${shape.rounds}: realistic fake, ${shape.sessions} sessions × ${shape.turns} turns, no optimisation…`);
    result.without.push(await runTutorloopLoad(server, baseUrl, learners, 'realistic', shape, { phase: `optimizer-off-${round}`, seed: options.seed, profileDirectory: null }));
    options.progress(`optimiser round ${round}/${shape.rounds}: the same while the optimiser runs back to back…`);
    const optimizing = keepOptimizing(baseUrl, owner);
    // Let the first fit get under way before the first turn is sent.
    await pause(200);
    const run = await runTutorloopLoad(server, baseUrl, learners, 'realistic', shape, { phase: `optimizer-on-${round}`, seed: options.seed, profileDirectory: null });
    result.with.push({ run, ...(await optimizing.stop()) });
  }
  return result;
}
