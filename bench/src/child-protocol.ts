/**
 * The IPC contract between the bench (parent) and a server child (`server-child.ts`).
 * The child runs one server — tutorloop itself or the bare echo + insert baseline — so its
 * memory and CPU are its own, and answers requests by id. Nothing here does I/O.
 */
import { z } from 'zod';
import { latencyProfileNames, type TurnTiming } from './fake-tutor-provider';

export const serverKinds = ['tutorloop', 'echo'] as const;
export type ServerKind = (typeof serverKinds)[number];

/** What the child is started with (JSON in argv[2]). */
export const ChildOptions = z.object({
  kind: z.enum(serverKinds),
  dataDirectory: z.string().min(1),
  latency: z.enum(latencyProfileNames),
  /** tutorloop on PostgreSQL (`--database postgres`) instead of a SQLite file in the data folder. */
  databaseUrl: z.string().optional(),
  /** One secret for several instances on one database, so a token of one is valid on the other. */
  jwtSecret: z.string().optional(),
});
export type ChildOptions = z.infer<typeof ChildOptions>;

/** Requests the parent sends; each gets one reply with the same id. */
export const ChildRequest = z.discriminatedUnion('type', [
  z.object({ id: z.number(), type: z.literal('clock') }),
  z.object({ id: z.number(), type: z.literal('stats'), reset: z.boolean(), collectGarbage: z.boolean().optional() }),
  z.object({ id: z.number(), type: z.literal('latency'), profile: z.enum(latencyProfileNames) }),
  z.object({ id: z.number(), type: z.literal('timings') }),
  z.object({ id: z.number(), type: z.literal('profile_start') }),
  z.object({ id: z.number(), type: z.literal('profile_stop'), file: z.string() }),
  z.object({ id: z.number(), type: z.literal('stop') }),
  /** Writes a V8 heap snapshot of the child to `file` (it runs a full GC first). */
  z.object({ id: z.number(), type: z.literal('heap_snapshot'), file: z.string() }),
  /** Writes a synthetic review history for a registered learner through the server's own storage (tutorloop only). */
  z.object({ id: z.number(), type: z.literal('seed_history'), username: z.string(), cards: z.number().int().min(1), reviewsPerCard: z.number().int().min(2) }),
]);
export type ChildRequest = z.infer<typeof ChildRequest>;
export type ChildRequestType = ChildRequest['type'];

/** Resource use of the child, as it sees itself. */
export interface ChildStats {
  rssBytes: number;
  /** True when a full GC ran just before (`collectGarbage`, the child has --expose-gc). */
  afterGarbageCollection: boolean;
  /** Peak RSS since start (VmHWM), when /proc is available. */
  peakRssBytes: number | null;
  heapUsedBytes: number;
  /** V8's heap as committed (all spaces, the young generation's semi-spaces included). */
  heapTotalBytes: number;
  externalBytes: number;
  /** Cumulative CPU time of the process. */
  cpuMs: number;
  /** Event-loop delay since the last reset (monitorEventLoopDelay), milliseconds. */
  eventLoopDelay: { p50: number; p99: number; max: number };
}

export interface ChildReplies {
  clock: { now: number };
  stats: ChildStats;
  latency: null;
  timings: TurnTiming[];
  profile_start: null;
  profile_stop: { file: string };
  stop: null;
  heap_snapshot: { file: string };
  seed_history: { reviewCount: number; cards: number };
}

export type ChildReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };

/** The first message of a child: where it listens. */
export interface ChildReady {
  type: 'ready';
  url: string;
}
