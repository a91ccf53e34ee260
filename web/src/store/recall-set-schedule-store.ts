import type { CardView, RecallSetDetail } from '@tutorloop/shared';
import { createStore } from 'zustand/vanilla';
import type { HttpClient } from '../api/http-client';

export interface RecallSetScheduleState {
  /** The set being shown (or loading). */
  recallSetId: string | null;
  status: 'idle' | 'loading' | 'ready' | 'error';
  recallSet: RecallSetDetail | null;
  cards: CardView[];
  /** The learner's desired retention, as the server scheduled with (predicted recall below it is marked). */
  desiredRetention: number;
  error: string | null;
  /**
   * Fetches the set and the learner's cards for it. Calls for the set already loading share
   * that request; for another set, the newer call wins over the older one.
   */
  load(recallSetId: string): Promise<void>;
}

/** One recall set with its points and the learner's FSRS state per point (the set's own page). */
export function createRecallSetScheduleStore(http: Pick<HttpClient, 'getRecallSet' | 'listCards'>) {
  let inFlight: { recallSetId: string; promise: Promise<void> } | null = null;

  const store = createStore<RecallSetScheduleState>()(() => ({
    recallSetId: null,
    status: 'idle',
    recallSet: null,
    cards: [],
    desiredRetention: 0.9,
    error: null,
    load: (recallSetId) => {
      if (inFlight?.recallSetId === recallSetId) return inFlight.promise;
      const promise = fetchSet(recallSetId).finally(() => {
        if (inFlight?.promise === promise) inFlight = null;
      });
      inFlight = { recallSetId, promise };
      return promise;
    },
  }));

  async function fetchSet(recallSetId: string) {
    const switching = store.getState().recallSetId !== recallSetId;
    // Another set's data must not flash on screen; the same set's stays while refreshing.
    store.setState({
      recallSetId,
      status: 'loading',
      error: null,
      ...(switching && { recallSet: null, cards: [] }),
    });
    const [detail, cards] = await Promise.all([http.getRecallSet(recallSetId), http.listCards(recallSetId)]);
    // An older answer arriving after a newer request (for another set) is dropped.
    if (inFlight?.recallSetId !== recallSetId) return;
    if (!detail.ok) {
      store.setState({ status: 'error', error: detail.error.message });
      return;
    }
    if (!cards.ok) {
      store.setState({ status: 'error', recallSet: detail.value, error: cards.error.message });
      return;
    }
    store.setState({
      status: 'ready',
      recallSet: detail.value,
      cards: cards.value.cards,
      desiredRetention: cards.value.desiredRetention ?? store.getState().desiredRetention,
      error: null,
    });
  }

  return store;
}

export type RecallSetScheduleStore = ReturnType<typeof createRecallSetScheduleStore>;

