/** Command-line flags of `pnpm bench` (see bench/README.md). */
import { parseArgs } from 'node:util';

export const benchParts = ['web', 'lighthouse', 'tokens', 'overhead', 'connections', 'optimizer'] as const;
export type BenchPart = (typeof benchParts)[number];

export const benchDatabases = ['sqlite', 'postgres'] as const;
export type BenchDatabase = (typeof benchDatabases)[number];

export interface BenchOptions {
  sessions: number;
  turns: number;
  realisticTurns: number;
  connections: number;
  thinkMs: number;
  warmupSessions: number;
  profile: boolean;
  parts: Set<BenchPart>;
  outputDirectory: string;
  seed: number;
  /** The optimiser row: cards of the synthetic learner (× 10 reviews, ~10,000 reviews at 1,200) and without/with rounds. */
  optimizerCards: number;
  optimizerRounds: number;
  /** `postgres`: the overhead part also runs on a throwaway PostgreSQL with one and with two instances, beside SQLite. */
  database: BenchDatabase;
  /** Node/V8 flags for the server children (`--server-node-flags "--max-semi-space-size=2"`). */
  serverNodeFlags: string[];
  /** The connections part also writes heap snapshots of the server (idle, after set-up, 1,000 sockets) and summarises them. */
  heapSnapshots: boolean;
}

export const usage = `Usage: pnpm bench [options]

  --sessions <n>         active sessions in the overhead runs (default 200)
  --turns <n>            learner turns per session with the zero-latency fake (default 10)
  --realistic-turns <n>  learner turns per session with the realistic fake (default 10, ≥1.2 s each)
  --connections <n>      WebSocket connections to open and hold, each its own session, from a load
                         generator process (default 10000; RSS also read at 1,000)
  --heap-snapshots       with the connections part: heap snapshots of the server at idle and at
                         1,000 sockets, their largest groups and the heap each socket adds
  --think-ms <n>         learner think time between turns (default 0: closed loop)
  --only <parts>         comma-separated subset of: ${benchParts.join(', ')}
  --profile              CPU-profile the server during the overhead runs (reports/profiles/)
  --out <dir>            where bench.md / bench.json go (default reports)
  --seed <n>             seed of the start staggering (default 1)
  --optimizer-cards <n>  cards of the learner whose FSRS parameters are optimised during the load
                         (10 reviews each before today: 1,200 → ~10,000 reviews; default 1200)
  --optimizer-rounds <n> without/with-optimiser run pairs (default 2)
  --database <engine>    sqlite (default) or postgres: the overhead part also runs on a throwaway
                         PostgreSQL with one and with two instances, and measures cross-instance delivery
  --server-node-flags=<flags>  space-separated Node/V8 flags for the server children, e.g.
                         --server-node-flags=--max-semi-space-size=2 (memory against GC work per turn)
  -h, --help             this text

Bigger runs: pnpm bench --sessions 500 --turns 40 --realistic-turns 30`;

function positiveInteger(name: string, value: string | undefined, fallback: number, minimum = 1): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < minimum) throw new Error(`--${name} must be an integer ≥ ${minimum} (got ${JSON.stringify(value)})`);
  return parsed;
}

export type OptionsResult = { ok: true; value: BenchOptions } | { ok: false; error: string } | { ok: 'help' };

export function parseOptions(argv: string[]): OptionsResult {
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        sessions: { type: 'string' },
        turns: { type: 'string' },
        'realistic-turns': { type: 'string' },
        connections: { type: 'string' },
        'think-ms': { type: 'string' },
        only: { type: 'string' },
        profile: { type: 'boolean', default: false },
        out: { type: 'string' },
        seed: { type: 'string' },
        'optimizer-cards': { type: 'string' },
        'optimizer-rounds': { type: 'string' },
        database: { type: 'string' },
        'server-node-flags': { type: 'string' },
        'heap-snapshots': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
    });
    if (values.help) return { ok: 'help' };
    const parts = new Set<BenchPart>();
    for (const part of (values.only ?? benchParts.join(',')).split(',').map((name) => name.trim()).filter(Boolean)) {
      if (!(benchParts as readonly string[]).includes(part)) throw new Error(`--only: unknown part ${JSON.stringify(part)} (parts: ${benchParts.join(', ')})`);
      parts.add(part as BenchPart);
    }
    const sessions = positiveInteger('sessions', values.sessions, 200);
    const database = values.database ?? 'sqlite';
    if (!(benchDatabases as readonly string[]).includes(database)) throw new Error(`--database must be one of ${benchDatabases.join(', ')} (got ${JSON.stringify(database)})`);
    return {
      ok: true,
      value: {
        sessions,
        turns: positiveInteger('turns', values.turns, 10),
        realisticTurns: positiveInteger('realistic-turns', values['realistic-turns'], 10),
        connections: positiveInteger('connections', values.connections, 10000),
        thinkMs: positiveInteger('think-ms', values['think-ms'], 0, 0),
        warmupSessions: Math.min(20, sessions),
        profile: values.profile ?? false,
        parts,
        outputDirectory: values.out ?? 'reports',
        seed: positiveInteger('seed', values.seed, 1, 0),
        optimizerCards: positiveInteger('optimizer-cards', values['optimizer-cards'], 1200, 20),
        optimizerRounds: positiveInteger('optimizer-rounds', values['optimizer-rounds'], 2),
        database: database as BenchDatabase,
        heapSnapshots: values['heap-snapshots'] ?? false,
        serverNodeFlags: (values['server-node-flags'] ?? '').split(/\s+/).filter(Boolean),
      },
    };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
