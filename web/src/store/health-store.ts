import type { HealthResponse } from '@tutorloop/shared';
import { createStore } from 'zustand/vanilla';
import type { HttpClient } from '../api/http-client';

export interface HealthState {
  status: 'unknown' | 'ok' | 'unreachable';
  /** Which tutor answers; `offline` is the deterministic local one (no API key). */
  tutor: HealthResponse['tutor'] | null;
  version: string | null;
  load(): Promise<void>;
}

/** What `GET /api/health` says about the server. */
export function createHealthStore(http: Pick<HttpClient, 'health'>) {
  return createStore<HealthState>()((set) => ({
    status: 'unknown',
    tutor: null,
    version: null,
    load: async () => {
      const result = await http.health();
      if (result.ok) set({ status: 'ok', tutor: result.value.tutor, version: result.value.version });
      else set({ status: 'unreachable' });
    },
  }));
}

export type HealthStore = ReturnType<typeof createHealthStore>;
