import { StudyPlanSummary, type SessionListItem } from '@tutorloop/shared';
import { createStore } from 'zustand/vanilla';
import type { HttpClient } from '../api/http-client';
import { isLearningSession } from '../sessions/learning/learning-sessions';

export interface StudyPlansState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  /** Own plans first, then shared, then built-in ones (SPEC §4.4). */
  studyPlans: StudyPlanSummary[];
  /** The learner's learning sessions, newest first: their plan's title and the steps done. */
  sessions: SessionListItem[];
  error: string | null;
  /** Fetches the plans and the learning sessions (again); concurrent calls share one request. */
  load(): Promise<void>;
  /** Deletes an own plan; returns the error message, or null on success. */
  remove(studyPlanId: string): Promise<string | null>;
}

/**
 * Keeps the plans the client can show: a server that sends one odd row (a newer shape) still
 * shows the others; unknown fields pass.
 */
function readablePlans(value: unknown): StudyPlanSummary[] {
  const rows = (value as { studyPlans?: unknown } | null)?.studyPlans;
  if (!Array.isArray(rows)) return [];
  return rows.flatMap((row) => {
    const parsed = StudyPlanSummary.safeParse(row);
    return parsed.success ? [parsed.data] : [];
  });
}

/** Own plans first, then shared ones, then built-in ones; by title within each. */
export function sortPlans(plans: readonly StudyPlanSummary[]): StudyPlanSummary[] {
  const rank = (plan: StudyPlanSummary) => (plan.owned ? 0 : plan.builtIn ? 2 : 1);
  return [...plans].sort((a, b) => rank(a) - rank(b) || a.title.localeCompare(b.title));
}

function newestFirst(a: SessionListItem, b: SessionListItem): number {
  return b.createdAt.localeCompare(a.createdAt);
}

/** The study plans a learner can start, and the learning sessions they took. */
export function createStudyPlansStore(http: Pick<HttpClient, 'listStudyPlans' | 'listSessions' | 'deleteStudyPlan'>) {
  // Several components may ask as they mount: they share one request.
  let inFlight: Promise<void> | null = null;

  return createStore<StudyPlansState>()((set, get) => ({
    status: 'idle',
    studyPlans: [],
    sessions: [],
    error: null,
    load: () => {
      inFlight ??= (async () => {
        set({ status: 'loading', error: null });
        const [plans, sessions] = await Promise.all([http.listStudyPlans(), http.listSessions()]);
        // The sessions are a convenience: a failure there leaves the list empty, no error.
        const learning = sessions.ok ? sessions.value.sessions.filter(isLearningSession).sort(newestFirst) : [];
        if (plans.ok) set({ status: 'ready', studyPlans: sortPlans(readablePlans(plans.value)), sessions: learning, error: null });
        else set({ status: 'error', sessions: learning, error: plans.error.message });
      })().finally(() => {
        inFlight = null;
      });
      return inFlight;
    },
    remove: async (studyPlanId) => {
      const result = await http.deleteStudyPlan(studyPlanId);
      if (!result.ok) return result.error.message;
      set({ studyPlans: get().studyPlans.filter((plan) => plan.id !== studyPlanId) });
      return null;
    },
  }));
}

export type StudyPlansStore = ReturnType<typeof createStudyPlansStore>;
