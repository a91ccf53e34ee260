/**
 * Per-learner state shared by every instance on one PostgreSQL (SPEC §11): the budget buckets
 * (frames, session creations, model operations) and the optimiser's job claims, on the
 * instance's fleet pool, their tables made by the migrations (fleet/fleet-schema.ts); and
 * revocations announced to every instance on its one LISTEN connection (learner-revocations.ts).
 * The connections are the instance's fleet link (fleet/fleet-link.ts), which the server closes.
 */
import type { TokenBucketStore } from '../../../core/limits/learner-limits';
import type { Clock, Logger } from '../../../core/ports';
import type { JobClaims } from '../../../core/scheduler/job-claims';
import type { FleetLink } from '../fleet/fleet-link';
import { broadcastRevocations, type FleetConnections, type LocalConnections } from './learner-revocations';
import { PgJobClaims } from './pg-job-claims';
import { PgTokenBuckets } from './pg-token-buckets';

export interface FleetLearners {
  buckets: TokenBucketStore;
  claims: JobClaims;
  /** This instance's sockets, closed on a revocation announced by any instance (call once). */
  revocations(local: LocalConnections): FleetConnections;
  /** Stops listening for revocations (the link itself stays open: its owner closes it). */
  close(): void;
}

/** The shared per-learner state on the fleet link of the database the storage uses (migrated by it first). */
export function openFleetLearners(link: FleetLink, dependencies: { clock: Clock; logger: Logger }): FleetLearners {
  let connections: FleetConnections | undefined;
  return {
    buckets: new PgTokenBuckets(link.pool, dependencies.clock, dependencies.logger),
    claims: new PgJobClaims(link.pool),
    revocations(local) {
      connections ??= broadcastRevocations(link.notifier, local, dependencies.logger);
      return connections;
    },
    close() {
      connections?.stop();
    },
  };
}
