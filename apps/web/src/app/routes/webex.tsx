import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, Navigate } from 'react-router';
import { EmptyState } from '../../components/feedback/empty-state';
import { CardPage, Page } from '../../components/layout/page';
import { paths } from '../../config/paths';
import { LoginForm } from '../../features/auth/components/login-form';
import { sessionStore } from '../../lib/session';
import { useStore } from '../../lib/store';

/** Sign-in inside the meeting tool: goes to /webex once authenticated. */
export function WebexLoginRoute() {
  const { t } = useTranslation();
  const { status } = useStore(sessionStore);
  if (status === 'signed_in') return <Navigate to={paths.webex.getHref()} replace />;
  return (
    <CardPage title={t('webex.loginTitle')} intro={t('webex.loginIntro')}>
      <LoginForm showLinks={false} />
    </CardPage>
  );
}

/** Captions for the meeting: shared from the speaker's recognition. */
export function WebexRoute() {
  const { t } = useTranslation();
  return (
    <Page title={t('webex.title')}>
      <EmptyState
        title={t('webex.emptyTitle')}
        body={t('webex.emptyBody')}
        actions={
          <Button component={RouterLink} to={paths.speak.getHref()} variant="contained">
            {t('modes.speak.title')}
          </Button>
        }
      />
    </Page>
  );
}

/** A meeting guest watching the captions; no account needed. */
export function WebexGuestRoute() {
  const { t } = useTranslation();
  return (
    <Page title={t('webex.guestTitle')}>
      <EmptyState title={t('webex.guestEmptyTitle')} body={t('webex.guestEmptyBody')} />
    </Page>
  );
}
