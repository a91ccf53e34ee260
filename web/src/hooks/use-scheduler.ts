import { useEffect } from 'react';
import { useStore } from 'zustand';
import { schedulerStore } from '../services';
import type { SchedulerState } from '../store/scheduler-store';

/**
 * The signed-in learner's scheduler (parameters, optimiser, retention forecast): loaded when a
 * page using it mounts, and followed (polled) while a run is under way and the page is open.
 */
export function useScheduler<T>(learnerId: string | null, selector: (state: SchedulerState) => T): T {
  useEffect(() => {
    if (learnerId) void schedulerStore.getState().load(learnerId);
  }, [learnerId]);
  useEffect(() => schedulerStore.getState().watch(), []);
  return useStore(schedulerStore, selector);
}
