import type { RecallSetSummary } from '@tutorloop/shared';
import { createStore } from 'zustand/vanilla';
import type { HttpClient } from '../api/http-client';

export interface RecallSetsState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  recallSets: RecallSetSummary[];
  error: string | null;
  /** Fetches the list (again); keeps the old list on screen while loading. Calls made while a
   * request is under way share it. */
  load(): Promise<void>;
  /** Deletes a set; returns the error message, or null on success. */
  remove(recallSetId: string): Promise<string | null>;
}

/** The learner's recall sets with their due counts. */
export function createRecallSetsStore(http: Pick<HttpClient, 'listRecallSets' | 'deleteRecallSet'>) {
  // Several components may ask for the list as they mount: they share one request.
  let inFlight: Promise<void> | null = null;
  return createStore<RecallSetsState>()((set, get) => ({
    status: 'idle',
    recallSets: [],
    error: null,
    load: () => {
      inFlight ??= (async () => {
        set({ status: 'loading', error: null });
        const result = await http.listRecallSets();
        if (result.ok) set({ status: 'ready', recallSets: result.value.recallSets, error: null });
        else set({ status: 'error', error: result.error.message });
      })().finally(() => {
        inFlight = null;
      });
      return inFlight;
    },
    remove: async (recallSetId) => {
      const result = await http.deleteRecallSet(recallSetId);
      if (!result.ok) return result.error.message;
      set({ recallSets: get().recallSets.filter((recallSet) => recallSet.id !== recallSetId) });
      return null;
    },
  }));
}

export type RecallSetsStore = ReturnType<typeof createRecallSetsStore>;
