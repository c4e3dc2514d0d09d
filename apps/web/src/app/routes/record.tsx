import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { SectionNav } from '../../components/layout/section-nav';
import { Page } from '../../components/layout/page';
import { paths } from '../../config/paths';
import { useRememberTab } from '../../lib/use-remember-tab';

const TABS = [
  { to: paths.record.getHref(), key: 'phrases' },
  { to: paths.recordPersonalVocabulary.getHref(), key: 'personal_vocabulary' },
  { to: paths.recordShortcutPhrases.getHref(), key: 'shortcut_phrases' },
  { to: paths.recordImportSamples.getHref(), key: 'import_samples' },
] as const;

/** /record and its child screens: tabs for the four kinds of material the voice profile learns from. */
export function RecordLayoutRoute() {
  const { t } = useTranslation();
  useRememberTab();
  return (
    <Page title={t('record.title')} intro={t('record.intro')} width="lg">
      <SectionNav
        label={t('record.sections')}
        links={TABS.map((tab) => ({ to: tab.to, label: t(`record.tabs.${tab.key}`) }))}
      />
      <Outlet />
    </Page>
  );
}
