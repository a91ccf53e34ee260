import { useAuth } from '../hooks/use-auth';
import { useHealth } from '../hooks/use-health';
import { signOut } from '../services';

const offlineExplanation = 'No API key is set: a local deterministic tutor is answering';

/** App name, the offline-tutor badge, and who is signed in. */
export function Header() {
  const learner = useAuth((state) => state.learner);
  const token = useAuth((state) => state.token);
  const tutor = useHealth((state) => state.tutor);

  return (
    <header className="app-header">
      <div className="app-header-inner">
        <a className="brand" href={token ? '#/sets' : '#/login'}>
          <svg className="brand-mark" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
            <circle cx="16" cy="16" r="12" fill="none" stroke="currentColor" strokeWidth="4" />
            <circle cx="16" cy="16" r="4" fill="currentColor" />
          </svg>
          tutorloop
        </a>
        {tutor === 'offline' ? (
          <>
            <span
              className="badge badge-offline"
              title={offlineExplanation}
              tabIndex={0}
              aria-describedby="offline-badge-explanation"
              data-testid="offline-badge"
            >
              Offline tutor
            </span>
            <span id="offline-badge-explanation" hidden>
              {offlineExplanation}
            </span>
          </>
        ) : null}
        <div className="header-spacer" />
        {token ? (
          <div className="header-account">
            {learner ? (
              <span className="username">
                <span className="visually-hidden">Signed in as </span>
                <span data-testid="username">{learner.username}</span>
              </span>
            ) : null}
            <button type="button" className="button subtle" onClick={signOut}>
              Sign out
            </button>
          </div>
        ) : null}
      </div>
    </header>
  );
}
