import { useEffect } from 'react';
import { useStore } from 'zustand';
import { studyPlansStore } from '../services';
import type { StudyPlansState } from '../store/study-plans-store';

/** The study plans and the learner's learning sessions, refreshed each time the page mounts. */
export function useStudyPlans<T>(selector: (state: StudyPlansState) => T): T {
  useEffect(() => {
    void studyPlansStore.getState().load();
  }, []);
  return useStore(studyPlansStore, selector);
}
