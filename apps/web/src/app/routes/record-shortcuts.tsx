import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
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
  shortcutPhraseQueryOptions,
  shortcutPhrasesQueryOptions,
  useAddShortcut,
  useDeleteShortcut,
  useEditShortcut,
} from '../../features/shortcuts/api/shortcuts.api';
import { ShortcutForm } from '../../features/shortcuts/components/shortcut-form';
import { ShortcutList } from '../../features/shortcuts/components/shortcut-list';
import { normalizeError } from '../../lib/api-error';

const product = appConfig.productName;
const listHref = paths.recordShortcutPhrases.getHref();

/** /record/shortcut_phrases (a tab of /record): the user's shortcuts, or what a shortcut is. */
export function ShortcutPhrasesRoute() {
  const { t } = useTranslation();
  const shortcuts = useQuery(shortcutPhrasesQueryOptions());
  const addButton = (
    <Button component={RouterLink} to={paths.shortcutPhraseAdd.getHref()} variant="contained" size="large">
      {t('shortcuts.tab.add')}
    </Button>
  );

  return (
    <Box component="section" aria-labelledby="shortcuts-heading">
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' }, mb: 3 }}
      >
        <Box sx={{ maxWidth: '65ch' }}>
          <Typography id="shortcuts-heading" variant="h2" sx={{ mb: 1 }}>
            {t('shortcuts.tab.title')}
          </Typography>
          <Typography color="text.secondary">{t('shortcuts.tab.intro', { product })}</Typography>
        </Box>
        {/* Once the list is known: with none yet, the empty state offers it instead. */}
        {shortcuts.isSuccess && shortcuts.data.length > 0 && addButton}
      </Stack>
      {shortcuts.isPending ? (
        <LinearProgress aria-label={t('common.loading')} />
      ) : shortcuts.isError ? (
        <Alert severity="error">{t('shortcuts.tab.loadFailed')}</Alert>
      ) : shortcuts.data.length === 0 ? (
        <EmptyState
          title={t('shortcuts.tab.emptyTitle')}
          body={t('shortcuts.tab.emptyBody', { product })}
          actions={addButton}
        />
      ) : (
        <ShortcutList shortcuts={shortcuts.data} hrefOf={(id) => paths.shortcutPhrase.getHref(id)} />
      )}
    </Box>
  );
}

