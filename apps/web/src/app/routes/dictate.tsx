import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { NOTES_PAGE_SIZE, type RecognitionResult } from '@parla/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSnackbar } from 'notistack';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { Page } from '../../components/layout/page';
import { visuallyHidden } from '../../components/layout/visually-hidden';
import { paths } from '../../config/paths';
import {
  createNote,
  deleteNote,
  notesQueryKey,
  notesQueryOptions,
  type DictationNote,
} from '../../features/notes/api/notes.api';
import { useNoteEditor, type SaveStatus } from '../../features/notes/hooks/use-note-editor';
import { noteDrafts, noteTitle, replaceLastDictation } from '../../features/notes/note-drafts';
import { shortcutPhrasesQueryOptions } from '../../features/shortcuts/api/shortcuts.api';
import { expandShortcut } from '../../features/recognition/shortcuts';
import { ConfirmChoices } from '../../features/recognition/components/confirm-choices';
import { questionKey } from '../../features/recognition/question-key';
import {
  ListenControls,
  RecognitionStatus,
} from '../../features/recognition/components/recognition-controls';
import { useRecognition } from '../../features/recognition/hooks/use-recognition';
import { normalizeError } from '../../lib/api-error';
import { useRememberTab } from '../../lib/use-remember-tab';

function SaveState({ status }: { status: SaveStatus }) {
  const { t } = useTranslation();
  const text = {
    saved: t('notes.saved'),
    saving: t('notes.saving'),
    unsaved: t('notes.unsaved'),
    failed: t('notes.saveFailed'),
  }[status];
  return (
    <Typography
      variant="body2"
      role="status"
      data-testid="save-status"
      color={status === 'failed' ? 'error' : 'text.secondary'}
    >
      {text}
    </Typography>
  );
}

