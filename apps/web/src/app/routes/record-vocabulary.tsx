import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { PhraseSource } from '@parla/contract';
import { useQuery } from '@tanstack/react-query';
import { useSnackbar } from 'notistack';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { ConfirmDialog } from '../../components/feedback/confirm-dialog';
import { EmptyState } from '../../components/feedback/empty-state';
import { LoadingScreen } from '../../components/feedback/loading-screen';
import { Page } from '../../components/layout/page';
import { appConfig } from '../../config/app-config';
import { paths } from '../../config/paths';
import {
  phraseQueryOptions,
  phrasesQueryOptions,
  scenariosQueryOptions,
  useAddCustomPhrase,
  useDeletePhrase,
  useEditPhrase,
} from '../../features/phrases/api/phrases.api';
import { lostTakesAskedFor } from '../../features/phrases/components/takes-progress';
import { VocabularyForm } from '../../features/phrases/components/vocabulary-form';
import { VocabularyList } from '../../features/phrases/components/vocabulary-list';
import { TAKES_PER_PHRASE } from '../../features/recording/training-queue';
import { normalizeError } from '../../lib/api-error';

const product = appConfig.productName;
const listHref = paths.recordPersonalVocabulary.getHref();
/** Personal vocabulary is the user's own phrases: added by them, or catalogue phrases they reworded. */
const OWN_SOURCES: PhraseSource[] = ['custom', 'edited'];

/** /record/personal_vocabulary (a tab of /record): the user's own words, names and sentences. */
export function VocabularyRoute() {
  const { t } = useTranslation();
  const phrases = useQuery(phrasesQueryOptions({ sources: OWN_SOURCES }));
  const addButton = (
    <Button component={RouterLink} to={paths.vocabularyItemAdd.getHref()} variant="contained" size="large">
      {t('vocabulary.tab.add')}
    </Button>
  );

  return (
    <Box component="section" aria-labelledby="vocabulary-heading">
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' }, mb: 3 }}
      >
        <Box sx={{ maxWidth: '65ch' }}>
          <Typography id="vocabulary-heading" variant="h2" sx={{ mb: 1 }}>
            {t('vocabulary.tab.title')}
          </Typography>
          <Typography color="text.secondary">{t('vocabulary.tab.intro')}</Typography>
        </Box>
        {/* Once the list is known: with none yet, the empty state offers it instead. */}
        {phrases.isSuccess && phrases.data.length > 0 && addButton}
      </Stack>
      {phrases.isPending ? (
        <LinearProgress aria-label={t('common.loading')} />
      ) : phrases.isError ? (
        <Alert severity="error">{t('vocabulary.tab.loadFailed')}</Alert>
      ) : phrases.data.length === 0 ? (
        <EmptyState
          title={t('vocabulary.tab.emptyTitle')}
          body={t('vocabulary.tab.emptyBody', { product })}
          actions={addButton}
        />
      ) : (
        <VocabularyList
          phrases={phrases.data}
          hrefOf={(id) => paths.vocabularyItem.getHref(id)}
          recordHrefOf={(id) => paths.recordTraining.getHref(id)}
          takesPerPhrase={TAKES_PER_PHRASE}
        />
      )}
    </Box>
  );
}

/** Why a phrase's page has nothing to show: it is gone, or it could not be loaded. */
function PhraseUnavailable({ error }: { error: unknown }) {
  const { t } = useTranslation();
  if (normalizeError(error).status !== 404) {
    return <Alert severity="error">{t('vocabulary.item.loadFailed')}</Alert>;
  }
  return (
    <EmptyState
      title={t('vocabulary.item.notFoundTitle')}
      body={t('vocabulary.item.notFoundBody')}
      actions={
        <Button component={RouterLink} to={listHref} variant="contained" size="large">
          {t('vocabulary.item.back')}
        </Button>
      }
    />
  );
}

const backToList = (label: string) => (
  <Button component={RouterLink} to={listHref} variant="outlined">
    {label}
  </Button>
);

