import { useStore } from 'zustand';
import type { Route } from '../store/router-store';
import { routerStore } from '../services';

/** The current route. */
export function useRoute(): Route {
  return useStore(routerStore, (state) => state.route);
}

/** Goes to a route; `replace` leaves no history entry. */
export function navigate(route: Route, options?: { replace?: boolean }) {
  routerStore.getState().navigate(route, options);
}
