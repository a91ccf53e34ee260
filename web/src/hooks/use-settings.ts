import { useStore } from 'zustand';
import { settingsStore } from '../services';
import type { SettingsState } from '../store/settings-store';

/** The settings form's save status. */
export function useSettings<T>(selector: (state: SettingsState) => T): T {
  return useStore(settingsStore, selector);
}
