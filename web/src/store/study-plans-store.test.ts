import type { SessionListItem, StudyPlanSummary } from '@tutorloop/shared';
import { describe, expect, it } from 'vitest';
import type { ApiResult } from '../api/http-client';
import { createStudyPlansStore } from './study-plans-store';

function plan(id: string, fields: Partial<StudyPlanSummary> = {}): StudyPlanSummary {
  return {
    id,
    title: id,
    topic: 'Fractions',
    audience: 'Grade 5',
    stepCount: 6,
    concepts: ['halves'],
    shared: false,
    owned: false,
    builtIn: false,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    ...fields,
  };
}

function session(id: string, type: SessionListItem['type'], createdAt: string): SessionListItem {
  return { id, type, status: 'active', mode: 'recall', title: id, recallSetId: null, recalledCount: 2, totalPoints: 6, createdAt, endedAt: null };
}

const sessions = [
  session('old', 'learning', '2025-01-01T00:00:00.000Z'),
  session('recall', 'recall', '2025-01-02T00:00:00.000Z'),
  session('new', 'learning', '2025-01-03T00:00:00.000Z'),
];

function storeWith(
  plans: ApiResult<unknown>,
  options: { sessions?: ApiResult<{ sessions: SessionListItem[] }>; remove?: ApiResult<void> } = {},
) {
  const calls = { list: 0, deleted: [] as string[] };
  const store = createStudyPlansStore({
    listStudyPlans: async () => {
      calls.list += 1;
      return plans as ApiResult<{ studyPlans: StudyPlanSummary[] }>;
    },
    listSessions: async () => options.sessions ?? { ok: true, value: { sessions } },
    deleteStudyPlan: async (studyPlanId) => {
      calls.deleted.push(studyPlanId);
      return options.remove ?? { ok: true, value: undefined };
    },
  });
  return { store, calls };
}

describe('study plans store', () => {
  it('lists own, shared, then built-in plans, and only the learning sessions, newest first', async () => {
    const builtIn = plan('Fractions', { builtIn: true, shared: true });
    const mine = plan('My plan', { owned: true });
    const theirs = plan('Their plan', { shared: true });
    const { store } = storeWith({ ok: true, value: { studyPlans: [builtIn, theirs, mine] } });
    await store.getState().load();
    expect(store.getState()).toMatchObject({ status: 'ready', studyPlans: [mine, theirs, builtIn], error: null });
    expect(store.getState().sessions.map((item) => item.id)).toEqual(['new', 'old']);
  });

  it('drops a row it cannot read and keeps the others', async () => {
    const { store } = storeWith({ ok: true, value: { studyPlans: [plan('ok'), { id: 'odd', title: 3 }] } });
    await store.getState().load();
    expect(store.getState().studyPlans.map((item) => item.id)).toEqual(['ok']);
  });

  it('keeps the server message when the plans cannot be loaded; sessions failing is no error', async () => {
    const failed = storeWith({ ok: false, error: { status: 500, code: 'internal', message: 'The server had a problem.' } });
    await failed.store.getState().load();
    expect(failed.store.getState()).toMatchObject({ status: 'error', error: 'The server had a problem.' });

    const noSessions = storeWith({ ok: true, value: { studyPlans: [plan('a')] } }, { sessions: { ok: false, error: { status: 0, code: 'network', message: 'offline' } } });
    await noSessions.store.getState().load();
    expect(noSessions.store.getState()).toMatchObject({ status: 'ready', sessions: [], error: null });
  });

  it('shares one request between components that load at once', async () => {
    const { store, calls } = storeWith({ ok: true, value: { studyPlans: [] } });
    await Promise.all([store.getState().load(), store.getState().load()]);
    expect(calls.list).toBe(1);
  });

  it('removes a deleted plan, and keeps it with the server’s message when deleting fails', async () => {
    const { store, calls } = storeWith({ ok: true, value: { studyPlans: [plan('a', { owned: true }), plan('b', { owned: true })] } });
    await store.getState().load();
    expect(await store.getState().remove('a')).toBeNull();
    expect(calls.deleted).toEqual(['a']);
    expect(store.getState().studyPlans.map((item) => item.id)).toEqual(['b']);

    const refused = storeWith(
      { ok: true, value: { studyPlans: [plan('c')] } },
      { remove: { ok: false, error: { status: 403, code: 'forbidden', message: 'Only the author of a study plan can change or delete it.' } } },
    );
    await refused.store.getState().load();
    expect(await refused.store.getState().remove('c')).toBe('Only the author of a study plan can change or delete it.');
    expect(refused.store.getState().studyPlans.map((item) => item.id)).toEqual(['c']);
  });
});
