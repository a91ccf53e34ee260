/**
 * Per-learner state shared by every instance on one PostgreSQL (SPEC §11): the budget buckets
 * (frames, session creations, model operations) and the optimiser's job claims, on a small
 * pool of their own, their tables made by the migrations (fleet/fleet-schema.ts); and revocations
 * announced to every instance on a LISTEN connection of their own (learner-revocations.ts).
 */
import type { TokenBucketStore } from '../../../core/limits/learner-limits';
import type { Clock, Logger } from '../../../core/ports';
import type { JobClaims } from '../../../core/scheduler/job-claims';
import { PgNotifier } from '../pg-notifier';
import { openPool } from '../postgres-database';
import { broadcastRevocations, type FleetConnections, type LocalConnections } from './learner-revocations';
import { PgJobClaims } from './pg-job-claims';
import { PgTokenBuckets } from './pg-token-buckets';

export interface FleetLearners {
  buckets: TokenBucketStore;
  claims: JobClaims;
  /** This instance's sockets, closed on a revocation announced by any instance (call once). */
  revocations(local: LocalConnections): FleetConnections;
  close(): Promise<void>;
}

/** Opens the shared per-learner state on the database at `url` (the one the storage uses, migrated by it first). */
export async function openFleetLearners(url: string, dependencies: { clock: Clock; logger: Logger }): Promise<FleetLearners> {
  // A frame's budget is one short statement: a few connections serve many sockets.
  const pool = openPool(url, { max: 4 });
  let notifier: PgNotifier | undefined;
  try {
    notifier = await PgNotifier.open(url, dependencies.logger, { pool, applicationName: 'tutorloop-learners' });
  } catch (error) {
    await pool.end();
    throw error;
  }
  const listening = notifier;
  let connections: FleetConnections | undefined;
  return {
    buckets: new PgTokenBuckets(pool, dependencies.clock, dependencies.logger),
    claims: new PgJobClaims(pool),
    revocations(local) {
      connections ??= broadcastRevocations(listening, local, dependencies.logger);
      return connections;
    },
    async close() {
      connections?.stop();
      await listening.close();
      await pool.end();
    },
  };
}
