import { useStore } from 'zustand';
import type { ThemeState } from '../store/theme-store';
import { themeStore } from '../theme';

/** The learner's theme choice (System, Light or Dark). */
export function useTheme<T>(selector: (state: ThemeState) => T): T {
  return useStore(themeStore, selector);
}
