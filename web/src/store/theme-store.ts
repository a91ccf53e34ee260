import { createStore } from 'zustand/vanilla';
import type { StorageLike } from './auth-store';

/** The learner's colour scheme: the system's (`prefers-color-scheme`), or always light or dark. */
export const themeChoices = ['system', 'light', 'dark'] as const;
export type ThemeChoice = (typeof themeChoices)[number];

export const themeLabels: Record<ThemeChoice, string> = { system: 'System', light: 'Light', dark: 'Dark' };

/** Where the choice is remembered; public/theme.js reads the same key before the first paint. */
export const themeStorageKey = 'tutorloop.theme';

/** The part of `<html>` the theme touches (tests pass a recording fake). */
export interface ThemeRoot {
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
}

/** Anything but a known choice (nothing stored, an old or corrupt value) means System. */
export function parseThemeChoice(raw: string | null | undefined): ThemeChoice {
  return themeChoices.find((choice) => choice === raw) ?? 'system';
}

export function readThemeChoice(storage: StorageLike | null): ThemeChoice {
  try {
    return parseThemeChoice(storage?.getItem(themeStorageKey));
  } catch {
    return 'system';
  }
}

/**
 * Sets `data-theme` on `<html>`: `light` or `dark` for an explicit choice; none for System, so
 * the stylesheet's `prefers-color-scheme` query decides (and follows the system as it changes).
 */
export function applyTheme(root: ThemeRoot, choice: ThemeChoice): void {
  if (choice === 'system') root.removeAttribute('data-theme');
  else root.setAttribute('data-theme', choice);
}

/**
 * The scheme the page is painted in: an explicit choice wins, System follows the device. Parts
 * that paint themselves outside the stylesheet (CodeMirror's theme) read this, not the media query.
 */
export function resolvedScheme(choice: ThemeChoice, systemPrefersDark: boolean): 'light' | 'dark' {
  if (choice === 'system') return systemPrefersDark ? 'dark' : 'light';
  return choice;
}

export interface ThemeState {
  choice: ThemeChoice;
  /** Applies the choice at once and remembers it for the next visit. */
  choose(choice: ThemeChoice): void;
  /** Another tab changed the choice (the `storage` event): follow it without writing back. */
  syncFromStorage(): void;
}

/** The theme choice, applied to `root` as soon as the store exists (before React renders). */
export function createThemeStore(storage: StorageLike | null, root: ThemeRoot) {
  const initial = readThemeChoice(storage);
  applyTheme(root, initial);
  return createStore<ThemeState>()((set) => ({
    choice: initial,
    choose: (choice) => {
      applyTheme(root, choice);
      try {
        if (choice === 'system') storage?.removeItem(themeStorageKey);
        else storage?.setItem(themeStorageKey, choice);
      } catch {
        // Storage disabled or full: the choice still holds until the tab closes.
      }
      set({ choice });
    },
    syncFromStorage: () => {
      const choice = readThemeChoice(storage);
      applyTheme(root, choice);
      set({ choice });
    },
  }));
}

export type ThemeStore = ReturnType<typeof createThemeStore>;
