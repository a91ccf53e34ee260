import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import { connectSession, type SessionConnection } from '../api/session-connection';
import { authStore, http, sessionStore } from '../services';
import type { SessionStoreState } from '../store/session-store';

/** Reads the session view with a selector. */
export function useSessionView<T>(selector: (state: SessionStoreState) => T): T {
  return useStore(sessionStore, selector);
}

/** Opens the session's socket while the component is mounted; null until it exists. */
export function useSessionConnection(sessionId: string): SessionConnection | null {
  const [connection, setConnection] = useState<SessionConnection | null>(null);
  useEffect(() => {
    const token = authStore.getState().token;
    if (!token) return undefined;
    const current = connectSession({ sessionId, token, store: sessionStore, http, origin: window.location.origin });
    setConnection(current);
    return () => {
      current.close();
      setConnection(null);
    };
  }, [sessionId]);
  return connection;
}
