import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, Navigate, Outlet, useLocation } from 'react-router';
import { Page } from '../../../components/layout/page';
import { paths } from '../../../config/paths';

const TABS = [
  { to: paths.settingsGeneral.getHref(), key: 'general' },
  { to: paths.settingsAudio.getHref(), key: 'audio' },
  { to: paths.settingsProfile.getHref(), key: 'profile' },
  { to: paths.settingsExtra.getHref(), key: 'extra' },
  { to: paths.settingsChangePassword.getHref(), key: 'changePassword' },
] as const;

export function SettingsLayoutRoute() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const current = TABS.find((tab) => tab.to === pathname);
  return (
    <Page title={current ? t(`settings.${current.key}.title`) : t('settings.title')} width="md">
      <Tabs
        value={current?.to ?? false}
        variant="scrollable"
        allowScrollButtonsMobile
        aria-label={t('settings.title')}
        sx={{ mb: 3, borderBottom: 1, borderColor: 'divider' }}
      >
        {TABS.map((tab) => (
          <Tab key={tab.to} value={tab.to} label={t(`settings.${tab.key}.tab`)} component={RouterLink} to={tab.to} />
        ))}
      </Tabs>
      <Outlet />
    </Page>
  );
}

/** /settings and any unknown /settings/* address open the general settings. */
export function SettingsFallbackRoute() {
  return <Navigate to={paths.settingsGeneral.getHref()} replace />;
}
