import { useEffect } from 'react';
import { useStore } from 'zustand';
import type { RecallSetsState } from '../store/recall-sets-store';
import { recallSetsStore } from '../services';

/** The recall sets list, refreshed every time a component using it mounts (due counts move). */
export function useRecallSets<T>(selector: (state: RecallSetsState) => T): T {
  useEffect(() => {
    void recallSetsStore.getState().load();
  }, []);
  return useStore(recallSetsStore, selector);
}
