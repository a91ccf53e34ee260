import { createThemeStore, themeStorageKey } from './store/theme-store';

/**
 * The app's theme store, wired to the browser. Importing this module applies the remembered
 * choice to `<html>` (public/theme.js did it already before the first paint; this keeps it
 * right if that script could not run).
 */
function safeLocalStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export const themeStore = createThemeStore(safeLocalStorage(), document.documentElement);

window.addEventListener('storage', (event) => {
  if (event.key === null || event.key === themeStorageKey) themeStore.getState().syncFromStorage();
});
