import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, Outlet, useLocation, useParams } from 'react-router';
import { EmptyState } from '../../components/feedback/empty-state';
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

type Subpage =
  | 'personal_vocabulary'
  | 'shortcut_phrases'
  | 'import_samples'
  | 'tutorial'
  | 'training'
  | 'notes'
  | 'shortcut_item'
  | 'shortcut_add'
  | 'vocabulary_item'
  | 'vocabulary_add'
  | 'import_manual'
  | 'import_apple'
  | 'import_relate';

function subpageOf(pathname: string, hasId: boolean): Subpage {
  const [, , section = '', rest = ''] = pathname.split('/');
  switch (section) {
    case 'personal_vocabulary':
      if (rest === 'add') return 'vocabulary_add';
      return hasId ? 'vocabulary_item' : 'personal_vocabulary';
    case 'shortcut_phrases':
      if (rest === 'add') return 'shortcut_add';
      return hasId ? 'shortcut_item' : 'shortcut_phrases';
    case 'import_samples':
      if (rest === 'manual') return 'import_manual';
      if (rest === 'apple') return 'import_apple';
      if (rest === 'relate') return 'import_relate';
      return 'import_samples';
    case 'tutorial':
      return 'tutorial';
    case 'training':
      return 'training';
    default:
      return 'notes';
  }
}

/** Where a screen of a later feature goes back to. */
function parentOf(subpage: Subpage): string {
  if (subpage.startsWith('shortcut')) return paths.recordShortcutPhrases.getHref();
  if (subpage.startsWith('vocabulary')) return paths.recordPersonalVocabulary.getHref();
  if (subpage.startsWith('import_')) return paths.recordImportSamples.getHref();
  return paths.record.getHref();
}

/**
 * The recording screens whose features come with the recording work: each is a real page
 * that says what it will do, that it has nothing yet, and where to go meanwhile.
 */
export function RecordSubpageRoute() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { id } = useParams();
  const subpage = subpageOf(pathname, id !== undefined);
  const isTab = ['personal_vocabulary', 'shortcut_phrases', 'import_samples'].includes(subpage);
  const content = (
    <EmptyState
      title={t(`record.pages.${subpage}.title`)}
      body={t(`record.pages.${subpage}.body`)}
      actions={
        <Button
          component={RouterLink}
          to={isTab ? paths.record.getHref() : parentOf(subpage)}
          variant="outlined"
          size="large"
        >
          {t('common.back')}
        </Button>
      }
    />
  );
  if (isTab) return content;
  return <Page title={t(`record.pages.${subpage}.title`)}>{content}</Page>;
}
