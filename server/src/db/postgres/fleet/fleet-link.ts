/**
 * The connections one instance keeps for the fleet (SPEC §11), beside the storage's pool: one
 * small pool for the fleet's short statements (leases, the event log, commands, presence, the
 * per-learner budgets and job claims) and one dedicated LISTEN connection, shared by the session
 * rooms (open-fleet.ts) and the per-learner state (fleet-learners/fleet-learners.ts). Apart from
 * the storage's pool, so a busy storage never delays a lease renewal. The server opens it once
 * and closes it last, after everything that uses it (server.ts).
 */
import type pg from 'pg';
import type { Logger } from '../../../core/ports';
import { PgNotifier } from '../pg-notifier';
import { openPool } from '../postgres-database';

/** Connections of the fleet's pool: every statement on it is one short statement. */
export const fleetPoolSize = 6;

export interface FleetLink {
  pool: pg.Pool;
  notifier: PgNotifier;
  /** Closes the notifier, then the pool. Call after everything that uses them stopped. */
  close(): Promise<void>;
}

export async function openFleetLink(url: string, logger: Logger, options: { poolSize?: number } = {}): Promise<FleetLink> {
  const pool = openPool(url, { max: options.poolSize ?? fleetPoolSize });
  let notifier: PgNotifier;
  try {
    notifier = await PgNotifier.open(url, logger, { pool, applicationName: 'tutorloop-fleet' });
  } catch (error) {
    await pool.end();
    throw error;
  }
  let closing: Promise<void> | undefined;
  return {
    pool,
    notifier,
    close() {
      closing ??= notifier.close().then(() => pool.end());
      return closing;
    },
  };
}
