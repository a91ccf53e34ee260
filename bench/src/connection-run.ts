/**
 * The connections row (issue 27 item 4): one fresh server child holds `target` sockets, each its
 * own session (10 per learner, up to 100 per learner above 1,000 sockets), opened by a load
 * generator in a process of its own (`connection-generator.ts`), every greeting received, then
 * one turn on each. The server's RSS
 * is read at idle, after the REST set-up, at 1,000 sockets, at the target and after the turns —
 * each as /proc shows it and again after a forced full GC. With a `snapshotDirectory`, the child
 * also writes V8 heap snapshots there at idle, after the set-up and at the first checkpoint
 * (1,000 sockets): the largest groups at idle and at 1,000, and what each socket added. A
 * snapshot leaves memory of its own behind, so later RSS figures of such a run read high.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { registerCleanup } from './cleanup';
import type { GeneratorReply, GeneratorRequest } from './connection-generator';
import { heapGrowth, readHeapGroups, summariseHeapSnapshot, type HeapGroup, type HeapGrowth } from './heap-summary';
import { createLearners } from './load-runs';
import { createRecallSet, createSession, sessionSocketUrl } from './rest-client';
import type { ServerProcess } from './server-process';
import { mapWithLimit } from './statistics';

export interface ConnectionCheckpoint {
  label: string;
  sockets: number;
  /** As /proc showed it, before the GC. */
  rssBytes: number | null;
  rssAfterGcBytes: number;
  heapUsedAfterGcBytes: number;
  heapTotalAfterGcBytes: number;
  externalAfterGcBytes: number;
}

export interface HeapReport {
  idle: { totalMb: number; groups: HeapGroup[] };
  atSockets: { sockets: number; totalMb: number; groups: HeapGroup[] };
  /** From after the set-up (no socket) to `atSockets`, per socket. */
  perSocket: { bytes: number; groups: HeapGrowth[] };
}

export interface ConnectionRun {
  target: number;
  opened: number;
  heldAfterTurn: number;
  turns: number;
  failures: Record<string, number>;
  connectSeconds: number;
  turnSeconds: number;
  /** The server child's soft limit on open files (/proc/<pid>/limits): each socket takes one. */
  openFilesLimit: number | null;
  checkpoints: ConnectionCheckpoint[];
  peakRssBytes: number | null;
  heap: HeapReport | null;
}

const generatorEntry = path.join(path.dirname(fileURLToPath(import.meta.url)), 'connection-generator.ts');

