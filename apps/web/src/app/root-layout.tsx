import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation, useRouteError, useSearchParams } from 'react-router';
import { ErrorFallback } from '../components/feedback/error-fallback';
import { ConsentOverlays } from '../features/consents/components/consent-overlays';
import { usePendingTakeUploads } from '../features/recording/use-pending-take-uploads';
import { paths } from '../config/paths';
import { isSafeInternalPath } from '../lib/redirects';
import { reloadKindOf } from '../lib/reload-policy';
import { useGlobalKeyboard, useInactivity, useLogFlushing, useNetworkToasts } from './global-handlers';

/** Wraps every route: the redirect parameter, the global overlays and handlers. */
export function RootLayout() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  useNetworkToasts();
  useLogFlushing();
  useInactivity();
  useGlobalKeyboard();
  usePendingTakeUploads();
  const redirect = params.get('redirect');
  // A redirect parameter navigates instead of rendering (spec section 2).
  if (redirect && isSafeInternalPath(redirect)) return <Navigate to={redirect} replace />;
  return (
    <>
      <a className="skip-link" href="#main">
        {t('nav.skipToMain')}
      </a>
      <Outlet />
      <ConsentOverlays />
    </>
  );
}

/** The router's error element: the fallback screen for render and chunk-load errors. */
export function RouteErrorFallback() {
  const error = useRouteError();
  const { pathname, search } = useLocation();
  // A screen that cannot load while offline is a lost connection, not a fault.
  if (!navigator.onLine && reloadKindOf(error) === 'chunk_load' && pathname !== paths.noInternet.path) {
    // A module that failed to load stays failed in this page: coming back needs a fresh load.
    return (
      <Navigate
        to={paths.noInternet.getHref(`${pathname}${search}`)}
        replace
        state={{ reloadOnReturn: true }}
      />
    );
  }
  return <ErrorFallback error={error} />;
}
