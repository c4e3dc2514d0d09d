import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { CardPage } from '../../components/layout/page';
import { appConfig } from '../../config/app-config';
import { paths } from '../../config/paths';
import { isSafeInternalPath } from '../../lib/redirects';

/** No response from the server: wait for the connection, then go back to where the user was. */
export function NoInternetRoute() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [online, setOnline] = useState(() => navigator.onLine);
  const target = params.get('online_redirect');
  const back = target && isSafeInternalPath(target) ? target : paths.launcher.getHref();

  useEffect(() => {
    const handleOnline = () => {
      setOnline(true);
      void navigate(back, { replace: true });
    };
    const handleOffline = () => {
      setOnline(false);
    };
    window.addEventListener('online', handleOnline);
    window.addEventListener('offline', handleOffline);
    return () => {
      window.removeEventListener('online', handleOnline);
      window.removeEventListener('offline', handleOffline);
    };
  }, [back, navigate]);

  return (
    <CardPage title={t('noInternet.title')}>
      <Typography sx={{ mb: 2 }}>{t('noInternet.body', { product: appConfig.productName })}</Typography>
      <Typography role="status" sx={{ mb: 3, fontWeight: 600 }}>
        {online ? t('noInternet.browserOnline') : t('noInternet.browserOffline')}
      </Typography>
      <Button variant="contained" size="large" onClick={() => void navigate(back, { replace: true })}>
        {t('common.tryAgain')}
      </Button>
    </CardPage>
  );
}
