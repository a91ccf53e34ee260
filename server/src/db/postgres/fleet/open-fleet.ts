/**
 * Joins a fleet of instances on one PostgreSQL (SPEC §11): the hub on the instance's fleet
 * connections (fleet-link.ts, opened and closed by the server), with a random instance id.
 */
import type { Logger } from '../../../core/ports';
import type { SessionModules } from '../../../core/session/session-module';
import type { PostgresStorage } from '../postgres-storage';
import { FleetHub, type FleetTimers } from './fleet-hub';
import type { FleetLink } from './fleet-link';
import { FleetStore } from './fleet-store';

/** A lease lasts 5 s unless renewed (every 1.5 s): a dead holder's sessions are taken over in under 10 s. */
export const leaseTtlMs = 5_000;

export async function openFleetHub(link: FleetLink, deps: { modules: SessionModules; storage: PostgresStorage; logger: Logger; timers?: FleetTimers }): Promise<FleetHub> {
  const store = new FleetStore(link.pool, { leaseTtlMs, presenceStaleMs: 6_000, eventRetentionMs: 600_000 });
  const hub = new FleetHub({
    instanceId: crypto.randomUUID(),
    modules: deps.modules,
    store,
    notifier: link.notifier,
    storage: deps.storage,
    logger: deps.logger,
    ...(deps.timers ? { timers: deps.timers } : {}),
  });
  await hub.start();
  return hub;
}
