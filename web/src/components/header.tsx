import { useAuth } from '../hooks/use-auth';
import { useHealth } from '../hooks/use-health';
import { useRoute } from '../hooks/use-route';
import { ProviderBadge } from './provider-explanation';
import { signOut } from '../services';
import type { Route } from '../store/router-store';

type Section = 'home' | 'sets' | 'plans' | 'assessments' | 'reflect' | 'settings';

/** Which header link the page belongs to (a set's page and editor are under "Recall sets"). */
function sectionOf(route: Route): Section | null {
  switch (route.name) {
    case 'home':
      return 'home';
    case 'sets':
    case 'set-new':
    case 'set-edit':
    case 'set-detail':
    case 'import':
      return 'sets';
    case 'plans':
    case 'plan-new':
    case 'plan-import':
    case 'plan-detail':
    case 'plan-edit':
      return 'plans';
    case 'assessments':
      return 'assessments';
    case 'reflect':
      return 'reflect';
    case 'settings':
      return 'settings';
    case 'login':
    case 'welcome':
    case 'account':
    case 'session':
    case 'not-found':
      return null;
    default:
      return assertNever(route);
  }
}

function assertNever(value: never): never {
  throw new Error(`Unhandled route: ${JSON.stringify(value)}`);
}

const links: Array<{ section: Section; href: string; label: string }> = [
  { section: 'home', href: '#/home', label: 'Home' },
  { section: 'sets', href: '#/sets', label: 'Recall sets' },
  { section: 'plans', href: '#/study-plans', label: 'Study plans' },
  { section: 'assessments', href: '#/assessments', label: 'Assessments' },
  { section: 'reflect', href: '#/reflect', label: 'Reflect' },
  { section: 'settings', href: '#/settings', label: 'Settings' },
];

/** App name, the main links, the tutor's badge (offline, or the model provider), and who is signed in. */
export function Header() {
  const route = useRoute();
  const current = sectionOf(route);
  const learner = useAuth((state) => state.learner);
  const token = useAuth((state) => state.token);
  const tutor = useHealth((state) => state.tutor);

  return (
    <header className="app-header">
      <div className="app-header-inner">
        <a className="brand" href={token ? '#/home' : '#/login'} aria-label={token ? 'tutorloop: home' : undefined}>
          <svg className="brand-mark" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
            <circle cx="16" cy="16" r="12" fill="none" stroke="currentColor" strokeWidth="4" />
            <circle cx="16" cy="16" r="4" fill="currentColor" />
          </svg>
          tutorloop
        </a>
        {/* The tutor's badge opens what it can and cannot do, and how to connect a model (issue 18). */}
        {tutor ? <ProviderBadge tutor={tutor} /> : null}
        {token ? (
          <nav className="main-nav" aria-label="Main">
            <ul>
              {links.map((link) => (
                <li key={link.section} className={link.section === 'home' ? 'nav-item-home' : undefined}>
                  <a
                    href={link.href}
                    className="nav-link"
                    aria-current={current === link.section ? 'page' : undefined}
                  >
                    {link.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
        <div className="header-spacer" />
        {token ? (
          <div className="header-account">
            {learner ? (
              // The username opens the account page (password, sign out everywhere, export, delete).
              <a className="username" href="#/account" title="Your account" aria-current={route.name === 'account' ? 'page' : undefined}>
                <span className="visually-hidden">Signed in as </span>
                <span data-testid="username">{learner.username}</span>
                <span className="visually-hidden">: account</span>
              </a>
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
