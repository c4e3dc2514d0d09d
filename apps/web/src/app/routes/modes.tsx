import Button from '@mui/material/Button';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { EmptyState } from '../../components/feedback/empty-state';
import { LoadingScreen } from '../../components/feedback/loading-screen';
import { Page } from '../../components/layout/page';
import { paths } from '../../config/paths';
import { modelsQueryOptions } from '../../features/models/api/models.api';
import { isModelBuilt } from '../../lib/redirects';
import { useRememberTab } from '../../lib/use-remember-tab';

function ModePage({ mode }: { mode: 'speak' | 'dictate' }) {
  const { t } = useTranslation();
  const models = useQuery(modelsQueryOptions());
  useRememberTab();
  const other = mode === 'speak' ? paths.dictate : paths.speak;
  const actions = (
    <>
      <Button component={RouterLink} to={paths.modePicker.getHref()} variant="outlined">
        {t('modes.change')}
      </Button>
      <Button component={RouterLink} to={other.getHref()} variant="outlined">
        {mode === 'speak' ? t('modes.dictate.title') : t('modes.speak.title')}
      </Button>
    </>
  );
  return (
    <Page title={t(`modes.${mode}.title`)} intro={t(`modes.${mode}.intro`)} actions={actions}>
      {models.isPending ? (
        <LoadingScreen />
      ) : models.data && isModelBuilt(models.data) ? (
        <EmptyState title={t('modes.modelReadyTitle')} body={t('modes.modelReadyBody')} />
      ) : (
        <EmptyState
          title={t('modes.noModelTitle')}
          body={t('modes.noModelBody')}
          actions={
            <>
              <Button component={RouterLink} to={paths.record.getHref()} variant="contained" size="large">
                {t('record.start')}
              </Button>
              <Button
                component={RouterLink}
                to={paths.recordTutorial.getHref()}
                variant="outlined"
                size="large"
              >
                {t('record.tutorial')}
              </Button>
            </>
          }
        />
      )}
    </Page>
  );
}

/** Conversation mode: the recognised phrase shown large and spoken aloud. */
export function SpeakRoute() {
  return <ModePage mode="speak" />;
}

/** Dictation mode: recognised speech written into notes. */
export function DictateRoute() {
  return <ModePage mode="dictate" />;
}
