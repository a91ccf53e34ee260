import { useEffect, useId, useRef, useState } from 'react';
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
    case 'set-from-document':
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

/**
 * App name, the main links, the tutor's badge (offline, or the model provider), and who is
 * signed in. On a narrow screen the links and the account fold into a menu behind one button
 * (issue 25: every page within two taps on a phone); wide, the same elements sit in one row.
 */
export function Header() {
  const route = useRoute();
  const current = sectionOf(route);
  const learner = useAuth((state) => state.learner);
  const token = useAuth((state) => state.token);
  const tutor = useHealth((state) => state.tutor);
  const menu = useMenu(JSON.stringify(route));

  return (
    <header className="app-header">
      <div className="app-header-inner" ref={menu.rootRef}>
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
          <>
            {/* Shown on narrow screens only (CSS); wide, the menu's contents are always in view. */}
            <button
              ref={menu.buttonRef}
              type="button"
              className="button subtle menu-button"
              aria-expanded={menu.open}
              aria-controls={menu.id}
              data-testid="menu-button"
              onClick={menu.toggle}
            >
              <svg className="menu-icon" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
                <path d="M3 5h14M3 10h14M3 15h14" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
              </svg>
              Menu
            </button>
            <div id={menu.id} ref={menu.panelRef} className="header-menu" data-open={menu.open ? 'true' : undefined}>
              <nav className="main-nav" aria-label="Main">
                <ul>
                  {links.map((link) => (
                    <li key={link.section}>
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
              <div className="header-spacer" />
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
            </div>
          </>
        ) : null}
      </div>
    </header>
  );
}

/**
 * The narrow screen's menu, a disclosure: opening moves the focus to its first link; Escape
 * closes it and returns the focus to the button; a tap outside the header, the focus leaving
 * it, or a new route (a link was followed) closes it.
 */
function useMenu(routeKey: string) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);

  useEffect(() => setOpen(false), [routeKey]);

  useEffect(() => {
    if (!open) return undefined;
    panelRef.current?.querySelector<HTMLElement>('a, button')?.focus();
    function handleKeyDown(event: KeyboardEvent) {
      if (event.key !== 'Escape') return;
      setOpen(false);
      buttonRef.current?.focus();
    }
    function handlePointerDown(event: PointerEvent) {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    }
    function handleFocusIn(event: FocusEvent) {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    }
    document.addEventListener('keydown', handleKeyDown);
    document.addEventListener('pointerdown', handlePointerDown);
    document.addEventListener('focusin', handleFocusIn);
    return () => {
      document.removeEventListener('keydown', handleKeyDown);
      document.removeEventListener('pointerdown', handlePointerDown);
      document.removeEventListener('focusin', handleFocusIn);
    };
  }, [open]);

  return { open, id, rootRef, buttonRef, panelRef, toggle: () => setOpen((value) => !value) };
}
