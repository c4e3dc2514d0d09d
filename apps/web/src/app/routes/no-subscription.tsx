import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { CardPage } from '../../components/layout/page';
import { appConfig } from '../../config/app-config';
import { paths } from '../../config/paths';
import { sessionStore } from '../../lib/session';
import { useStore } from '../../lib/store';

/** Shown instead of the app while the subscription is locked. */
export function NoSubscriptionRoute() {
  const { t } = useTranslation();
  const { status } = useStore(sessionStore);
  return (
    <CardPage title={t('noSubscription.title')}>
      <Typography sx={{ mb: 2 }}>{t('noSubscription.body', { product: appConfig.productName })}</Typography>
      <Typography sx={{ mb: 3 }}>{t('noSubscription.help', { email: appConfig.supportEmail })}</Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
        {status === 'signed_in' ? (
          <>
            <Button component={RouterLink} to={paths.subscription.getHref()} variant="contained" size="large">
              {t('subscription.title')}
            </Button>
            <Button component={RouterLink} to={paths.menu.getHref()} variant="outlined" size="large">
              {t('nav.menu')}
            </Button>
          </>
        ) : (
          <Button component={RouterLink} to={paths.login.getHref()} variant="contained" size="large">
            {t('auth.login')}
          </Button>
        )}
      </Stack>
    </CardPage>
  );
}
