import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { CardPage } from '../../components/layout/page';
import { paths } from '../../config/paths';

export function NotFoundRoute() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const home = pathname.startsWith(paths.webex.path) ? paths.webex.getHref() : paths.launcher.getHref();
  return (
    <CardPage title={t('notFound.title')}>
      <Typography sx={{ mb: 3 }}>{t('notFound.body')}</Typography>
      <Button component={RouterLink} to={home} variant="contained" size="large">
        {t('notFound.home')}
      </Button>
    </CardPage>
  );
}
