import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { Page } from '../../components/layout/page';
import { paths } from '../../config/paths';
import { ImportForm } from '../../features/imports/components/import-form';
import { ImportInstructions } from '../../features/imports/components/import-instructions';
import { ImportSourceChoices } from '../../features/imports/components/import-source-choices';
import type { ImportSource } from '../../features/imports/import-files';
import { scenariosQueryOptions } from '../../features/phrases/api/phrases.api';

const HREFS: Record<ImportSource, string> = {
  manual: paths.importManual.getHref(),
  apple: paths.importApple.getHref(),
  relate: paths.importRelate.getHref(),
};

/** /record/import_samples (a tab of /record): what importing does and where recordings can come from. */
export function ImportSamplesRoute() {
  const { t } = useTranslation();
  return (
    <Box component="section" aria-labelledby="import-heading">
      <Typography id="import-heading" variant="h2" sx={{ mb: 1 }}>
        {t('imports.tab.title')}
      </Typography>
      <Typography sx={{ mb: 3, maxWidth: '70ch' }}>{t('imports.tab.intro')}</Typography>
      <Typography id="import-sources-heading" variant="h3" component="h2" sx={{ mb: 2 }}>
        {t('imports.tab.choose')}
      </Typography>
      <ImportSourceChoices hrefOf={(source) => HREFS[source]} />
    </Box>
  );
}

/** One import screen: the format of its source, the files, the import and its result. */
function ImportSourcePage({ source }: { source: ImportSource }) {
  const { t } = useTranslation();
  const scenarios = useQuery(scenariosQueryOptions());
  const active = scenarios.data?.find((scenario) => scenario.isActive) ?? scenarios.data?.[0];
  return (
    <Page
      title={t(`imports.pages.${source}.title`)}
      intro={t(`imports.pages.${source}.intro`)}
      actions={
        <Button component={RouterLink} to={paths.recordImportSamples.getHref()} variant="outlined">
          {t('imports.back')}
        </Button>
      }
    >
      <ImportInstructions source={source} />
      {active && (
        <Alert severity="info" sx={{ mb: 3 }}>
          {t('imports.scenario', { scenario: active.name })}
        </Alert>
      )}
      <ImportForm
        source={source}
        resultActions={
          <Button component={RouterLink} to={paths.record.getHref()} variant="contained" size="large">
            {t('imports.result.seePhrases')}
          </Button>
        }
      />
    </Page>
  );
}

/** /record/import_samples/manual: one's own audio files with what is said in each. */
export function ImportManualRoute() {
  return <ImportSourcePage source="manual" />;
}

/** /record/import_samples/apple: Voice Memos named by what is said in them. */
export function ImportAppleRoute() {
  return <ImportSourcePage source="apple" />;
}

/** /record/import_samples/relate: recordings exported from Relate, with their transcripts. */
export function ImportRelateRoute() {
  return <ImportSourcePage source="relate" />;
}
