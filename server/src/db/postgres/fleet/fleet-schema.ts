/**
 * The PostgreSQL tables of a fleet (SPEC §11; core/fleet/README.md): several instances serving
 * one session. PostgreSQL only — the SQLite server is one process, and its rooms live in its
 * memory. Beside schema.ts (drizzle-postgres.config.ts reads both), so that file stays the
 * mirror of the SQLite schema.
 */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, customType, doublePrecision, index, pgTable, primaryKey, timestamp } from 'drizzle-orm/pg-core';
import { sessions } from '../schema';

const text = customType<{ data: string; driverData: string }>({ dataType: () => 'text COLLATE "C"' });
const jsonb = customType<{ data: unknown; driverData: unknown }>({ dataType: () => 'jsonb', toDriver: (value) => JSON.stringify(value), fromDriver: (value) => value });
const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Every running instance, with its heartbeat: presence rows of an instance whose heartbeat is stale are dead. */
export const fleetInstances = pgTable('fleet_instances', {
  id: text('id').primaryKey(),
  heartbeatAt: timestamptz('heartbeat_at').notNull(),
});

/**
 * Which instance runs a session's turns now: expiry from the database clock, and an epoch that
 * grows with each new holder, which every commit of a turn checks (fencing).
 */
export const sessionLeases = pgTable('session_leases', {
  sessionId: text('session_id')
    .primaryKey()
    .references(() => sessions.id, { onDelete: 'cascade' }),
  owner: text('owner').notNull(),
  epoch: bigint('epoch', { mode: 'number' }).notNull(),
  expiresAt: timestamptz('expires_at').notNull(),
});

/**
 * The events of a session, in order, for every instance's sockets: `target` null goes to every
 * socket of the session, else only to the listener of that id. No foreign key: the event that
 * closes a deleted session's sockets is written after the session is gone. Swept after minutes.
 */
export const sessionEvents = pgTable(
  'session_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    sessionId: text('session_id').notNull(),
    target: text('target'),
    event: jsonb('event').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [index('session_events_session_idx').on(table.sessionId, table.id), index('session_events_created_idx').on(table.createdAt)],
);

/**
 * Client frames (and attach/detach/step) received by an instance that does not run the session,
 * for its owner to take. A taken command stays, marked with the lease (owner, epoch) it was taken
 * under, until it ran: a new owner takes again what an earlier lease took and never finished.
 */
export const sessionCommands = pgTable(
  'session_commands',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    sessionId: text('session_id').notNull(),
    target: text('target').notNull(),
    frame: jsonb('frame').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    takenBy: text('taken_by'),
    takenEpoch: bigint('taken_epoch', { mode: 'number' }),
  },
  (table) => [index('session_commands_session_idx').on(table.sessionId, table.id)],
);

/** Who listens to a session, on which instance: the owner's grace period counts listeners fleet-wide. */
export const sessionPresence = pgTable(
  'session_presence',
  {
    listenerId: text('listener_id').primaryKey(),
    sessionId: text('session_id').notNull(),
    instanceId: text('instance_id').notNull(),
  },
  (table) => [index('session_presence_session_idx').on(table.sessionId), index('session_presence_instance_idx').on(table.instanceId)],
);

/**
 * One token bucket per learner and budget (frames, session creations, model operations), shared
 * by every instance (db/postgres/fleet-learners/pg-token-buckets.ts). Times are ms of the clock
 * the server is given, like the in-memory buckets; `taken` says whether the last take got a token.
 */
export const learnerBudgetBuckets = pgTable(
  'learner_budget_buckets',
  {
    learnerId: text('learner_id').notNull(),
    budget: text('budget').notNull(),
    tokens: doublePrecision('tokens').notNull(),
    updatedAtMs: bigint('updated_at_ms', { mode: 'number' }).notNull(),
    windowMs: bigint('window_ms', { mode: 'number' }).notNull(),
    taken: boolean('taken').notNull(),
  },
  // A bucket idle for its window is full again, the same as no row: the index finds those to prune.
  (table) => [primaryKey({ columns: [table.learnerId, table.budget] }), index('learner_budget_buckets_full_at').on(sql`(${table.updatedAtMs} + ${table.windowMs})`)],
);

/** One claim per learner and background job (the optimiser), held by one instance until it ends or expires (database clock). */
export const learnerJobClaims = pgTable(
  'learner_job_claims',
  {
    learnerId: text('learner_id').notNull(),
    job: text('job').notNull(),
    owner: text('owner').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.learnerId, table.job] })],
);
