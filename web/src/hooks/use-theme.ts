import { useStore } from 'zustand';
import { resolvedScheme, type ThemeState } from '../store/theme-store';
import { themeStore } from '../theme';
import { useMediaQuery } from './use-media-query';

/** The learner's theme choice (System, Light or Dark). */
export function useTheme<T>(selector: (state: ThemeState) => T): T {
  return useStore(themeStore, selector);
}

/** The scheme the page is painted in: Light or Dark from Settings, else the device's. */
export function useColorScheme(): 'light' | 'dark' {
  const choice = useTheme((state) => state.choice);
  const systemPrefersDark = useMediaQuery('(prefers-color-scheme: dark)');
  return resolvedScheme(choice, systemPrefersDark);
}
