import { Credentials } from '@tutorloop/shared';
import { useId, useRef, useState, type FormEvent } from 'react';
import { useDocumentTitle } from '../hooks/use-document-title';
import { navigate, useRoute } from '../hooks/use-route';
import { authStore, http } from '../services';
import { fieldErrorsFromIssues, fieldErrorsFromServer, firstErrorField, formField, type FieldErrors } from '../store/form-errors';

type Mode = 'sign-in' | 'sign-up';
type Field = 'username' | 'password';

/** The username last signed in on this browser: a returning learner is greeted as one. */
const returningKey = 'tutorloop.returning';

function readReturning(): string | null {
  try {
    return window.localStorage.getItem(returningKey);
  } catch {
    return null;
  }
}

function rememberReturning(username: string) {
  try {
    window.localStorage.setItem(returningKey, username);
  } catch {
    // Private mode: the next visit is greeted as a first one, nothing else changes.
  }
}

const fieldOf = (path: ReadonlyArray<PropertyKey>): Field | null =>
  path[0] === 'username' || path[0] === 'password' ? path[0] : null;

/**
 * Sign in, or create an account. It speaks to who is there (issue 18): a browser that has
 * signed in before is greeted back and offered sign-in with the name filled in; a first visit
 * is told what tutorloop is and offered an account. Problems show under their field, in
 * plain words, the shared schema checking before the server does.
 */
export function AuthPage() {
  const route = useRoute();
  const [returning] = useState(readReturning);
  const [mode, setMode] = useState<Mode>(returning || route.name === 'login' ? 'sign-in' : 'sign-up');
  const [username, setUsername] = useState(returning ?? '');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const usernameRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const ids = { usernameHint: useId(), passwordHint: useId(), usernameError: useId(), passwordError: useId() };
  const signingUp = mode === 'sign-up';
  useDocumentTitle(signingUp ? 'Sign up' : 'Sign in');

  function show(next: FieldErrors) {
    setErrors(next);
    // The first field to fix gets the focus; its message is read with it (aria-describedby).
    const first = firstErrorField(next, ['username', 'password']);
    if (first === 'username') usernameRef.current?.focus();
    else if (first === 'password') passwordRef.current?.focus();
  }

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const credentials = { username: username.trim(), password };
    if (signingUp) {
      const checked = Credentials.safeParse(credentials);
      if (!checked.success) {
        show(fieldErrorsFromIssues(checked.error.issues, fieldOf));
        return;
      }
    } else if (!credentials.username || !credentials.password) {
      show({
        ...(!credentials.username && { username: 'Enter your username.' }),
        ...(!credentials.password && { password: 'Enter your password.' }),
      });
      return;
    }
    setBusy(true);
    setErrors({});
    const result = signingUp ? await http.register(credentials) : await http.login(credentials);
    setBusy(false);
    if (!result.ok) {
      if (result.error.code === 'conflict') show({ username: 'That username is taken. Pick another, or sign in if it is yours.' });
      else show(fieldErrorsFromServer(result.error, fieldOf));
      return;
    }
    rememberReturning(result.value.learner.username);
    authStore.getState().signIn(result.value);
    // Both land on the dashboard, which greets a learner with nothing yet with the first-run
    // welcome; a returning one goes where they were going (a deep link such as a session page
    // after the token expired).
    if (signingUp) navigate({ name: 'home' }, { replace: true });
    else if (route.name === 'login') navigate({ name: 'home' }, { replace: true });
  }

  function toggleMode() {
    setMode(signingUp ? 'sign-in' : 'sign-up');
    setErrors({});
  }

  function describedBy(...ids: Array<string | false | undefined>) {
    const list = ids.filter(Boolean).join(' ');
    return list || undefined;
  }

  const heading = signingUp ? 'Create your account' : returning ? 'Welcome back' : 'Sign in to tutorloop';

  return (
    <div className="auth-page">
      <form className="card auth-card" onSubmit={handleSubmit} noValidate aria-labelledby="auth-title">
        <h1 id="auth-title" tabIndex={-1}>
          {heading}
        </h1>
        {signingUp ? (
          <p className="muted" data-testid="auth-intro">
            tutorloop is a tutor that asks you about what you want to remember, in conversation, until you recall it in
            your own words. It then schedules each point’s next review just before you would forget it.
          </p>
        ) : returning ? (
          <p className="muted" data-testid="auth-intro">
            Sign in to pick up where you left off, {returning}.
          </p>
        ) : (
          <p className="muted" data-testid="auth-intro">
            Sign in with the username and password you chose.
          </p>
        )}

        <div className="field">
          <label htmlFor="auth-username">Username</label>
          <input
            id="auth-username"
            ref={usernameRef}
            className="input"
            name="username"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            value={username}
            onChange={(event) => setUsername(event.target.value)}
            aria-invalid={errors.username ? true : undefined}
            aria-describedby={describedBy(errors.username && ids.usernameError, signingUp && ids.usernameHint)}
            required
          />
          {errors.username ? (
            <p id={ids.usernameError} className="field-error" data-testid="username-error">
              {errors.username}
            </p>
          ) : null}
          {signingUp ? (
            <p id={ids.usernameHint} className="field-hint">
              3–32 characters: letters, digits, “_”, “.” or “-”.
            </p>
          ) : null}
        </div>

        <div className="field">
          <label htmlFor="auth-password">Password</label>
          <input
            id="auth-password"
            ref={passwordRef}
            className="input"
            name="password"
            type="password"
            autoComplete={signingUp ? 'new-password' : 'current-password'}
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            aria-invalid={errors.password ? true : undefined}
            aria-describedby={describedBy(errors.password && ids.passwordError, signingUp && !errors.password && ids.passwordHint)}
            required
          />
          {errors.password ? (
            <p id={ids.passwordError} className="field-error" data-testid="password-error">
              {errors.password}
            </p>
          ) : null}
          {signingUp && !errors.password ? (
            <p id={ids.passwordHint} className="field-hint">
              At least 8 characters.
            </p>
          ) : null}
        </div>

        {errors[formField] ? (
          <p className="form-error" role="alert" data-testid="auth-error">
            {errors[formField]}
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
