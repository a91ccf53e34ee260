/**
 * Joins a fleet of instances on the PostgreSQL at `url` (SPEC §11): its own small pool for the
 * fleet's statements (apart from the storage's, so a busy storage never delays a lease
 * renewal), the notifier's dedicated LISTEN connection, a random instance id, and the hub.
 */
import type { Logger } from '../../../core/ports';
import type { SessionModules } from '../../../core/session/session-module';
import { PgNotifier } from '../pg-notifier';
import { openPool } from '../postgres-database';
import type { PostgresStorage } from '../postgres-storage';
import { FleetHub, type FleetTimers } from './fleet-hub';
import { FleetStore } from './fleet-store';

/** A lease lasts 5 s unless renewed (every 1.5 s): a dead holder's sessions are taken over in under 10 s. */
export const leaseTtlMs = 5_000;

export async function openFleetHub(url: string, deps: { modules: SessionModules; storage: PostgresStorage; logger: Logger; timers?: FleetTimers }): Promise<FleetHub> {
  const pool = openPool(url, { max: 4 });
  const store = new FleetStore(pool, { leaseTtlMs, presenceStaleMs: 6_000, eventRetentionMs: 600_000 });
  let notifier: PgNotifier | undefined;
  try {
    notifier = await PgNotifier.open(url, deps.logger, { pool, applicationName: 'tutorloop-fleet' });
    const hub = new FleetHub({
      instanceId: crypto.randomUUID(),
      modules: deps.modules,
      store,
      notifier,
      storage: deps.storage,
      logger: deps.logger,
      ...(deps.timers ? { timers: deps.timers } : {}),
      dispose: async () => {
        await notifier?.close();
        await pool.end();
      },
    });
    await hub.start();
    return hub;
  } catch (error) {
    await notifier?.close();
    await pool.end();
    throw error;
  }
}
