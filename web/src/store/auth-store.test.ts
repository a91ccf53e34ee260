import type { AuthResponse } from '@tutorloop/shared';
import { describe, expect, it } from 'vitest';
import { authStorageKey, createAuthStore, syncAuthFromStorage, type StorageLike } from './auth-store';

function memoryStorage(initial: Record<string, string> = {}): StorageLike & { data: Map<string, string> } {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => void data.set(key, value),
    removeItem: (key) => void data.delete(key),
  };
}

const auth: AuthResponse = {
  token: 'jwt.abc.def',
  learner: { id: 'l1', username: 'ada', createdAt: '2025-01-01T00:00:00.000Z', desiredRetention: 0.9 },
};

describe('auth store', () => {
  it('starts signed out with empty storage', () => {
    const store = createAuthStore(memoryStorage());
    expect(store.getState().token).toBeNull();
    expect(store.getState().learner).toBeNull();
  });

  it('persists a sign-in and restores it in a new store (a reload)', () => {
    const storage = memoryStorage();
    createAuthStore(storage).getState().signIn(auth);
    expect(JSON.parse(storage.data.get(authStorageKey) ?? 'null')).toEqual({ token: auth.token, learner: auth.learner });
    const reloaded = createAuthStore(storage);
    expect(reloaded.getState().token).toBe(auth.token);
    expect(reloaded.getState().learner).toEqual(auth.learner);
  });

  it('removes the entry on sign out', () => {
    const storage = memoryStorage();
    const store = createAuthStore(storage);
    store.getState().signIn(auth);
    store.getState().signOut();
    expect(storage.data.has(authStorageKey)).toBe(false);
    expect(store.getState().token).toBeNull();
  });

  it('treats a corrupt entry as signed out', () => {
    const store = createAuthStore(memoryStorage({ [authStorageKey]: '{not json' }));
    expect(store.getState().token).toBeNull();
  });

  it('works without storage (private mode)', () => {
    const store = createAuthStore(null);
    store.getState().signIn(auth);
    expect(store.getState().token).toBe(auth.token);
  });

  it('follows a sign-out made in another tab', () => {
    const storage = memoryStorage();
    const store = createAuthStore(storage);
    store.getState().signIn(auth);
    storage.data.delete(authStorageKey);
    syncAuthFromStorage(store, storage);
    expect(store.getState().token).toBeNull();
  });
});