/** Why a shortcut's page has nothing to show: it is gone, or it could not be loaded. */
function ShortcutUnavailable({ error }: { error: unknown }) {
  const { t } = useTranslation();
  if (normalizeError(error).status !== 404) {
    return <Alert severity="error">{t('shortcuts.item.loadFailed')}</Alert>;
  }
  return (
    <EmptyState
      title={t('shortcuts.item.notFoundTitle')}
      body={t('shortcuts.item.notFoundBody')}
      actions={
        <Button component={RouterLink} to={listHref} variant="contained" size="large">
          {t('shortcuts.item.back')}
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

/** /record/shortcut_phrases/{id}: what is said and what it becomes; edit or delete it. */
export function ShortcutPhraseRoute() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { enqueueSnackbar } = useSnackbar();
  const remove = useDeleteShortcut();
  const [confirming, setConfirming] = useState(false);
  // Once deleted it is not fetched again while the page closes.
  const shortcut = useQuery({ ...shortcutPhraseQueryOptions(id), enabled: remove.isIdle || remove.isError });

  const handleDelete = () => {
    remove.mutate(id, {
      onSuccess: () => {
        enqueueSnackbar(t('shortcuts.deleteDialog.deleted'), { variant: 'success' });
        void navigate(listHref, { replace: true });
      },
    });
  };
  const handleCancel = () => {
    setConfirming(false);
    remove.reset();
  };

  return (
    <Page title={t('shortcuts.item.title')} width="sm" actions={backToList(t('shortcuts.item.back'))}>
      {!shortcut.data ? (
        shortcut.isError ? (
          <ShortcutUnavailable error={shortcut.error} />
        ) : (
          <LoadingScreen />
        )
      ) : (
        <>
          <Paper variant="outlined" sx={{ p: { xs: 2.5, sm: 4 } }}>
            <Box component="dl" sx={{ m: 0, overflowWrap: 'anywhere' }}>
              <Typography component="dt" color="text.secondary">
                {t('shortcuts.item.input')}
              </Typography>
              <Typography component="dd" sx={{ m: 0, mb: 3, fontSize: '1.75rem', fontWeight: 700 }}>
                {shortcut.data.input}
              </Typography>
              <Typography component="dt" color="text.secondary">
                {t('shortcuts.item.output', { product })}
              </Typography>
              <Typography component="dd" sx={{ m: 0, fontSize: '1.35rem', whiteSpace: 'pre-wrap' }}>
                {shortcut.data.output}
              </Typography>
            </Box>
          </Paper>
          <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap', mt: 3 }}>
            <Button
              component={RouterLink}
              to={paths.shortcutPhraseEdit.getHref(id)}
              variant="contained"
              size="large"
            >
              {t('shortcuts.item.edit')}
            </Button>
            <Button color="error" variant="outlined" size="large" onClick={() => setConfirming(true)}>
              {t('shortcuts.item.delete')}
            </Button>
          </Box>
          <ConfirmDialog
            open={confirming}
            title={t('shortcuts.deleteDialog.title')}
            body={t('shortcuts.deleteDialog.body', {
              input: shortcut.data.input,
              output: shortcut.data.output,
            })}
            confirmLabel={t('shortcuts.deleteDialog.confirm')}
            pending={remove.isPending}
            error={
              remove.isError
                ? t('shortcuts.deleteDialog.failed', { message: normalizeError(remove.error).message })
                : null
            }
            onConfirm={handleDelete}
            onCancel={handleCancel}
          />
        </>
      )}
    </Page>
  );
}

/** /record/shortcut_phrases/add. */
export function ShortcutPhraseAddRoute() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { enqueueSnackbar } = useSnackbar();
  const shortcuts = useQuery(shortcutPhrasesQueryOptions());
  const add = useAddShortcut();

  return (
    <Page
      title={t('shortcuts.form.addTitle')}
      intro={t('shortcuts.form.intro')}
      width="sm"
      actions={backToList(t('shortcuts.item.back'))}
    >
      <ShortcutForm
        shortcuts={shortcuts.data ?? []}
        submitLabel={t('shortcuts.form.add')}
        cancelHref={listHref}
        onSave={async (values) => {
          await add.mutateAsync(values);
          enqueueSnackbar(t('shortcuts.form.added'), { variant: 'success' });
          await navigate(listHref);
        }}
      />
    </Page>
  );
}

/** /record/shortcut_phrases/{id}/edit: its input may stay, but not become another's. */
export function ShortcutPhraseEditRoute() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { enqueueSnackbar } = useSnackbar();
  const shortcut = useQuery(shortcutPhraseQueryOptions(id));
  const shortcuts = useQuery(shortcutPhrasesQueryOptions());
  const edit = useEditShortcut();

  return (
    <Page
      title={t('shortcuts.form.editTitle')}
      intro={shortcut.data ? t('shortcuts.form.intro') : undefined}
      width="sm"
      actions={backToList(t('shortcuts.item.back'))}
    >
      {!shortcut.data ? (
        shortcut.isError ? (
          <ShortcutUnavailable error={shortcut.error} />
        ) : (
          <LoadingScreen />
        )
      ) : (
        <ShortcutForm
          key={shortcut.data.id}
          editing={shortcut.data}
          shortcuts={shortcuts.data ?? []}
          submitLabel={t('shortcuts.form.save')}
          cancelHref={paths.shortcutPhrase.getHref(id)}
          onSave={async (values) => {
            await edit.mutateAsync({ id, ...values });
            enqueueSnackbar(t('shortcuts.form.saved'), { variant: 'success' });
            await navigate(listHref);
          }}
        />
      )}
    </Page>
  );
}
