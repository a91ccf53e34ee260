import { createHttpClient } from './api/http-client';
import { createAssessmentsStore } from './store/assessments-store';
import { createAuthStore, syncAuthFromStorage } from './store/auth-store';
import { createHealthStore } from './store/health-store';
import { createRecallSetScheduleStore } from './store/recall-set-schedule-store';
import { createRecallSetsStore } from './store/recall-sets-store';
import { createRouterStore } from './store/router-store';
import { createSessionStore } from './store/session-store';
import { createSchedulerStore } from './store/scheduler-store';
import { createSettingsStore } from './store/settings-store';
import { createStudyPlansStore } from './store/study-plans-store';

/**
 * The composition root: the app's single instances of each store and client, wired to the
 * browser. Everything else receives them (or reads them through the hooks).
 */
function safeLocalStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

const storage = safeLocalStorage();

export const authStore = createAuthStore(storage);
export const routerStore = createRouterStore(window);

/** Drops the token and shows the sign-in page. */
export function signOut() {
  authStore.getState().signOut();
  routerStore.getState().navigate({ name: 'login' });
}

export const http = createHttpClient({
  getToken: () => authStore.getState().token,
  // Any 401 on an authenticated request means the token is dead: sign out (SPEC §6).
  onUnauthorized: signOut,
});

export const healthStore = createHealthStore(http);
export const recallSetsStore = createRecallSetsStore(http);
export const sessionStore = createSessionStore();
export const recallSetScheduleStore = createRecallSetScheduleStore(http);
export const settingsStore = createSettingsStore(http, authStore);
export const schedulerStore = createSchedulerStore(http);
export const assessmentsStore = createAssessmentsStore(http);
export const studyPlansStore = createStudyPlansStore(http);

window.addEventListener('storage', (event) => {
  if (event.key === null || event.key === 'tutorloop.auth') syncAuthFromStorage(authStore, storage);
});
