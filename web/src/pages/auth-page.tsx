import { useId, useState, type FormEvent } from 'react';
import { useDocumentTitle } from '../hooks/use-document-title';
import { navigate, useRoute } from '../hooks/use-route';
import { authStore, http } from '../services';

type Mode = 'sign-in' | 'sign-up';

/** One form for both: sign in, or create an account. Validation messages come from the server. */
export function AuthPage() {
  const [mode, setMode] = useState<Mode>('sign-in');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const route = useRoute();
  const usernameHintId = useId();
  const passwordHintId = useId();
  const signingUp = mode === 'sign-up';
  useDocumentTitle(signingUp ? 'Sign up' : 'Sign in');

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    const credentials = { username: username.trim(), password };
    const result = signingUp ? await http.register(credentials) : await http.login(credentials);
    setBusy(false);
    if (!result.ok) {
      setError(result.error.message);
      return;
    }
    authStore.getState().signIn(result.value);
    // Signed in from a deep link (e.g. a session page after the token expired): stay there.
    if (route.name === 'login') navigate({ name: 'sets' }, { replace: true });
  }

  function toggleMode() {
    setMode(signingUp ? 'sign-in' : 'sign-up');
    setError(null);
  }

  return (
    <div className="auth-page">
      <form className="card auth-card" onSubmit={handleSubmit} noValidate aria-labelledby="auth-title">
        <h1 id="auth-title" tabIndex={-1}>
          {signingUp ? 'Create your account' : 'Welcome back'}
        </h1>
        <p className="muted">
          {signingUp
            ? 'Pick a username and a password to start reviewing what you know.'
            : 'Sign in to continue reviewing your recall sets.'}
        </p>

        <div className="field">
          <label htmlFor="auth-username">Username</label>
          <input
            id="auth-username"
            className="input"
            name="username"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            value={username}
            onChange={(event) => setUsername(event.target.value)}
            aria-describedby={signingUp ? usernameHintId : undefined}
            required
          />
          {signingUp ? (
            <p id={usernameHintId} className="field-hint">
              3–32 characters: letters, digits, “_”, “.” or “-”.
            </p>
          ) : null}
        </div>

        <div className="field">
          <label htmlFor="auth-password">Password</label>
          <input
            id="auth-password"
            className="input"
            name="password"
            type="password"
            autoComplete={signingUp ? 'new-password' : 'current-password'}
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            aria-describedby={signingUp ? passwordHintId : undefined}
            required
          />
          {signingUp ? (
            <p id={passwordHintId} className="field-hint">
              At least 8 characters.
            </p>
          ) : null}
        </div>

        {error ? (
          <p className="form-error" role="alert" data-testid="auth-error">
            {error}
          </p>
        ) : null}

        <button type="submit" className="button primary wide" disabled={busy} aria-busy={busy}>
          {signingUp ? 'Sign up' : 'Sign in'}
        </button>

        <p className="auth-switch">
          {signingUp ? 'Already have an account?' : 'New here?'}{' '}
          <button type="button" className="link-button" onClick={toggleMode}>
            {signingUp ? 'Use an existing account' : 'Create an account'}
          </button>
        </p>
      </form>
    </div>
  );
}
