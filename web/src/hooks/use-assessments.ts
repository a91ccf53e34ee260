import { useEffect } from 'react';
import { useStore } from 'zustand';
import { assessmentsStore } from '../services';
import type { AssessmentsState } from '../store/assessments-store';

/** The blueprints and past assessment sessions, refreshed each time the page mounts. */
export function useAssessments<T>(selector: (state: AssessmentsState) => T): T {
  useEffect(() => {
    void assessmentsStore.getState().load();
  }, []);
  return useStore(assessmentsStore, selector);
}
