import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { EmptyState } from '../../components/feedback/empty-state';
import { LoadingScreen } from '../../components/feedback/loading-screen';
import { Page } from '../../components/layout/page';
import { paths } from '../../config/paths';
import { notesQueryOptions } from '../../features/notes/api/notes.api';

const TUTORIAL_STEPS = ['place', 'phrases', 'record', 'check', 'again', 'ready'] as const;

/** /record/tutorial: what recording is, in six plain steps, then the way to start. */
export function RecordTutorialRoute() {
  const { t } = useTranslation();
  return (
    <Page title={t('tutorial.title')} intro={t('tutorial.intro')}>
      <Stack component="ol" spacing={2} sx={{ p: 0, m: 0, listStyle: 'none', mb: 4 }}>
        {TUTORIAL_STEPS.map((step, index) => (
          <Paper
            component="li"
            key={step}
            variant="outlined"
            sx={{ p: { xs: 2, sm: 3 }, display: 'flex', gap: 2 }}
          >
            <Box
              aria-hidden
              sx={{
                flex: '0 0 44px',
                height: 44,
                borderRadius: '50%',
                bgcolor: 'primary.main',
                color: 'primary.contrastText',
                display: 'grid',
                placeItems: 'center',
                fontWeight: 700,
                fontSize: '1.2rem',
              }}
            >
              {index + 1}
            </Box>
            <Box>
              <Typography variant="h2" component="h2" sx={{ fontSize: '1.25rem', mb: 0.5 }}>
                {t(`tutorial.steps.${step}.title`)}
              </Typography>
              <Typography>{t(`tutorial.steps.${step}.body`)}</Typography>
            </Box>
          </Paper>
        ))}
      </Stack>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
        <Button component={RouterLink} to={paths.record.getHref()} variant="contained" size="large">
          {t('tutorial.start')}
        </Button>
        <Button component={RouterLink} to={paths.recordNotes.getHref()} variant="outlined" size="large">
          {t('tutorial.notes')}
        </Button>
      </Stack>
    </Page>
  );
}

/** /record/notes: the notes dictated so far, each opening in dictate mode. */
export function RecordNotesRoute() {
  const { t } = useTranslation();
  const notes = useQuery(notesQueryOptions(1));
  return (
    <Page
      title={t('myNotes.title')}
      intro={t('myNotes.intro')}
      actions={
        <Button component={RouterLink} to={paths.dictate.getHref()} variant="contained">
          {t('myNotes.dictate')}
        </Button>
      }
    >
      {notes.isPending ? (
        <LoadingScreen />
      ) : notes.isError ? (
        <Alert severity="error">{t('myNotes.loadFailed')}</Alert>
      ) : notes.data.notes.length === 0 ? (
        <EmptyState title={t('myNotes.emptyTitle')} body={t('myNotes.emptyBody')} />
      ) : (
        <Paper variant="outlined">
          <List aria-label={t('myNotes.title')}>
            {notes.data.notes.map((note) => {
              const [firstLine = '', ...rest] = note.text.trim().split('\n');
              return (
                <ListItemButton
                  key={note.id}
                  component={RouterLink}
                  to={`${paths.dictate.getHref()}?note=${encodeURIComponent(note.id)}`}
                  divider
                >
                  <ListItemText
                    primary={firstLine || t('myNotes.untitled')}
                    secondary={rest.join(' ').slice(0, 140) || undefined}
                  />
                </ListItemButton>
              );
            })}
          </List>
        </Paper>
      )}
    </Page>
  );
}
