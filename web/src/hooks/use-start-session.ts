import type { CreateSessionBody } from '@tutorloop/shared';
import { useState } from 'react';
import { http } from '../services';
import { navigate } from './use-route';

/** Creates a session and opens its page; `busy` and `error` are for the button that started it. */
export function useStartSession() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function start(body: CreateSessionBody) {
    setBusy(true);
    setError(null);
    const result = await http.createSession(body);
    setBusy(false);
    if (result.ok) navigate({ name: 'session', sessionId: result.value.sessionId });
    else setError(result.error.message);
  }

  return { start, busy, error };
}
