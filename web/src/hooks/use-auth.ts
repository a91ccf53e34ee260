import { useStore } from 'zustand';
import type { AuthState } from '../store/auth-store';
import { authStore } from '../services';

/** Reads the auth store (token, learner) with a selector. */
export function useAuth<T>(selector: (state: AuthState) => T): T {
  return useStore(authStore, selector);
}
