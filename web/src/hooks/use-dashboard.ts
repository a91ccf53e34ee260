import type { ProgressStats, SessionHistoryItem, SubtopicProgress } from '@tutorloop/shared';
import { startTransition, useCallback, useEffect, useState } from 'react';
import { authStore, http } from '../services';

/** Sessions the dashboard lists under "Recent sessions". */
export const recentSessionCount = 6;

export interface Dashboard {
  stats: ProgressStats;
  recent: SessionHistoryItem[];
  concepts: SubtopicProgress['concepts'];
}

export type DashboardState = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; data: Dashboard };

type LoadedDashboard = Exclude<DashboardState, { status: 'loading' }>;

/** The three requests of the dashboard (SPEC §6: stats, history, subtopic progress), together. */
async function loadDashboard(): Promise<LoadedDashboard> {
  // "Today", the streak and the chart's days are the learner's own calendar days.
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  const [zoned, recent, concepts] = await Promise.all([http.getStats(timeZone), http.getRecentSessions(recentSessionCount), http.getSubtopicProgress()]);
  // A zone the server does not know (an older time-zone database): UTC days rather than nothing.
  const stats = !zoned.ok && zoned.error.code === 'invalid_payload' ? await http.getStats('UTC') : zoned;
  if (!stats.ok) return { status: 'error', message: stats.error.message };
  if (!recent.ok) return { status: 'error', message: recent.error.message };
  if (!concepts.ok) return { status: 'error', message: concepts.error.message };
  return { status: 'ready', data: { stats: stats.value, recent: recent.value.sessions, concepts: concepts.value.concepts } };
}

/** Requests sent before the first render, with the token they were sent with. */
let prefetched: { token: string | null; pending: Promise<LoadedDashboard> } | null = null;

/**
 * Sends the dashboard's requests now, before React has rendered anything: the app calls this
 * when it opens signed in on the home page, so the figures do not wait for the first render
 * (issue 27 item 5). The first `useDashboard` to mount takes the answer; later mounts read afresh.
 */
export function prefetchDashboard(): void {
  prefetched ??= { token: authStore.getState().token, pending: loadDashboard() };
}

/**
 * The dashboard's figures, read afresh each time the page mounts: due counts, the streak and
 * the activity move with every review. The recall sets come from their own store
 * (`useRecallSets`), which refreshes itself the same way.
 */
export function useDashboard(): { state: DashboardState; reload: () => void } {
  const [state, setState] = useState<DashboardState>({ status: 'loading' });
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    let live = true;
    // Another learner's (or a signed-out token's) answers are never shown: those are read again.
    const pending = prefetched?.token === authStore.getState().token ? prefetched.pending : loadDashboard();
    prefetched = null;
    void pending.then((loaded) => {
      // The dashboard's render is the page's longest: as a transition it lets the greeting
      // paint first and yields to the browser as it goes (issue 27 item 5).
      if (live) startTransition(() => setState(loaded));
    });
    return () => {
      live = false;
    };
  }, [generation]);

  const reload = useCallback(() => {
    setState({ status: 'loading' });
    setGeneration((value) => value + 1);
  }, []);
  return { state, reload };
}
