import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { CardPage } from '../../../components/layout/page';
import { paths } from '../../../config/paths';
import { ResetPasswordFlow } from '../../../features/auth/components/reset-password-flow';
import { sessionStore } from '../../../lib/session';
import { useStore } from '../../../lib/store';

export function ResetPasswordRoute() {
  const { t } = useTranslation();
  const { status } = useStore(sessionStore);
  return (
    <CardPage title={t('reset.title')} intro={t('reset.intro')}>
      <ResetPasswordFlow />
      {status !== 'signed_in' && (
        <Box sx={{ mt: 3 }}>
          <Link component={RouterLink} to={paths.login.getHref()} sx={{ display: 'inline-block', py: 1 }}>
            {t('reset.backToLogin')}
          </Link>
        </Box>
      )}
    </CardPage>
  );
}
