import type { RecallSetSummary } from '@tutorloop/shared';
import { describe, expect, it } from 'vitest';
import type { ApiResult } from '../api/http-client';
import { createRecallSetsStore } from './recall-sets-store';

const biology: RecallSetSummary = {
  id: 'rs_1',
  name: 'Biology',
  description: null,
  pointCount: 5,
  dueCount: 3,
  newCount: 2,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
};

describe('recall sets store', () => {
  it('loads the list', async () => {
    const store = createRecallSetsStore({
      listRecallSets: async () => ({ ok: true, value: { recallSets: [biology] } }),
      deleteRecallSet: async () => ({ ok: true, value: undefined }),
    });
    await store.getState().load();
    expect(store.getState()).toMatchObject({ status: 'ready', recallSets: [biology], error: null });
  });

  it('keeps the server message when loading fails', async () => {
    const store = createRecallSetsStore({
      listRecallSets: async (): Promise<ApiResult<{ recallSets: RecallSetSummary[] }>> => ({
        ok: false,
        error: { status: 500, code: 'internal', message: 'Database is locked.' },
      }),
      deleteRecallSet: async () => ({ ok: true, value: undefined }),
    });
    await store.getState().load();
    expect(store.getState()).toMatchObject({ status: 'error', error: 'Database is locked.' });
  });

  it('removes a deleted set, and reports a failed delete', async () => {
    let fail = false;
    const store = createRecallSetsStore({
      listRecallSets: async () => ({ ok: true, value: { recallSets: [biology, { ...biology, id: 'rs_2', name: 'Chemistry' }] } }),
      deleteRecallSet: async (): Promise<ApiResult<void>> =>
        fail ? { ok: false, error: { status: 404, code: 'not_found', message: 'Recall set not found.' } } : { ok: true, value: undefined },
    });
    await store.getState().load();
    expect(await store.getState().remove('rs_1')).toBeNull();
    expect(store.getState().recallSets.map((recallSet) => recallSet.id)).toEqual(['rs_2']);
    fail = true;
    expect(await store.getState().remove('rs_2')).toBe('Recall set not found.');
    expect(store.getState().recallSets.map((recallSet) => recallSet.id)).toEqual(['rs_2']);
  });

  it('shares one request between components that load the list as they mount', async () => {
    let requests = 0;
    const store = createRecallSetsStore({
      listRecallSets: async () => {
        requests += 1;
        return { ok: true, value: { recallSets: [biology] } };
      },
      deleteRecallSet: async () => ({ ok: true, value: undefined }),
    });
    await Promise.all([store.getState().load(), store.getState().load(), store.getState().load()]);
    expect(requests).toBe(1);
    await store.getState().load();
    expect(requests).toBe(2);
  });
});
