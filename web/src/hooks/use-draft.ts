import { createContext, createElement, useCallback, useContext, useState, type ReactNode } from 'react';

/**
 * Nothing typed is lost (issue 18): the composer's text and the answer being written in a
 * free-text or code widget are kept in localStorage per session, written on every change (so
 * a crashed tab loses nothing), restored after a reload, and removed once sent.
 */

const prefix = 'tutorloop.draft.';
/** Drafts nobody came back to are dropped after this long. */
const maxAgeMs = 30 * 24 * 60 * 60 * 1000;

interface StoredDraft {
  text: string;
  savedAt: number;
}

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** The storage key of one draft: `tutorloop.draft.<session>.<slot>`. */
export function draftKey(scope: string, slot: string): string {
  return `${prefix}${scope}.${slot}`;
}

export function readDraft(scope: string, slot: string): string | null {
  try {
    const raw = storage()?.getItem(draftKey(scope, slot));
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<StoredDraft> | null;
    return typeof parsed?.text === 'string' ? parsed.text : null;
  } catch {
    return null;
  }
}

function writeDraft(scope: string, slot: string, text: string | null) {
  try {
    const key = draftKey(scope, slot);
    if (text === null) storage()?.removeItem(key);
    else storage()?.setItem(key, JSON.stringify({ text, savedAt: Date.now() } satisfies StoredDraft));
  } catch {
    // A full quota or private mode: the text stays in the page, only the reload safety is gone.
  }
}

/** Removes drafts older than a month (sessions long finished), once per page load. */
function pruneOldDrafts() {
  const store = storage();
  if (!store) return;
  try {
    const now = Date.now();
    const stale: string[] = [];
    for (let index = 0; index < store.length; index++) {
      const key = store.key(index);
      if (!key?.startsWith(prefix)) continue;
      try {
        const savedAt = (JSON.parse(store.getItem(key) ?? 'null') as Partial<StoredDraft> | null)?.savedAt;
        if (typeof savedAt !== 'number' || now - savedAt > maxAgeMs) stale.push(key);
      } catch {
        stale.push(key);
      }
    }
    for (const key of stale) store.removeItem(key);
  } catch {
    // Storage unavailable: nothing to prune.
  }
}

pruneOldDrafts();

const DraftScopeContext = createContext<string | null>(null);

/** Gives every draft below it the session's id, so two sessions never share a draft. */
export function DraftScope({ scope, children }: { scope: string; children: ReactNode }) {
  return createElement(DraftScopeContext.Provider, { value: scope }, children);
}

/**
 * `useState` for text that survives a reload: kept under the enclosing `DraftScope` and
 * `slot` while it differs from `initial`, forgotten when set back to it (after sending, set
 * it to `initial`). Outside a `DraftScope` it is plain state.
 */
export function useDraft(slot: string, initial: string): [string, (text: string) => void] {
  const scope = useContext(DraftScopeContext);
  const [text, setText] = useState(() => (scope === null ? null : readDraft(scope, slot)) ?? initial);
  const update = useCallback(
    (next: string) => {
      setText(next);
      if (scope !== null) writeDraft(scope, slot, next === initial ? null : next);
    },
    [scope, slot, initial],
  );
  return [text, update];
}
