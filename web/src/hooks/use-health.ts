import { useEffect } from 'react';
import { useStore } from 'zustand';
import type { HealthState } from '../store/health-store';
import { healthStore } from '../services';

/** Server health (offline tutor or not); fetched once per page load. */
export function useHealth<T>(selector: (state: HealthState) => T): T {
  useEffect(() => {
    if (healthStore.getState().status === 'unknown') void healthStore.getState().load();
  }, []);
  return useStore(healthStore, selector);
}
