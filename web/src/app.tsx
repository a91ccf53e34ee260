import { lazy, Suspense, useEffect, useRef } from 'react';
import { Header } from './components/header';
import { useAuth } from './hooks/use-auth';
import { useDocumentTitle } from './hooks/use-document-title';
import { navigate, useRoute } from './hooks/use-route';
import { AuthPage } from './pages/auth-page';
import { RecallSetPage } from './pages/recall-set-page';
import { RecallSetsPage } from './pages/recall-sets-page';
import { HomePage } from './pages/home-page';
import { WelcomePage } from './pages/welcome-page';
import { authStore, http } from './services';
import type { Route } from './store/router-store';

// The session page carries marked, DOMPurify and the widgets: loaded when first needed.
const SessionPage = lazy(() => import('./pages/session-page'));
// Study plans are one section among several: their pages load when first opened.
const StudyPlansPage = lazy(() => import('./pages/study-plans-page'));
const ReflectPage = lazy(() => import('./pages/reflect-page'));
const StudyPlanPage = lazy(() => import('./pages/study-plan-page'));
const StudyPlanEditorPage = lazy(() => import('./pages/study-plan-editor-page'));
// Pages a learner opens now and then (not the landing, home, sets or a set) load when first
// opened, so the first paint waits for less script (issue 27 item 5).
const AssessmentsPage = lazy(() => import('./pages/assessments-page').then((module) => ({ default: module.AssessmentsPage })));
const ImportPage = lazy(() => import('./pages/import-page').then((module) => ({ default: module.ImportPage })));
const RecallSetEditorPage = lazy(() => import('./pages/recall-set-editor-page').then((module) => ({ default: module.RecallSetEditorPage })));
const SettingsPage = lazy(() => import('./pages/settings-page').then((module) => ({ default: module.SettingsPage })));
const AccountPage = lazy(() => import('./pages/account-page').then((module) => ({ default: module.AccountPage })));
// Reading a document is occasional: its page loads when first opened.
const DocumentImportPage = lazy(() => import('./pages/document-import-page'));

function assertNever(value: never): never {
  throw new Error(`Unhandled route: ${JSON.stringify(value)}`);
}

function Page({ route }: { route: Route }) {
  switch (route.name) {
    case 'login':
      // Signed in already: the effect in App moves on to the dashboard.
      return null;
    case 'home':
      return <HomePage />;
    case 'welcome':
      return <WelcomePage />;
    case 'sets':
      return <RecallSetsPage />;
    case 'set-new':
      return <RecallSetEditorPage key="new" />;
    case 'set-edit':
      return <RecallSetEditorPage key={route.recallSetId} recallSetId={route.recallSetId} />;
    case 'set-detail':
      return <RecallSetPage key={route.recallSetId} recallSetId={route.recallSetId} />;
    case 'import':
      return <ImportPage />;
    case 'set-from-document':
      return <DocumentImportPage />;
    case 'assessments':
      return <AssessmentsPage />;
    case 'settings':
      return <SettingsPage />;
    case 'account':
      return <AccountPage />;
    case 'plans':
      return <StudyPlansPage />;
    case 'reflect':
      return <ReflectPage />;
    case 'plan-new':
      return <StudyPlanEditorPage key="new" mode={{ kind: 'new' }} />;
    case 'plan-import':
      return <StudyPlanEditorPage key="import" mode={{ kind: 'import' }} />;
    case 'plan-edit':
      return <StudyPlanEditorPage key={`edit-${route.studyPlanId}`} mode={{ kind: 'edit', studyPlanId: route.studyPlanId }} />;
    case 'plan-detail':
      return <StudyPlanPage key={route.studyPlanId} studyPlanId={route.studyPlanId} />;
    case 'session':
      return <SessionPage key={route.sessionId} sessionId={route.sessionId} />;
    case 'not-found':
      return <NotFoundPage path={route.path} />;
    default:
      return assertNever(route);
  }
}

/** The shell: header, and the page for the current route (the sign-in page when signed out). */
export function App() {
  const route = useRoute();
  const token = useAuth((state) => state.token);
  const mainRef = useRef<HTMLElement>(null);
  const firstRender = useRef(true);

  // Check a remembered token once per sign-in: a dead one signs out (401), a live one
  // refreshes the learner shown in the header.
  useEffect(() => {
    if (!token) return;
    void http.me().then((result) => {
      if (result.ok) authStore.getState().setLearner(result.value.learner);
    });
  }, [token]);

  useEffect(() => {
    if (token && route.name === 'login') navigate({ name: 'home' }, { replace: true });
  }, [token, route.name]);

  // Move focus to the new page's heading, so keyboard and screen-reader users start there.
  const routeKey = `${token ? 'in' : 'out'}:${JSON.stringify(route)}`;
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    const heading = mainRef.current?.querySelector<HTMLElement>('h1');
    heading?.focus({ preventScroll: true });
    window.scrollTo(0, 0);
  }, [routeKey]);

  return (
    <div className={token ? 'app signed-in' : 'app'}>
      <a
        className="skip-link"
        href="#main"
        onClick={(event) => {
          event.preventDefault();
          mainRef.current?.focus();
        }}
      >
        Skip to content
      </a>
      <Header />
      <main id="main" ref={mainRef} tabIndex={-1} className="app-main">
        <Suspense
          fallback={
            <p className="page muted" role="status">
              Loading…
            </p>
          }
        >
          {/* Signed out, any route shows the sign-in form; after signing in the same URL renders. */}
          {token ? <Page route={route} /> : <AuthPage />}
        </Suspense>
      </main>
    </div>
  );
}

/** An unknown route: its own title, so the tab does not keep the last page's (issue 25). */
function NotFoundPage({ path }: { path: string }) {
  useDocumentTitle('Page not found');
  return (
    <div className="page narrow">
      <h1 tabIndex={-1}>Page not found</h1>
      <p className="muted">Nothing lives at “{path}”.</p>
      <button type="button" className="button primary" onClick={() => navigate({ name: 'home' })}>
        Back to home
      </button>
    </div>
  );
}
