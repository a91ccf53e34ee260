import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { StorageLike } from './auth-store';
import { createThemeStore, resolvedScheme, themeChoices, themeStorageKey, type ThemeChoice, type ThemeRoot } from './theme-store';

function memoryStorage(initial: Record<string, string> = {}): StorageLike & { values: Map<string, string> } {
  const values = new Map(Object.entries(initial));
  return {
    values,
    getItem: (key) => values.get(key) ?? null,
    setItem: (key, value) => void values.set(key, value),
    removeItem: (key) => void values.delete(key),
  };
}

/** `<html>`'s attributes, as the theme leaves them. */
function fakeRoot(): ThemeRoot & { attributes: Map<string, string> } {
  const attributes = new Map<string, string>();
  return {
    attributes,
    setAttribute: (name, value) => void attributes.set(name, value),
    removeAttribute: (name) => void attributes.delete(name),
  };
}

/** Runs public/theme.js (the pre-paint script) against `storage` and returns `<html>`'s attributes. */
function runPrePaintScript(storage: StorageLike): Map<string, string> {
  const root = fakeRoot();
  const source = readFileSync(new URL('../../public/theme.js', import.meta.url), 'utf8');
  runInNewContext(source, { window: { localStorage: storage }, document: { documentElement: root } });
  return root.attributes;
}

const expectedAttribute: Record<ThemeChoice, string | undefined> = { system: undefined, light: 'light', dark: 'dark' };

describe('theme choice', () => {
  it.each(themeChoices)('%s sets the attribute on <html> at once and is remembered for the next visit', (choice) => {
    const storage = memoryStorage();
    const root = fakeRoot();
    const store = createThemeStore(storage, root);
    // Start from the opposite explicit choice, so every choice visibly changes something.
    store.getState().choose(choice === 'dark' ? 'light' : 'dark');
    store.getState().choose(choice);
    expect(store.getState().choice).toBe(choice);
    expect(root.attributes.get('data-theme')).toBe(expectedAttribute[choice]);

    // The next visit: the store and the pre-paint script both apply the remembered choice.
    const nextRoot = fakeRoot();
    expect(createThemeStore(storage, nextRoot).getState().choice).toBe(choice);
    expect(nextRoot.attributes.get('data-theme')).toBe(expectedAttribute[choice]);
    expect(runPrePaintScript(storage).get('data-theme')).toBe(expectedAttribute[choice]);
  });

  it('System is the default, and an unknown stored value counts as System', () => {
    for (const stored of [undefined, 'sepia', '']) {
      const storage = memoryStorage(stored === undefined ? {} : { [themeStorageKey]: stored });
      const root = fakeRoot();
      expect(createThemeStore(storage, root).getState().choice).toBe('system');
      expect(root.attributes.has('data-theme')).toBe(false);
      expect(runPrePaintScript(storage).has('data-theme')).toBe(false);
    }
  });

  it('still applies the choice when storage refuses to write, and follows another tab', () => {
    const broken: StorageLike = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => undefined,
    };
    const root = fakeRoot();
    const store = createThemeStore(broken, root);
    store.getState().choose('dark');
    expect(root.attributes.get('data-theme')).toBe('dark');

    const shared = memoryStorage();
    const otherRoot = fakeRoot();
    const other = createThemeStore(shared, otherRoot);
    shared.setItem(themeStorageKey, 'light');
    other.getState().syncFromStorage();
    expect(other.getState().choice).toBe('light');
    expect(otherRoot.attributes.get('data-theme')).toBe('light');
  });

  it('an explicit Light or Dark wins over the device for what paints itself (CodeMirror); System follows the device', () => {
    const painted = themeChoices.map((choice) => [choice, resolvedScheme(choice, false), resolvedScheme(choice, true)]);
    expect(painted).toEqual([
      ['system', 'light', 'dark'],
      ['light', 'light', 'light'],
      ['dark', 'dark', 'dark'],
    ]);
  });

  it('the stylesheet gives an explicit Dark and the system dark scheme the same palette', () => {
    const css = readFileSync(new URL('../styles.css', import.meta.url), 'utf8');
    const explicit = /:root\[data-theme='dark'\] \{([^}]*)\}/.exec(css)?.[1];
    const system = /@media \(prefers-color-scheme: dark\) \{\s*:root:not\(\[data-theme='light'\]\) \{([^}]*)\}/.exec(css)?.[1];
    const declarations = (block: string | undefined) => block?.split(';').map((line) => line.trim()).filter(Boolean);
    expect(declarations(explicit)).toContain('--bg: #14191b');
    expect(declarations(system)).toEqual(declarations(explicit));
  });
});
