import type { Learner, UpdateLearnerBody } from '@tutorloop/shared';
import { describe, expect, it } from 'vitest';
import type { ApiResult } from '../api/http-client';
import { createAuthStore } from './auth-store';
import { createSettingsStore, describeRetention, intervalFactor } from './settings-store';

const learner: Learner = { id: 'l1', username: 'ada', createdAt: '2025-01-01T00:00:00.000Z', desiredRetention: 0.9 };

function setup(respond: (body: UpdateLearnerBody) => Promise<ApiResult<Learner>>) {
  const authStore = createAuthStore(null);
  authStore.getState().signIn({ token: 'tok', learner });
  const requests: UpdateLearnerBody[] = [];
  const store = createSettingsStore(
    {
      updateMe: (body) => {
        requests.push(body);
        return respond(body);
      },
    },
    authStore,
  );
  return { store, authStore, requests };
}

describe('settings store', () => {
  it('saves the retention and updates the signed-in learner', async () => {
    const { store, authStore, requests } = setup(async (body) => ({ ok: true, value: { ...learner, ...body } }));
    const saving = store.getState().save(0.85);
    expect(store.getState().status).toBe('saving');
    await saving;
    expect(requests).toEqual([{ desiredRetention: 0.85 }]);
    expect(store.getState()).toMatchObject({ status: 'saved', error: null });
    expect(authStore.getState().learner).toEqual({ ...learner, desiredRetention: 0.85 });
  });

  it('keeps the server message and the old learner when saving fails', async () => {
    const { store, authStore } = setup(async () => ({
      ok: false,
      error: { status: 400, code: 'invalid_payload', message: 'desiredRetention: Too big: expected number to be <=0.99' },
    }));
    await store.getState().save(0.95);
    expect(store.getState()).toMatchObject({
      status: 'error',
      error: 'desiredRetention: Too big: expected number to be <=0.99',
    });
    expect(authStore.getState().learner).toEqual(learner);
  });

  it('reports a network failure', async () => {
    const { store } = setup(async () => ({
      ok: false,
      error: { status: 0, code: 'network', message: 'Could not reach the server. Check your connection and try again.' },
    }));
    await store.getState().save(0.9);
    expect(store.getState().error).toBe('Could not reach the server. Check your connection and try again.');
  });

  it('refuses a value out of range without a request, and rounds float noise', async () => {
    const { store, requests } = setup(async (body) => ({ ok: true, value: { ...learner, ...body } }));
    await store.getState().save(0.5);
    expect(store.getState()).toMatchObject({ status: 'error', error: 'Desired retention must be between 70% and 99%.' });
    await store.getState().save(1);
    expect(requests).toEqual([]);
    await store.getState().save(0.7 + 1e-12);
    expect(requests).toEqual([{ desiredRetention: 0.7 }]);
  });

  it('ignores a second save while one is in flight, and clears the status on edit', async () => {
    let finish: (result: ApiResult<Learner>) => void = () => {};
    const { store, requests } = setup(() => new Promise((resolve) => (finish = resolve)));
    const first = store.getState().save(0.8);
    await store.getState().save(0.81);
    expect(requests).toEqual([{ desiredRetention: 0.8 }]);
    store.getState().clearStatus();
    expect(store.getState().status).toBe('saving');
    finish({ ok: true, value: { ...learner, desiredRetention: 0.8 } });
    await first;
    store.getState().clearStatus();
    expect(store.getState()).toMatchObject({ status: 'idle', error: null });
  });
});

describe('retention explanation', () => {
  it('relates the review load to 90% with the FSRS forgetting curve', () => {
    expect(intervalFactor(0.9)).toBeCloseTo(1, 10);
    expect(intervalFactor(0.95)).toBeCloseTo(0.4025, 3);
    expect(intervalFactor(0.8)).toBeCloseTo(3.316, 2);
    expect(describeRetention(0.9)).toBe('At 90%, reviews come at the recommended pace.');
    expect(describeRetention(0.95)).toBe('At 95%, reviews come about 2.5× as often as at 90%.');
    expect(describeRetention(0.99)).toBe('At 99%, reviews come about 15× as often as at 90%.');
    expect(describeRetention(0.8)).toBe('At 80%, reviews come about 3.3× less often than at 90%, and you forget more.');
  });

  it('uses the learner’s own decay once their parameters are optimised (a flatter curve: retention costs less)', () => {
    // R^(-1/0.5) − 1 at 0.8 and 0.9: 0.5625 / 0.2346 ≈ 2.40.
    expect(intervalFactor(0.8, 0.5)).toBeCloseTo(2.398, 2);
    expect(describeRetention(0.8, 0.5)).toBe('At 80%, reviews come about 2.4× less often than at 90%, and you forget more.');
  });
});