/** Dictation mode: notes, and what the user says written into the open one. */
export function DictateRoute() {
  const { t, i18n } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  useRememberTab();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page') ?? '1') || 1);
  const openId = params.get('note');
  const notes = useQuery(notesQueryOptions(page));
  const shortcuts = useQuery(shortcutPhrasesQueryOptions());
  const [created, setCreated] = useState<DictationNote | null>(null);
  // The last result, and what it wrote into which note (null: nothing, it was rejected), so
  // the person can put it right and their profile learn from it, as in speak mode.
  const [last, setLast] = useState<{
    result: RecognitionResult;
    written: string | null;
    noteId: string | undefined;
    /** Put right: the phrase taken out of the note, or left in it as the note had changed since. */
    takenOut?: string;
    leftIn?: string;
  } | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const pendingDictation = useRef<string[]>([]);

  const openNote =
    notes.data?.notes.find((note) => note.id === openId) ?? (created?.id === openId ? created : undefined);
  const editor = useNoteEditor(openNote);

  const select = (id: string | null, nextPage = page) => {
    const next = new URLSearchParams(params);
    if (id) next.set('note', id);
    else next.delete('note');
    if (nextPage > 1) next.set('page', String(nextPage));
    else next.delete('page');
    setParams(next);
  };

  const create = useMutation({
    mutationFn: createNote,
    onSuccess: (note) => {
      // Results that arrived while the note was being made go in too.
      const waiting = pendingDictation.current.splice(0);
      const withWaiting = waiting.length
        ? { ...note, text: waiting.reduce((text, part) => `${text} ${part}`, note.text) }
        : note;
      if (waiting.length) noteDrafts.set(note.id, withWaiting.text);
      setCreated(withWaiting);
      void queryClient.invalidateQueries({ queryKey: notesQueryKey });
      select(note.id, 1);
    },
    onError: (error) =>
      enqueueSnackbar(t('errors.withMessage', { message: normalizeError(error).message }), {
        variant: 'error',
      }),
  });

  const remove = useMutation({
    mutationFn: deleteNote,
    onSuccess: (_ok, id) => {
      noteDrafts.remove(id);
      setConfirmDelete(false);
      void queryClient.invalidateQueries({ queryKey: notesQueryKey });
      select(null);
      enqueueSnackbar(t('notes.deleted'), { variant: 'success' });
    },
    onError: (error) =>
      enqueueSnackbar(t('errors.withMessage', { message: normalizeError(error).message }), {
        variant: 'error',
      }),
  });

  /** Writes a phrase at the end of the open note (or a new one); what was written. */
  const write = (text: string) => {
    const expanded = expandShortcut(text, shortcuts.data);
    if (openNote) editor.append(expanded);
    else if (create.isPending) pendingDictation.current.push(expanded);
    else create.mutate(expanded);
    return expanded;
  };

  /**
   * Puts right what the last result did: writes the phrase the person meant (`text`) for a
   * rejected one; for a written one, puts `text` in its place, or takes it out (null: none of
   * their phrases). Only while the note it went into still ends with it: what the person has
   * written since is never touched.
   */
  const correct = (text: string | null) => {
    if (!last) return;
    if (last.written === null) {
      if (text !== null) setLast({ ...last, written: write(text) });
      return;
    }
    const replacement = text === null ? '' : expandShortcut(text, shortcuts.data);
    const sameNote = last.noteId === undefined || last.noteId === openNote?.id;
    const corrected = sameNote ? replaceLastDictation(editor.text, last.written, replacement) : null;
    if (corrected === null) {
      setLast({ ...last, leftIn: last.written });
      return;
    }
    editor.setText(corrected);
    setLast(
      text === null ? { ...last, written: null, takenOut: last.written } : { ...last, written: replacement },
    );
  };

  const recognition = useRecognition({
    mode: 'dictate',
    onResult: (result) => {
      const rejected = result.rejected || result.text === null;
      const noteId = openNote?.id;
      setLast({ result, written: rejected ? null : write(result.text ?? ''), noteId });
    },
  });

  // What the last result did to the note, in order; the live region says the newest.
  const lastLines = last
    ? [
        last.written !== null ? t('notes.lastWritten', { text: last.written }) : undefined,
        last.takenOut !== undefined ? t('notes.takenOut', { text: last.takenOut }) : undefined,
        last.leftIn !== undefined ? t('notes.leftIn', { text: last.leftIn }) : undefined,
      ].filter((line) => line !== undefined)
    : [];

  const total = notes.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / NOTES_PAGE_SIZE));
  const dateFormat = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });

  const actions = (
    <>
      <Button component={RouterLink} to={paths.modePicker.getHref()} variant="outlined">
        {t('modes.change')}
      </Button>
      <Button component={RouterLink} to={paths.speak.getHref()} variant="outlined">
        {t('modes.speak.title')}
      </Button>
    </>
  );

  return (
    <Page title={t('modes.dictate.title')} actions={actions} width="lg">
      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '2fr 1fr' } }}>
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 3, minWidth: 0 }}>
          <RecognitionStatus recognition={recognition} />
          <ListenControls recognition={recognition} />
          {/* What a result did to the note, said to screen readers: the note's text changes silently. */}
          <Box aria-live="polite" sx={visuallyHidden}>
            {lastLines.at(-1) ?? ''}
          </Box>
          {last && (
            <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }} data-testid="last-dictation">
              {last.written === null && last.result.rejected && (
                <Alert severity="info" role="status" data-testid="rejection">
                  {t('recognition.rejected')}
                </Alert>
              )}
              {lastLines.map((line) => (
                <Typography key={line}>{line}</Typography>
              ))}
              <ConfirmChoices
                key={questionKey(last.result)}
                result={last.result}
                onChoose={(text) => {
                  correct(text);
                }}
                onNotMine={() => {
                  correct(null);
                }}
              />
            </Box>
          )}
          <Paper
            variant="outlined"
            sx={{ p: { xs: 2, sm: 3 }, display: 'flex', flexDirection: 'column', gap: 2 }}
          >
            {openNote ? (
              <>
                <TextField
                  label={t('notes.editor')}
                  helperText={t('notes.editorHelp')}
                  multiline
                  minRows={8}
                  value={editor.text}
                  onChange={(event) => {
                    editor.setText(event.target.value);
                  }}
                  onBlur={() => void editor.flush()}
                  slotProps={{
                    htmlInput: {
                      'data-testid': 'note-text',
                      style: { fontSize: '1.25rem', lineHeight: 1.5 },
                    },
                  }}
                />
                <Box
                  sx={{
                    display: 'flex',
                    justifyContent: 'space-between',
                    alignItems: 'center',
                    gap: 2,
                    flexWrap: 'wrap',
                  }}
                >
                  <SaveState status={editor.status} />
                  <Button
                    color="error"
                    variant="outlined"
                    onClick={() => {
                      setConfirmDelete(true);
                    }}
                  >
                    {t('notes.delete')}
                  </Button>
                </Box>
              </>
            ) : (
              <Typography color="text.secondary">{t('notes.noneOpen')}</Typography>
            )}
          </Paper>
        </Box>
        <Paper
          component="section"
          aria-labelledby="notes-heading"
          variant="outlined"
          sx={{ p: { xs: 2, sm: 3 }, minWidth: 0 }}
        >
          <Box
            sx={{
              display: 'flex',
              justifyContent: 'space-between',
              alignItems: 'center',
              gap: 1,
              flexWrap: 'wrap',
              mb: 1,
            }}
          >
            <Typography variant="h2" id="notes-heading" sx={{ fontSize: '1.25rem' }}>
              {t('notes.list')}
            </Typography>
            <Button
              variant="contained"
              onClick={() => {
                create.mutate('');
              }}
              disabled={create.isPending}
            >
              {t('notes.newNote')}
            </Button>
          </Box>
          {notes.isError ? (
            <Alert severity="error">
              {t('errors.withMessage', { message: normalizeError(notes.error).message })}
            </Alert>
          ) : notes.data && notes.data.notes.length === 0 ? (
            <Typography color="text.secondary">{t('notes.empty')}</Typography>
          ) : (
            <List disablePadding data-testid="notes-list">
              {notes.data?.notes.map((note) => (
                <ListItem key={note.id} disablePadding>
                  <ListItemButton
                    selected={note.id === openId}
                    aria-current={note.id === openId ? 'true' : undefined}
                    onClick={() => {
                      select(note.id);
                    }}
                    sx={{ minHeight: 56, borderRadius: 1 }}
                  >
                    <ListItemText
                      primary={noteTitle(note.id === openId ? editor.text : note.text) || t('notes.untitled')}
                      secondary={t('notes.updated', { date: dateFormat.format(new Date(note.updated_at)) })}
                      slotProps={{ secondary: { color: 'text.secondary' } }}
                    />
                  </ListItemButton>
                </ListItem>
              ))}
            </List>
          )}
          {pages > 1 && (
            <Box
              sx={{
                display: 'flex',
                justifyContent: 'space-between',
                alignItems: 'center',
                gap: 1,
                mt: 2,
                flexWrap: 'wrap',
              }}
            >
              <Button
                disabled={page <= 1}
                onClick={() => {
                  select(openId, page - 1);
                }}
              >
                {t('notes.previous')}
              </Button>
              <Typography variant="body2">{t('notes.pageOf', { page, pages })}</Typography>
              <Button
                disabled={page >= pages}
                onClick={() => {
                  select(openId, page + 1);
                }}
              >
                {t('notes.next')}
              </Button>
            </Box>
          )}
        </Paper>
      </Box>
      <Dialog
        open={confirmDelete}
        onClose={() => {
          setConfirmDelete(false);
        }}
        aria-labelledby="delete-note-title"
      >
        <DialogTitle id="delete-note-title">{t('notes.deleteTitle')}</DialogTitle>
        <DialogContent>
          <DialogContentText>
            {t('notes.deleteBody', { title: noteTitle(editor.text) || t('notes.untitled') })}
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button
            onClick={() => {
              setConfirmDelete(false);
            }}
          >
            {t('common.cancel')}
          </Button>
          <Button
            color="error"
            variant="contained"
            disabled={remove.isPending}
            onClick={() => {
              if (openNote) remove.mutate(openNote.id);
            }}
          >
            {t('notes.delete')}
          </Button>
        </DialogActions>
      </Dialog>
    </Page>
  );
}
