import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import './theme';
import { App } from './app';
import { prefetchDashboard } from './hooks/use-dashboard';
import { authStore, recallSetsStore, routerStore } from './services';
import './styles.css';

// Opening signed in on the home page: its requests go out before the first render, so the
// dashboard waits for the answers only, not for React's first render as well (issue 27 item 5).
if (authStore.getState().token && routerStore.getState().route.name === 'home') {
  prefetchDashboard();
  void recallSetsStore.getState().load();
}

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

const root = createRoot(container);
// As a transition the first render yields to the browser every few milliseconds instead of
// holding the main thread for its whole length (a slow phone's blocking time, issue 27 item 5).
startTransition(() => {
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
