import { useQuery } from '@tanstack/react-query';
import { useSnackbar } from 'notistack';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation, useSearchParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import { LoadingScreen } from '../components/feedback/loading-screen';
import { paths } from '../config/paths';
import { profileStatusQueryOptions } from '../features/profile/api/profile-status.api';
import { subscriptionInfoQueryOptions } from '../features/subscription/api/subscription.api';
import { logger } from '../lib/api';
import { normalizeError } from '../lib/api-error';
import { browserState } from '../lib/browser-state';
import { afterLoginTarget, isAllowedWhenLocked } from '../lib/redirects';
import { sessionStore } from '../lib/session';
import { useStore } from '../lib/store';

/** Private routes: signed-out users go to the login page, which brings them back afterwards. */
export function RequireAuth({ loginPath = paths.login.path }: { loginPath?: string }) {
  const { status, loggedOut } = useStore(sessionStore);
  const location = useLocation();
  if (status === 'init') return <LoadingScreen />;
  if (status === 'signed_out') {
    const back = `${location.pathname}${location.search}`;
    const returnTo = back === '/' || loggedOut ? null : back;
    const to = loginPath === paths.login.path ? paths.login.getHref(returnTo) : loginPath;
    return <Navigate to={to} replace />;
  }
  return <Outlet />;
}

/** /login is for signed-out users only: a signed-in user goes where a login would have sent them. */
export function GuestOnly() {
  const { status } = useStore(sessionStore);
  const [params] = useSearchParams();
  if (status === 'init') return <LoadingScreen />;
  if (status === 'signed_in') {
    return (
      <Navigate
        to={afterLoginTarget(params.get('login_redirect'), browserState.get('recognitionMode'))}
        replace
      />
    );
  }
  return <Outlet />;
}

function RedirectWithWarning({ to, warning }: { to: string; warning: string }) {
  const { enqueueSnackbar } = useSnackbar();
  useEffect(() => {
    enqueueSnackbar(warning, { variant: 'warning', preventDuplicate: true });
  }, [enqueueSnackbar, warning]);
  return <Navigate to={to} replace />;
}

/** An incomplete mandatory profile sends the user to set it up first. */
export function ProfileGuard() {
  const { t } = useTranslation();
  const status = useQuery(profileStatusQueryOptions());
  if (status.isPending) return <LoadingScreen />;
  if (status.isError) {
    return (
      <Container component="main" maxWidth="sm" sx={{ py: 6 }}>
        <Alert
          severity="error"
          action={
            <Button color="inherit" onClick={() => void status.refetch()}>
              {t('common.tryAgain')}
            </Button>
          }
        >
          {t('errors.withMessage', { message: normalizeError(status.error).message })}
        </Alert>
      </Container>
    );
  }
  if (!status.data.is_mandatory_filled) {
    return <RedirectWithWarning to={paths.signUp.getHref()} warning={t('profile.setupFirst')} />;
  }
  return <Outlet />;
}

/** A locked subscription opens only the launcher, the menu and the subscription page. */
export function SubscriptionGuard() {
  const { pathname } = useLocation();
  const info = useQuery(subscriptionInfoQueryOptions());
  useEffect(() => {
    if (info.isError) logger.error(info.error, { during: 'subscription_info' });
  }, [info.isError, info.error]);
  if (info.isPending) return <LoadingScreen />;
  if (info.data?.is_locked && !isAllowedWhenLocked(pathname)) {
    return <Navigate to={paths.noSubscription.getHref()} replace />;
  }
  return <Outlet />;
}
