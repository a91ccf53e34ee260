import { describe, expect, it } from 'vitest';
import { createRouterStore, parseRoute, routePath, type HashLocation, type Route } from './router-store';

describe('parseRoute', () => {
  it.each<[string, Route]>([
    ['', { name: 'home' }],
    ['#/', { name: 'home' }],
    ['#/home', { name: 'home' }],
    ['#/home/x', { name: 'not-found', path: '/home/x' }],
    ['#/login', { name: 'login' }],
    ['#/sets', { name: 'sets' }],
    ['#/sets/new', { name: 'set-new' }],
    ['#/sets/from-document', { name: 'set-from-document' }],
    ['#/sets/rs_1/edit', { name: 'set-edit', recallSetId: 'rs_1' }],
    ['#/import', { name: 'import' }],
    ['#/sessions/sess%201', { name: 'session', sessionId: 'sess 1' }],
    ['#/sessions/abc?x=1', { name: 'session', sessionId: 'abc' }],
    ['#/nowhere', { name: 'not-found', path: '/nowhere' }],
    ['#/sets/rs_1', { name: 'set-detail', recallSetId: 'rs_1' }],
    ['#/sets/rs_1/schedule', { name: 'not-found', path: '/sets/rs_1/schedule' }],
    ['#/assessments', { name: 'assessments' }],
    ['#/settings', { name: 'settings' }],
    ['#/settings/extra', { name: 'not-found', path: '/settings/extra' }],
    ['#/study-plans', { name: 'plans' }],
    ['#/study-plans/new', { name: 'plan-new' }],
    ['#/study-plans/import', { name: 'plan-import' }],
    ['#/study-plans/fractions-basics', { name: 'plan-detail', studyPlanId: 'fractions-basics' }],
    ['#/study-plans/sp_1/edit', { name: 'plan-edit', studyPlanId: 'sp_1' }],
    ['#/study-plans/sp_1/steps', { name: 'not-found', path: '/study-plans/sp_1/steps' }],
  ])('%s', (hash, route) => {
    expect(parseRoute(hash)).toEqual(route);
  });

  it('round-trips every route through routePath', () => {
    const routes: Route[] = [
      { name: 'login' },
      { name: 'home' },
      { name: 'sets' },
      { name: 'set-new' },
      { name: 'set-from-document' },
      { name: 'set-edit', recallSetId: 'a/b' },
      { name: 'set-detail', recallSetId: 'a/b' },
      { name: 'import' },
      { name: 'assessments' },
      { name: 'settings' },
      { name: 'plans' },
      { name: 'plan-new' },
      { name: 'plan-import' },
      { name: 'plan-detail', studyPlanId: 'a/b' },
      { name: 'plan-edit', studyPlanId: 'a/b' },
      { name: 'session', sessionId: 's-1' },
    ];
    for (const route of routes) expect(parseRoute(`#${routePath(route)}`)).toEqual(route);
  });
});

describe('router store', () => {
  function fakeWindow(hash: string) {
    const listeners: Array<() => void> = [];
    const target: HashLocation & { fire(): void } = {
      location: {
        hash,
        replace(url: string) {
          this.hash = url;
        },
      },
      addEventListener: (_type, listener) => void listeners.push(listener),
      fire: () => listeners.forEach((listener) => listener()),
    };
    return target;
  }

  it('follows hash changes and navigates', () => {
    const target = fakeWindow('#/sessions/s1');
    const store = createRouterStore(target);
    expect(store.getState().route).toEqual({ name: 'session', sessionId: 's1' });
    store.getState().navigate({ name: 'import' });
    expect(target.location.hash).toBe('#/import');
    expect(store.getState().route).toEqual({ name: 'import' });
    target.location.hash = '#/sets/new';
    target.fire();
    expect(store.getState().route).toEqual({ name: 'set-new' });
  });

  it('asks a leave guard before leaving, by navigate or by a changed hash, and puts the hash back when told to stay', () => {
    const target = fakeWindow('#/sets/from-document');
    const store = createRouterStore(target);
    const asked: Route[] = [];
    let allow = false;
    store.getState().setLeaveGuard((to) => {
      asked.push(to);
      return allow;
    });
    store.getState().navigate({ name: 'sets' });
    expect(store.getState().route).toEqual({ name: 'set-from-document' });
    expect(target.location.hash).toBe('#/sets/from-document');
    target.location.hash = '#/home';
    target.fire();
    expect(store.getState().route).toEqual({ name: 'set-from-document' });
    expect(target.location.hash).toBe('#/sets/from-document');
    // Signing out is never held back.
    store.getState().navigate({ name: 'login' });
    expect(store.getState().route).toEqual({ name: 'login' });
    expect(asked).toEqual([{ name: 'sets' }, { name: 'home' }]);
    allow = true;
    store.getState().navigate({ name: 'sets' });
    expect(store.getState().route).toEqual({ name: 'sets' });
    store.getState().setLeaveGuard(null);
  });
});
