import { BlueprintSummary, type SessionListItem } from '@tutorloop/shared';
import { createStore } from 'zustand/vanilla';
import type { HttpClient } from '../api/http-client';
import { isAssessmentSession } from '../sessions/assessment/assessment-sessions';

export interface AssessmentsState {
  /** `unavailable`: this server has no assessments (`GET /api/blueprints` is 404). */
  status: 'idle' | 'loading' | 'ready' | 'unavailable' | 'error';
  blueprints: BlueprintSummary[];
  /** The learner's assessment sessions, newest first. */
  pastSessions: SessionListItem[];
  error: string | null;
  /** Fetches the blueprints and the past assessment sessions (again); concurrent calls share one request. */
  load(): Promise<void>;
}

/**
 * Keeps the blueprints the client can show. Parsing one at a time means a server that sends
 * one odd row (a newer shape) still shows the others; unknown fields pass.
 */
function readableBlueprints(value: unknown): BlueprintSummary[] {
  const rows = (value as { blueprints?: unknown } | null)?.blueprints;
  if (!Array.isArray(rows)) return [];
  return rows.flatMap((row) => {
    const parsed = BlueprintSummary.safeParse(row);
    return parsed.success ? [parsed.data] : [];
  });
}

function newestFirst(a: SessionListItem, b: SessionListItem): number {
  return b.createdAt.localeCompare(a.createdAt);
}

/** The assessments a learner can start, and the ones they took. */
export function createAssessmentsStore(http: Pick<HttpClient, 'listBlueprints' | 'listSessions'>) {
  // Several components may ask as they mount: they share one request.
  let inFlight: Promise<void> | null = null;

  async function fetchAll(set: (partial: Partial<AssessmentsState>) => void) {
    set({ status: 'loading', error: null });
    const [blueprints, sessions] = await Promise.all([http.listBlueprints(), http.listSessions()]);
    // The past sessions are a convenience: a failure there leaves the list empty, no error.
    const pastSessions = sessions.ok
      ? sessions.value.sessions.filter(isAssessmentSession).sort(newestFirst)
      : [];
    if (blueprints.ok) {
      set({ status: 'ready', blueprints: readableBlueprints(blueprints.value), pastSessions, error: null });
    } else if (blueprints.error.status === 404) {
      set({ status: 'unavailable', blueprints: [], pastSessions, error: null });
    } else {
      set({ status: 'error', pastSessions, error: blueprints.error.message });
    }
  }

  return createStore<AssessmentsState>()((set) => ({
    status: 'idle',
    blueprints: [],
    pastSessions: [],
    error: null,
    load: () => {
      inFlight ??= fetchAll(set).finally(() => {
        inFlight = null;
      });
      return inFlight;
    },
  }));
}

export type AssessmentsStore = ReturnType<typeof createAssessmentsStore>;
