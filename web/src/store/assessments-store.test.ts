import type { BlueprintList, BlueprintSummary, SessionListItem } from '@tutorloop/shared';
import { describe, expect, it } from 'vitest';
import type { ApiResult } from '../api/http-client';
import { createAssessmentsStore } from './assessments-store';

const math: BlueprintSummary = {
  id: 'MATH-FUNDAMENTALS-L1',
  title: 'Math fundamentals',
  description: 'Two-digit arithmetic.',
  domains: ['addition', 'subtraction', 'multiplication', 'division'],
  sections: [{ id: 's1', title: 'Addition', domain: 'addition', itemCount: 5 }],
  totalItems: 20,
  timeLimitSeconds: 1800,
  selection: 'fixed',
  itemKinds: ['multiple_choice'],
};

function session(id: string, type: SessionListItem['type'], createdAt: string): SessionListItem {
  return {
    id,
    type,
    status: 'completed',
    mode: 'recall',
    title: id,
    recallSetId: null,
    recalledCount: 0,
    totalPoints: 20,
    createdAt,
    endedAt: null,
  };
}

const sessions = [
  session('old', 'assessment', '2025-01-01T00:00:00.000Z'),
  session('recall', 'recall', '2025-01-02T00:00:00.000Z'),
  session('new', 'assessment', '2025-01-03T00:00:00.000Z'),
];

function storeWith(blueprints: ApiResult<BlueprintList>, listed: ApiResult<{ sessions: SessionListItem[] }> = { ok: true, value: { sessions } }) {
  return createAssessmentsStore({ listBlueprints: async () => blueprints, listSessions: async () => listed });
}

describe('assessments store', () => {
  it('lists the blueprints and the past assessment sessions, newest first', async () => {
    const store = storeWith({ ok: true, value: { blueprints: [math] } });
    await store.getState().load();
    expect(store.getState()).toMatchObject({ status: 'ready', blueprints: [math], error: null });
    expect(store.getState().pastSessions.map((item) => item.id)).toEqual(['new', 'old']);
  });

  it('says "unavailable" when the server has no blueprints endpoint (404)', async () => {
    const store = storeWith({ ok: false, error: { status: 404, code: 'not_found', message: 'Route GET:/api/blueprints not found' } });
    await store.getState().load();
    expect(store.getState()).toMatchObject({ status: 'unavailable', blueprints: [], error: null });
    expect(store.getState().pastSessions).toHaveLength(2);
  });

  it('keeps the message of any other failure', async () => {
    const store = storeWith({ ok: false, error: { status: 500, code: 'internal', message: 'Blueprint file is invalid.' } });
    await store.getState().load();
    expect(store.getState()).toMatchObject({ status: 'error', error: 'Blueprint file is invalid.' });
  });

  it('drops a blueprint it cannot read and keeps the rest; a failed session list is just empty', async () => {
    const odd = { id: 'X', title: 'Odd' } as unknown as BlueprintSummary;
    const store = storeWith(
      { ok: true, value: { blueprints: [odd, { ...math, extra: 'from a newer server' } as BlueprintSummary] } },
      { ok: false, error: { status: 500, code: 'internal', message: 'boom' } },
    );
    await store.getState().load();
    expect(store.getState()).toMatchObject({ status: 'ready', blueprints: [math], pastSessions: [] });
  });

  it('shares one request between callers while loading', async () => {
    let requests = 0;
    const store = createAssessmentsStore({
      listBlueprints: async () => {
        requests += 1;
        return { ok: true, value: { blueprints: [math] } };
      },
      listSessions: async () => ({ ok: true, value: { sessions } }),
    });
    await Promise.all([store.getState().load(), store.getState().load()]);
    expect(requests).toBe(1);
  });
});
