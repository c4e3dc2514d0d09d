import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { AppProvider } from './app/provider';
import { createAppRouter } from './app/router';
import { registerServiceWorker } from './lib/service-worker';
import { browserState } from './lib/browser-state';
import { bootstrapSession, watchOtherTabs } from './lib/session';
import { extractSourceTracking } from './lib/source-tracking';

// Source tracking leaves the address before the router reads it, and waits for the sign-up.
const { tracking, cleanedHref } = extractSourceTracking(window.location.href, document.referrer);
if (tracking) {
  browserState.set('sourceTracking', { ...browserState.get('sourceTracking'), ...tracking });
  window.history.replaceState(window.history.state, '', cleanedHref);
}

const router = createAppRouter();
void bootstrapSession();
watchOtherTabs();
registerServiceWorker();

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');
createRoot(container).render(
  <StrictMode>
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>
  </StrictMode>,
);
