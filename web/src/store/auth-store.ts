import type { AuthResponse, Learner } from '@tutorloop/shared';
import { createStore } from 'zustand/vanilla';

/** The subset of `localStorage` the auth store needs; tests pass an in-memory one. */
export type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export const authStorageKey = 'tutorloop.auth';

export interface AuthState {
  token: string | null;
  learner: Learner | null;
  /** Stores the token and learner after register or login. */
  signIn(auth: AuthResponse): void;
  /** Forgets the token (sign out, or the server said 401). */
  signOut(): void;
  /** Refreshes the learner (e.g. from `GET /api/me`). */
  setLearner(learner: Learner): void;
}

type PersistedAuth = Pick<AuthState, 'token' | 'learner'>;

function readPersisted(storage: StorageLike | null): PersistedAuth {
  try {
    const raw = storage?.getItem(authStorageKey);
    if (!raw) return { token: null, learner: null };
    const parsed = JSON.parse(raw) as Partial<PersistedAuth> | null;
    if (typeof parsed?.token !== 'string' || !parsed.token) return { token: null, learner: null };
    return { token: parsed.token, learner: parsed.learner ?? null };
  } catch {
    // A corrupt entry (or storage disabled) just means "signed out".
    return { token: null, learner: null };
  }
}

function writePersisted(storage: StorageLike | null, value: PersistedAuth) {
  try {
    if (value.token) storage?.setItem(authStorageKey, JSON.stringify(value));
    else storage?.removeItem(authStorageKey);
  } catch {
    // Private mode or a full quota: the session still works until the tab closes.
  }
}

/** The signed-in learner and their token, persisted in `storage` (localStorage in the app). */
export function createAuthStore(storage: StorageLike | null) {
  const store = createStore<AuthState>()((set) => ({
    ...readPersisted(storage),
    signIn: (auth) => set({ token: auth.token, learner: auth.learner }),
    signOut: () => set({ token: null, learner: null }),
    setLearner: (learner) => set({ learner }),
  }));
  store.subscribe((state, previous) => {
    if (state.token !== previous.token || state.learner !== previous.learner) {
      writePersisted(storage, { token: state.token, learner: state.learner });
    }
  });
  return store;
}

export type AuthStore = ReturnType<typeof createAuthStore>;

/** Applies a change made in another tab (the `storage` event), so signing out signs out everywhere. */
export function syncAuthFromStorage(store: AuthStore, storage: StorageLike | null) {
  const persisted = readPersisted(storage);
  const current = store.getState();
  if (persisted.token !== current.token) store.setState(persisted);
}
