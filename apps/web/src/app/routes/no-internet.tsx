import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { CardPage } from '../../components/layout/page';
import { appConfig } from '../../config/app-config';
import { paths } from '../../config/paths';
import { isSafeInternalPath } from '../../lib/redirects';

const PROBE_INTERVAL_MS = 3000;

/** No response from the server: wait for the connection, then go back to where the user was. */
export function NoInternetRoute() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [online, setOnline] = useState(() => navigator.onLine);
  const target = params.get('online_redirect');
  const back = target && isSafeInternalPath(target) ? target : paths.launcher.getHref();
  const { state } = useLocation() as { state: { reloadOnReturn?: boolean } | null };
  const reloadOnReturn = state?.reloadOnReturn === true;

  const goBack = useCallback(() => {
    if (reloadOnReturn) window.location.replace(back);
    else void navigate(back, { replace: true });
  }, [back, navigate, reloadOnReturn]);

  useEffect(() => {
    // Go back as soon as the server answers again (any HTTP answer): checked every few
    // seconds, and at once when the device reports a connection.
    let timer: number | undefined;
    let stopped = false;
    const isStopped = () => stopped;
    const probe = async () => {
      window.clearTimeout(timer);
      const answered = await fetch('/health', { cache: 'no-store' }).then(
        () => true,
        () => false,
      );
      if (isStopped()) return;
      if (answered && navigator.onLine) goBack();
      else timer = window.setTimeout(() => void probe(), PROBE_INTERVAL_MS);
    };
    const handleOnline = () => {
      setOnline(true);
      void probe();
    };
    const handleOffline = () => {
      setOnline(false);
    };
    timer = window.setTimeout(() => void probe(), PROBE_INTERVAL_MS);
    window.addEventListener('online', handleOnline);
    window.addEventListener('offline', handleOffline);
    return () => {
      stopped = true;
      window.clearTimeout(timer);
      window.removeEventListener('online', handleOnline);
      window.removeEventListener('offline', handleOffline);
    };
  }, [goBack]);

  return (
    <CardPage title={t('noInternet.title')}>
      <Typography sx={{ mb: 2 }}>{t('noInternet.body', { product: appConfig.productName })}</Typography>
      <Typography role="status" sx={{ mb: 3, fontWeight: 600 }}>
        {online ? t('noInternet.browserOnline') : t('noInternet.browserOffline')}
      </Typography>
      <Button variant="contained" size="large" onClick={goBack}>
        {t('common.tryAgain')}
      </Button>
    </CardPage>
  );
}
