import type { CardList, CardView, RecallSetDetail } from '@tutorloop/shared';
import { describe, expect, it } from 'vitest';
import type { ApiResult } from '../api/http-client';
import { createRecallSetScheduleStore } from './recall-set-schedule-store';

function detail(id: string): RecallSetDetail {
  return {
    id,
    name: `Set ${id}`,
    description: null,
    pointCount: 1,
    dueCount: 1,
    newCount: 1,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    points: [{ id: `${id}-p1`, content: 'A point', context: null, position: 0 }],
  };
}

const card: CardView = {
  pointId: 'a-p1',
  content: 'A point',
  due: '2025-01-02T00:00:00.000Z',
  stability: 2,
  difficulty: 5,
  reps: 1,
  lapses: 0,
  state: 'review',
  lastReview: '2025-01-01T00:00:00.000Z',
  status: 'scheduled',
  retrievability: 0.93,
};

const notFound = { ok: false as const, error: { status: 404, code: 'not_found', message: 'No recall set with that id.' } };

describe('recall set schedule store', () => {
  it('loads the set and its cards', async () => {
    const store = createRecallSetScheduleStore({
      getRecallSet: async (id) => ({ ok: true, value: detail(id) }),
      listCards: async () => ({ ok: true, value: { cards: [card] } }),
    });
    await store.getState().load('a');
    expect(store.getState()).toMatchObject({ recallSetId: 'a', status: 'ready', recallSet: detail('a'), cards: [card], error: null });
  });

  it('reports a missing set, and a failed card request', async () => {
    const missing = createRecallSetScheduleStore({ getRecallSet: async () => notFound, listCards: async () => notFound });
    await missing.getState().load('zzz');
    expect(missing.getState()).toMatchObject({ status: 'error', recallSet: null, error: 'No recall set with that id.' });

    const noCards = createRecallSetScheduleStore({
      getRecallSet: async (id) => ({ ok: true, value: detail(id) }),
      listCards: async (): Promise<ApiResult<CardList>> => ({ ok: false, error: { status: 0, code: 'network', message: 'Offline.' } }),
    });
    await noCards.getState().load('a');
    expect(noCards.getState()).toMatchObject({ status: 'error', error: 'Offline.', cards: [] });
  });

  it('drops an older answer that arrives after a newer request', async () => {
    const pending: Array<() => void> = [];
    const store = createRecallSetScheduleStore({
      getRecallSet: (id) =>
        new Promise<ApiResult<RecallSetDetail>>((resolve) => pending.push(() => resolve({ ok: true, value: detail(id) }))),
      listCards: async () => ({ ok: true, value: { cards: [] } }),
    });
    const first = store.getState().load('a');
    const second = store.getState().load('b');
    expect(store.getState()).toMatchObject({ recallSetId: 'b', status: 'loading', recallSet: null });
    pending[1]?.();
    await second;
    pending[0]?.();
    await first;
    expect(store.getState()).toMatchObject({ recallSetId: 'b', status: 'ready', recallSet: detail('b') });
  });

  it('shares one request between components that ask for the same set at once', async () => {
    let requests = 0;
    const store = createRecallSetScheduleStore({
      getRecallSet: async (id) => {
        requests += 1;
        return { ok: true, value: detail(id) };
      },
      listCards: async () => ({ ok: true, value: { cards: [] } }),
    });
    await Promise.all([store.getState().load('a'), store.getState().load('a'), store.getState().load('a')]);
    expect(requests).toBe(1);
    await store.getState().load('a');
    expect(requests).toBe(2);
  });
});