/** /record/personal_vocabulary/{id}: the words, how many takes are recorded; record, edit, delete. */
export function VocabularyItemRoute() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { enqueueSnackbar } = useSnackbar();
  const remove = useDeletePhrase();
  const [confirming, setConfirming] = useState(false);
  // Once deleted it is not fetched again while the page closes.
  const phrase = useQuery({ ...phraseQueryOptions(id), enabled: remove.isIdle || remove.isError });

  const handleDelete = () => {
    remove.mutate(id, {
      onSuccess: () => {
        enqueueSnackbar(t('vocabulary.deleteDialog.deleted'), { variant: 'success' });
        void navigate(listHref, { replace: true });
      },
    });
  };
  const handleCancel = () => {
    setConfirming(false);
    remove.reset();
  };

  if (!phrase.data) {
    return (
      <Page title={t('vocabulary.item.title')} width="sm" actions={backToList(t('vocabulary.item.back'))}>
        {phrase.isError ? <PhraseUnavailable error={phrase.error} /> : <LoadingScreen />}
      </Page>
    );
  }
  const { text, takes } = phrase.data;
  const lost = lostTakesAskedFor(phrase.data, TAKES_PER_PHRASE);
  return (
    <Page title={t('vocabulary.item.title')} width="sm" actions={backToList(t('vocabulary.item.back'))}>
      <Paper variant="outlined" sx={{ p: { xs: 2.5, sm: 4 } }}>
        <Box component="dl" sx={{ m: 0, overflowWrap: 'anywhere' }}>
          <Typography component="dt" color="text.secondary">
            {t('vocabulary.item.text')}
          </Typography>
          <Typography component="dd" sx={{ m: 0, mb: 3, fontSize: '1.75rem', fontWeight: 700 }}>
            {text}
          </Typography>
          <Typography component="dt" color="text.secondary">
            {t('vocabulary.item.takes')}
          </Typography>
          <Typography component="dd" sx={{ m: 0, fontSize: '1.25rem' }}>
            {t('vocabulary.item.takesValue', {
              count: Math.min(takes, TAKES_PER_PHRASE),
              total: TAKES_PER_PHRASE,
            })}
          </Typography>
          {/* As in the list: why it asks again. */}
          {lost > 0 && (
            <Typography component="dd" color="text.secondary" sx={{ m: 0, mt: 1 }}>
              {t('recording.lostTakes', { count: lost })}
            </Typography>
          )}
        </Box>
      </Paper>
      <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap', mt: 3 }}>
        <Button component={RouterLink} to={paths.recordTraining.getHref(id)} variant="contained" size="large">
          {takes >= TAKES_PER_PHRASE ? t('vocabulary.item.recordMore') : t('vocabulary.item.record')}
        </Button>
        <Button
          component={RouterLink}
          to={paths.vocabularyItemEdit.getHref(id)}
          variant="outlined"
          size="large"
        >
          {t('vocabulary.item.edit')}
        </Button>
        <Button color="error" variant="outlined" size="large" onClick={() => setConfirming(true)}>
          {t('vocabulary.item.delete')}
        </Button>
      </Box>
      <ConfirmDialog
        open={confirming}
        title={t('vocabulary.deleteDialog.title')}
        body={
          takes > 0
            ? t('vocabulary.deleteDialog.bodyTakes', { text, count: takes })
            : t('vocabulary.deleteDialog.body', { text })
        }
        confirmLabel={t('vocabulary.deleteDialog.confirm')}
        pending={remove.isPending}
        error={
          remove.isError
            ? t('vocabulary.deleteDialog.failed', { message: normalizeError(remove.error).message })
            : null
        }
        onConfirm={handleDelete}
        onCancel={handleCancel}
      />
    </Page>
  );
}

/** /record/personal_vocabulary/add: a phrase of the user's own, in the active scenario. */
export function VocabularyAddRoute() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { enqueueSnackbar } = useSnackbar();
  const scenarios = useQuery(scenariosQueryOptions());
  const add = useAddCustomPhrase();
  const active = scenarios.data?.find((scenario) => scenario.isActive) ?? scenarios.data?.[0];

  return (
    <Page
      title={t('vocabulary.form.addTitle')}
      intro={t('vocabulary.form.addIntro')}
      width="sm"
      actions={backToList(t('vocabulary.item.back'))}
    >
      <VocabularyForm
        submitLabel={t('vocabulary.form.add')}
        cancelHref={listHref}
        ready={active !== undefined}
        note={
          scenarios.isError ? (
            <Alert severity="error">{t('vocabulary.tab.loadFailed')}</Alert>
          ) : active ? (
            <Typography color="text.secondary">
              {t('vocabulary.form.scenario', { scenario: active.name })}
            </Typography>
          ) : null
        }
        onSave={async (text) => {
          if (!active) return;
          await add.mutateAsync({ text, scenario_id: active.scenario_id });
          enqueueSnackbar(t('vocabulary.form.added'), { variant: 'success' });
          await navigate(listHref);
        }}
      />
    </Page>
  );
}

/** /record/personal_vocabulary/{id}/edit: new words for the phrase; its takes stay. */
export function VocabularyEditRoute() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { enqueueSnackbar } = useSnackbar();
  const phrase = useQuery(phraseQueryOptions(id));
  const edit = useEditPhrase();

  return (
    <Page
      title={t('vocabulary.form.editTitle')}
      intro={phrase.data ? t('vocabulary.form.editIntro') : undefined}
      width="sm"
      actions={backToList(t('vocabulary.item.back'))}
    >
      {!phrase.data ? (
        phrase.isError ? (
          <PhraseUnavailable error={phrase.error} />
        ) : (
          <LoadingScreen />
        )
      ) : (
        <VocabularyForm
          key={phrase.data.id}
          initialText={phrase.data.text}
          submitLabel={t('vocabulary.form.save')}
          cancelHref={paths.vocabularyItem.getHref(id)}
          note={
            phrase.data.takes > 0 ? (
              <Alert severity="info">{t('vocabulary.form.keptTakes', { count: phrase.data.takes })}</Alert>
            ) : null
          }
          onSave={async (text) => {
            await edit.mutateAsync({ phrase_id: id, text });
            enqueueSnackbar(t('vocabulary.form.saved'), { variant: 'success' });
            await navigate(listHref);
          }}
        />
      )}
    </Page>
  );
}