function openFilesLimit(pid: number): number | null {
  try {
    const match = /^Max open files\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/limits`, 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

function countFailures(failures: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const failure of failures) counts[failure] = (counts[failure] ?? 0) + 1;
  return counts;
}

/** The generator process and a request/reply over its IPC channel (one request at a time). */
function startGenerator(urlsFile: string): { request: (request: GeneratorRequest) => Promise<GeneratorReply>; stop: () => void } {
  const child = fork(generatorEntry, [urlsFile], { execArgv: ['--import', import.meta.resolve('tsx')], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  const unregister = registerCleanup(stop);
  child.once('exit', () => unregister());
  return {
    request: (request) =>
      new Promise((resolve, reject) => {
        const onExit = (code: number | null) => reject(new Error(`the connection generator exited with ${code}`));
        child.once('exit', onExit);
        child.once('message', (reply: GeneratorReply) => {
          child.off('exit', onExit);
          resolve(reply);
        });
        child.send(request);
      }),
    stop,
  };
}

/** `snapshotDirectory`: where the heap snapshots go (kept, for Chrome DevTools → Memory); null for none. */
export async function runConnections(server: ServerProcess, baseUrl: string, target: number, options: { snapshotDirectory: string | null; progress: (message: string) => void }): Promise<ConnectionRun> {
  const folder = mkdtempSync(path.join(tmpdir(), 'tutorloop-connections-'));
  const unregister = registerCleanup(() => rmSync(folder, { recursive: true, force: true }));
  const checkpoints: ConnectionCheckpoint[] = [];
  const failures: string[] = [];
  const checkpoint = async (label: string, sockets: number) => {
    const rssBytes = server.residentBytes();
    const collected = await server.request('stats', { reset: false, collectGarbage: true });
    checkpoints.push({ label, sockets, rssBytes, rssAfterGcBytes: collected.rssBytes, heapUsedAfterGcBytes: collected.heapUsedBytes, heapTotalAfterGcBytes: collected.heapTotalBytes, externalAfterGcBytes: collected.externalBytes });
  };
  // Written after the RSS of its checkpoint was read: a snapshot takes memory of its own.
  const snapshot = async (name: string) => (await server.request('heap_snapshot', { file: path.join(options.snapshotDirectory ?? folder, `server-${name}.heapsnapshot`) })).file;
  let generator: ReturnType<typeof startGenerator> | null = null;
  try {
    await checkpoint('idle', 0);
    const idleSnapshot = options.snapshotDirectory ? await snapshot('idle') : null;
    // Registration hashes a password (scrypt): at most 100 learners, up to 100 sessions each.
    const sessionsPerLearner = Math.max(10, Math.ceil(target / 100));
    options.progress(`connections: registering ${Math.ceil(target / sessionsPerLearner)} learners and creating ${target} sessions over REST…`);
    const learners = await createLearners(baseUrl, Math.ceil(target / sessionsPerLearner), 'hold');
    const setIds = await mapWithLimit(learners, 8, (learner) => createRecallSet(baseUrl, learner));
    const plan = Array.from({ length: target }, (_, index) => Math.floor(index / sessionsPerLearner));
    const urls = await mapWithLimit(plan, 8, async (owner) => sessionSocketUrl(baseUrl, await createSession(baseUrl, learners[owner]!, setIds[owner]!), learners[owner]!.token));
    await checkpoint('after the REST set-up', 0);
    const setupSnapshot = options.snapshotDirectory ? await snapshot('setup') : null;

    const urlsFile = path.join(folder, 'urls.json');
    writeFileSync(urlsFile, JSON.stringify(urls));
    generator = startGenerator(urlsFile);
    let connectSeconds = 0;
    let open = 0;
    let heap: HeapReport | null = null;
    for (const count of [...new Set([Math.min(1000, target), target])]) {
      options.progress(`connections: opening sockets up to ${count.toLocaleString('en-US')} (load generator in its own process)…`);
      const reply = await generator.request({ type: 'open', upTo: count });
      if (reply.type !== 'opened') throw new Error(`the generator answered ${reply.type} to open`);
      connectSeconds += reply.seconds;
      open = reply.open;
      failures.push(...reply.failures);
      await checkpoint(`${count.toLocaleString('en-US')} sockets`, open);
      if (idleSnapshot && setupSnapshot && !heap) {
        const atSockets = await snapshot(`${open}-sockets`);
        const idle = summariseHeapSnapshot(idleSnapshot);
        const at = summariseHeapSnapshot(atSockets);
        const growth = heapGrowth(readHeapGroups(setupSnapshot), readHeapGroups(atSockets), Math.max(1, open));
        heap = { idle: { totalMb: idle.totalMb, groups: idle.groups }, atSockets: { sockets: open, totalMb: at.totalMb, groups: at.groups }, perSocket: { bytes: growth.bytesPerUnit, groups: growth.groups } };
      }
    }
    const inFlight = 200;
    options.progress(`connections: one turn on each of ${open.toLocaleString('en-US')} sockets, ${inFlight} at a time…`);
    const turned = await generator.request({ type: 'turn', inFlight });
    if (turned.type !== 'turned') throw new Error(`the generator answered ${turned.type} to turn`);
    failures.push(...turned.failures);
    await checkpoint('after one turn each', turned.held);
    const stats = await server.request('stats', { reset: false });
    await server.request('timings', {});
    await generator.request({ type: 'close' });
    return {
      target,
      opened: open,
      heldAfterTurn: turned.held,
      turns: turned.turns,
      failures: countFailures(failures),
      connectSeconds,
      turnSeconds: turned.seconds,
      openFilesLimit: openFilesLimit(server.pid),
      checkpoints,
      peakRssBytes: stats.peakRssBytes,
      heap,
    };
  } finally {
    generator?.stop();
    rmSync(folder, { recursive: true, force: true });
    unregister();
  }
}
