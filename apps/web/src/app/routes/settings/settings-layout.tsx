import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router';
import { SectionNav } from '../../../components/layout/section-nav';
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
      <SectionNav
        label={t('settings.title')}
        links={TABS.map((tab) => ({ to: tab.to, label: t(`settings.${tab.key}.tab`) }))}
      />
      <Outlet />
    </Page>
  );
}

/** /settings and any unknown /settings/* address open the general settings. */
export function SettingsFallbackRoute() {
  return <Navigate to={paths.settingsGeneral.getHref()} replace />;
}
