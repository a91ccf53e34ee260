/**
 * A server child of the bench, compiled as `npm start`'s server is (`build-child.mjs`) and
 * started with plain `node` over IPC (see `server-process.ts`). It runs one of:
 *
 * - `tutorloop`: the real server (`startServer`: fastify + ws + SQLite file, or PostgreSQL
 *   with `databaseUrl`), configured as
 *   in production except for the fake LLM injected through `ServerOverrides.provider` and
 *   a per-connection frame limit high enough for a closed-loop load;
 * - `echo`: the baseline — a bare `ws` server that parses each frame, inserts one row into
 *   SQLite (better-sqlite3, same WAL/synchronous settings as the server) and echoes it.
 *
 * It answers the parent's requests (clock, stats, timings, profiling, heap snapshots, stop) and exits when
 * the parent goes away, so a crashed bench leaves no server behind.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { writeHeapSnapshot } from 'node:v8';
import { WebSocketServer } from 'ws';
import type { Database } from '../../server/src/db/database';
import { ChildOptions, ChildRequest, type ChildReady, type ChildReplies, type ChildReply, type ChildStats } from './child-protocol';
import { epochNow } from './clock';
import { createBenchProvider, latencyProfiles, type BenchProvider } from './fake-tutor-provider';

interface RunningChild {
  url: string;
  provider: BenchProvider | null;
  /** Seeds a synthetic review history (tutorloop only; see seedHistory). */
  seedHistory: ((request: { username: string; cards: number; reviewsPerCard: number }) => Promise<{ reviewCount: number; cards: number }>) | null;
  close(): Promise<void>;
}

type SqliteConstructor = new (file: string) => Database['$client'];

async function startTutorloop(options: ChildOptions): Promise<RunningChild> {
  // Imported only here, so the echo baseline's memory and start-up carry none of it.
  const { parseConfig } = await import('../../server/src/config');
  const { startServer } = await import('../../server/src/server');
  const config = parseConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: options.dataDirectory,
    LOG_LEVEL: 'info',
    LLM_PROVIDER: 'offline',
    WEB_DIST: '',
    // The default (30 frames / 10 s) is per learner; a closed-loop bench client sends faster.
    WS_RATE_LIMIT: '10000',
    TURN_RATE_LIMIT: '100000',
    // The connections row opens up to 100 sessions per learner (registration's scrypt is slow).
    SESSION_RATE_LIMIT: '100000',
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    ...(options.jwtSecret ? { JWT_SECRET: options.jwtSecret } : {}),
  });
  if (!config.ok) throw new Error(config.error);
  const provider = createBenchProvider(latencyProfiles[options.latency]);
  const server = await startServer(config.value, { provider });
  const { seedHistory } = await import('./synthetic-history');
  return { url: server.url, provider, seedHistory: (request) => seedHistory(server.storage, request), close: () => server.close() };
}

async function startEcho(options: ChildOptions): Promise<RunningChild> {
  // better-sqlite3 is the server package's dependency; resolve it from there.
  const require = createRequire(new URL('../../server/package.json', import.meta.url));
  const Sqlite = require('better-sqlite3') as SqliteConstructor;
  const database = new Sqlite(path.join(options.dataDirectory, 'echo.sqlite'));
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.exec('CREATE TABLE messages (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, content TEXT NOT NULL, created_at INTEGER NOT NULL)');
  const insert = database.prepare('INSERT INTO messages (id, session_id, content, created_at) VALUES (?, ?, ?, ?)');

  const http = createServer((_request, response) => response.writeHead(404).end());
  const sockets = new WebSocketServer({ server: http });
  sockets.on('connection', (socket, request) => {
    const sessionId = request.url ?? '/';
    socket.on('error', () => socket.terminate());
    socket.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as { payload?: { message?: string } };
      const message = frame.payload?.message ?? '';
      const id = crypto.randomUUID();
      insert.run(id, sessionId, message, Date.now());
      socket.send(JSON.stringify({ type: 'assistant', payload: { messageId: id, message } }));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    provider: null,
    seedHistory: null,
    async close() {
      for (const client of sockets.clients) client.terminate();
      sockets.close();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      database.close();
    },
  };
}

function procStatusBytes(field: 'VmRSS' | 'VmHWM'): number | null {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync('/proc/self/status', 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

async function main(): Promise<void> {
  const options = ChildOptions.parse(JSON.parse(process.argv[2] ?? '{}'));
  const running = options.kind === 'tutorloop' ? await startTutorloop(options) : await startEcho(options);
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  let profiler: Session | null = null;

  const handlers: { [Type in keyof ChildReplies]: (request: Extract<ChildRequest, { type: Type }>) => Promise<ChildReplies[Type]> } = {
    clock: async () => ({ now: epochNow() }),
    stats: async (request) => {
      const collect = (globalThis as { gc?: () => void }).gc;
      if (request.collectGarbage && collect) collect();
      const memory = process.memoryUsage();
      const cpu = process.cpuUsage();
      const stats: ChildStats = {
        rssBytes: procStatusBytes('VmRSS') ?? memory.rss,
        afterGarbageCollection: Boolean(request.collectGarbage && collect),
        peakRssBytes: procStatusBytes('VmHWM'),
        heapUsedBytes: memory.heapUsed,
        heapTotalBytes: memory.heapTotal,
        externalBytes: memory.external,
        cpuMs: (cpu.user + cpu.system) / 1000,
        eventLoopDelay: { p50: loopDelay.percentile(50) / 1e6, p99: loopDelay.percentile(99) / 1e6, max: loopDelay.max / 1e6 },
      };
      if (request.reset) loopDelay.reset();
      return stats;
    },
    latency: async (request) => {
      running.provider?.setProfile(latencyProfiles[request.profile]);
      return null;
    },
    timings: async () => running.provider?.takeTimings() ?? [],
    profile_start: async () => {
      profiler = new Session();
      profiler.connect();
      await profiler.post('Profiler.enable');
      await profiler.post('Profiler.setSamplingInterval', { interval: 250 });
      await profiler.post('Profiler.start');
      return null;
    },
    profile_stop: async (request) => {
      if (!profiler) throw new Error('profiler not started');
      const { profile } = await profiler.post('Profiler.stop');
      profiler.disconnect();
      profiler = null;
      writeFileSync(request.file, JSON.stringify(profile));
      return { file: request.file };
    },
    heap_snapshot: async (request) => ({ file: writeHeapSnapshot(request.file) }),
    seed_history: async (request) => {
      if (!running.seedHistory) throw new Error('seed_history: only the tutorloop child has a storage');
      return running.seedHistory(request);
    },
    stop: async () => {
      await running.close();
      loopDelay.disable();
      return null;
    },
  };

  process.on('message', (raw: unknown) => {
    const parsed = ChildRequest.safeParse(raw);
    if (!parsed.success) return;
    const request = parsed.data;
    const handler = handlers[request.type] as (request: ChildRequest) => Promise<unknown>;
    handler(request).then(
      (value) => {
        const reply: ChildReply = { id: request.id, ok: true, value };
        process.send?.(reply);
        if (request.type === 'stop') process.disconnect();
      },
      (error: unknown) => {
        const reply: ChildReply = { id: request.id, ok: false, error: error instanceof Error ? error.message : String(error) };
        process.send?.(reply);
      },
    );
  });
  // The parent went away (finished, or crashed): never outlive it.
  process.on('disconnect', () => process.exit(0));
  const ready: ChildReady = { type: 'ready', url: running.url };
  process.send?.(ready);
}

main().catch((error: unknown) => {
  console.error(`bench server child failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
});
