import type { ProgressStats, SessionHistoryItem, SubtopicProgress } from '@tutorloop/shared';
import { useCallback, useEffect, useState } from 'react';
import { http } from '../services';

/** Sessions the dashboard lists under "Recent sessions". */
export const recentSessionCount = 6;

export interface Dashboard {
  stats: ProgressStats;
  recent: SessionHistoryItem[];
  concepts: SubtopicProgress['concepts'];
}

export type DashboardState = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; data: Dashboard };

/**
 * The dashboard's figures (SPEC §6: stats, history, subtopic progress), read afresh each time
 * the page mounts: due counts, the streak and the activity move with every review. The recall
 * sets come from their own store (`useRecallSets`), which refreshes itself the same way.
 */
export function useDashboard(): { state: DashboardState; reload: () => void } {
  const [state, setState] = useState<DashboardState>({ status: 'loading' });
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    let live = true;
    void (async () => {
      // "Today", the streak and the chart's days are the learner's own calendar days.
      const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
      const [zoned, recent, concepts] = await Promise.all([http.getStats(timeZone), http.getRecentSessions(recentSessionCount), http.getSubtopicProgress()]);
      // A zone the server does not know (an older time-zone database): UTC days rather than nothing.
      const stats = !zoned.ok && zoned.error.code === 'invalid_payload' ? await http.getStats('UTC') : zoned;
      if (!live) return;
      const failed = [stats, recent, concepts].find((result) => !result.ok);
      if (failed && !failed.ok) return setState({ status: 'error', message: failed.error.message });
      if (stats.ok && recent.ok && concepts.ok) {
        setState({ status: 'ready', data: { stats: stats.value, recent: recent.value.sessions, concepts: concepts.value.concepts } });
      }
    })();
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
