import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { EmptyState } from '../../../components/feedback/empty-state';
import { CardPage } from '../../../components/layout/page';
import { paths } from '../../../config/paths';

/** Return address of a social sign-in; social providers are not connected in this deployment. */
export function SocialCallbackRoute() {
  const { t } = useTranslation();
  const { provider = '' } = useParams();
  const known = provider === 'google' || provider === 'facebook';
  return (
    <CardPage title={t('external.socialTitle')}>
      <EmptyState
        title={
          known
            ? t('external.socialUnavailable', { provider: provider === 'google' ? 'Google' : 'Facebook' })
            : t('external.unknownProvider')
        }
        body={t('external.socialBody')}
        actions={
          <Button component={RouterLink} to={paths.login.getHref()} variant="contained">
            {t('auth.loginWithEmail')}
          </Button>
        }
      />
    </CardPage>
  );
}

/** Sign-in with the external voice vendor, whose voices arrive with the text-to-speech work. */
export function AcapellaRoute() {
  const { t } = useTranslation();
  return (
    <CardPage title={t('external.acapellaTitle')}>
      <EmptyState
        title={t('external.acapellaUnavailable')}
        body={t('external.acapellaBody')}
        actions={
          <Button component={RouterLink} to={paths.settingsAudio.getHref()} variant="contained">
            {t('settings.audio.title')}
          </Button>
        }
      />
    </CardPage>
  );
}
