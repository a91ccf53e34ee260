import { createStore } from 'zustand/vanilla';

/** Every screen of the app, as the hash router knows it. */
export type Route =
  | { name: 'login' }
  /** The dashboard (issue 13): what is due, streak, retention, activity, recent sessions, mastery. */
  | { name: 'home' }
  | { name: 'welcome' }
  | { name: 'sets' }
  | { name: 'set-new' }
  | { name: 'set-edit'; recallSetId: string }
  | { name: 'set-detail'; recallSetId: string }
  /** Proposed recall points from a PDF, a file or pasted notes, edited before they become a set (SPEC §4.7). */
  | { name: 'set-from-document' }
  | { name: 'import' }
  | { name: 'assessments' }
  | { name: 'settings' }
  | { name: 'account' }
  /** Thought sessions and surveys (SPEC §4.5): nothing graded. */
  | { name: 'reflect' }
  | { name: 'plans' }
  | { name: 'plan-new' }
  | { name: 'plan-import' }
  | { name: 'plan-detail'; studyPlanId: string }
  | { name: 'plan-edit'; studyPlanId: string }
  | { name: 'session'; sessionId: string }
  | { name: 'not-found'; path: string };

function assertNever(value: never): never {
  throw new Error(`Unhandled route: ${JSON.stringify(value)}`);
}

/**
 * `#/sets/abc/edit` → `{ name: 'set-edit', recallSetId: 'abc' }`; `#/sets/abc` is the set's own page
 * (schedule and forecast). An empty hash is the home dashboard.
 */
export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, '').split('?')[0] ?? '';
  const parts = path.split('/').filter(Boolean).map((part) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;
    }
  });
  const [first, second, third] = parts;
  if (parts.length === 0) return { name: 'home' };
  if (first === 'home' && parts.length === 1) return { name: 'home' };
  if (first === 'login' && parts.length === 1) return { name: 'login' };
  if (first === 'welcome' && parts.length === 1) return { name: 'welcome' };
  if (first === 'import' && parts.length === 1) return { name: 'import' };
  if (first === 'assessments' && parts.length === 1) return { name: 'assessments' };
  if (first === 'settings' && parts.length === 1) return { name: 'settings' };
  if (first === 'account' && parts.length === 1) return { name: 'account' };
  if (first === 'reflect' && parts.length === 1) return { name: 'reflect' };
  if (first === 'sets') {
    if (parts.length === 1) return { name: 'sets' };
    if (second === 'new' && parts.length === 2) return { name: 'set-new' };
    if (second === 'from-document' && parts.length === 2) return { name: 'set-from-document' };
    if (second && parts.length === 2) return { name: 'set-detail', recallSetId: second };
    if (second && third === 'edit' && parts.length === 3) return { name: 'set-edit', recallSetId: second };
  }
  if (first === 'study-plans') {
    if (parts.length === 1) return { name: 'plans' };
    if (second === 'new' && parts.length === 2) return { name: 'plan-new' };
    if (second === 'import' && parts.length === 2) return { name: 'plan-import' };
    if (second && parts.length === 2) return { name: 'plan-detail', studyPlanId: second };
    if (second && third === 'edit' && parts.length === 3) return { name: 'plan-edit', studyPlanId: second };
  }
  if (first === 'sessions' && second && parts.length === 2) return { name: 'session', sessionId: second };
  return { name: 'not-found', path };
}

/** The hash path of a route (without `#`). */
export function routePath(route: Route): string {
  switch (route.name) {
    case 'login':
      return '/login';
    case 'home':
      return '/home';
    case 'welcome':
      return '/welcome';
    case 'sets':
      return '/sets';
    case 'set-new':
      return '/sets/new';
    case 'set-edit':
      return `/sets/${encodeURIComponent(route.recallSetId)}/edit`;
    case 'set-detail':
      return `/sets/${encodeURIComponent(route.recallSetId)}`;
    case 'set-from-document':
      return '/sets/from-document';
    case 'import':
      return '/import';
    case 'assessments':
      return '/assessments';
    case 'settings':
      return '/settings';
    case 'account':
      return '/account';
    case 'reflect':
      return '/reflect';
    case 'plans':
      return '/study-plans';
    case 'plan-new':
      return '/study-plans/new';
    case 'plan-import':
      return '/study-plans/import';
    case 'plan-detail':
      return `/study-plans/${encodeURIComponent(route.studyPlanId)}`;
    case 'plan-edit':
      return `/study-plans/${encodeURIComponent(route.studyPlanId)}/edit`;
    case 'session':
      return `/sessions/${encodeURIComponent(route.sessionId)}`;
    case 'not-found':
      return route.path;
    default:
      return assertNever(route);
  }
}

/** The part of `window` the router needs. */
export interface HashLocation {
  location: { hash: string; replace(url: string): void };
  addEventListener(type: 'hashchange', listener: () => void): void;
}

export interface RouterState {
  route: Route;
  /** Goes to `route`; `replace` leaves no history entry (redirects). */
  navigate(route: Route, options?: { replace?: boolean }): void;
  /**
   * A page with unsaved work asks before the learner leaves it (a link, Back, `navigate`): the
   * guard gets the route being left for and answers false to stay (the page then asks, and
   * navigates itself once the learner agrees). One guard at a time; null removes it.
   */
  setLeaveGuard(guard: ((to: Route) => boolean) | null): void;
}

/** A tiny hash router: the URL hash is the truth, this store mirrors it. */
export function createRouterStore(target: HashLocation) {
  let leaveGuard: ((to: Route) => boolean) | null = null;
  // Signing out is never held back: the token is already gone.
  const mayLeave = (from: Route, to: Route) => !leaveGuard || to.name === 'login' || routePath(to) === routePath(from) || leaveGuard(to);
  const store = createStore<RouterState>()((set, get) => ({
    route: parseRoute(target.location.hash),
    setLeaveGuard: (guard) => {
      leaveGuard = guard;
    },
    navigate: (route, options) => {
      if (!mayLeave(get().route, route)) return;
      const hash = `#${routePath(route)}`;
      if (options?.replace) target.location.replace(hash);
      else target.location.hash = hash;
      // hashchange would tell us too, but a same-hash navigation fires nothing.
      set({ route: parseRoute(hash) });
    },
  }));
  target.addEventListener('hashchange', () => {
    const from = store.getState().route;
    const to = parseRoute(target.location.hash);
    // The URL has already changed (a link, Back): put it back, and stay.
    if (!mayLeave(from, to)) target.location.replace(`#${routePath(from)}`);
    else store.setState({ route: to });
  });
  return store;
}

export type RouterStore = ReturnType<typeof createRouterStore>;
