import { useEffect } from 'react';
import { useStore } from 'zustand';
import { recallSetScheduleStore } from '../services';
import type { RecallSetScheduleState } from '../store/recall-set-schedule-store';

/** One set's points and cards, fetched (again) whenever a page shows that set. */
export function useRecallSetSchedule<T>(recallSetId: string, selector: (state: RecallSetScheduleState) => T): T {
  useEffect(() => {
    void recallSetScheduleStore.getState().load(recallSetId);
  }, [recallSetId]);
  return useStore(recallSetScheduleStore, selector);
}
