import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { logger } from '../../../lib/api';
import { notesQueryKey, saveNote, type DictationNote } from '../api/notes.api';
import { appendDictation, noteDrafts } from '../note-drafts';

export type SaveStatus = 'saved' | 'unsaved' | 'saving' | 'failed';

/** Wait after the last keystroke before saving. */
const SAVE_DELAY_MS = 800;

/**
 * The open note's text: edits and dictation are kept as a local draft at once and saved
 * with PATCH shortly after (and on blur); a failed save keeps the draft and retries.
 */
export function useNoteEditor(note: DictationNote | undefined) {
  const queryClient = useQueryClient();
  const [text, setTextState] = useState('');
  const [status, setStatus] = useState<SaveStatus>('saved');
  const textRef = useRef('');
  const savedRef = useRef('');
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const saving = useRef<Promise<void> | null>(null);
  const noteId = note?.id;

  const save = useCallback(async () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    if (!noteId) return;
    // One save at a time; the next one sends whatever is newest.
    if (saving.current) await saving.current;
    const sending = textRef.current;
    if (sending === savedRef.current) {
      setStatus('saved');
      return;
    }
    setStatus('saving');
    const run = saveNote(noteId, sending)
      .then((saved) => {
        savedRef.current = saved.text;
        noteDrafts.saved(noteId, saved.text);
        setStatus(textRef.current === saved.text ? 'saved' : 'unsaved');
        void queryClient.invalidateQueries({ queryKey: notesQueryKey });
      })
      .catch((error: unknown) => {
        logger.error(error, { during: 'save_note' });
        setStatus('failed');
      })
      .finally(() => {
        saving.current = null;
      });
    saving.current = run;
    await run;
  }, [noteId, queryClient]);

  const schedule = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => void save(), SAVE_DELAY_MS);
  }, [save]);

  const setText = useCallback(
    (next: string) => {
      textRef.current = next;
      setTextState(next);
      if (!noteId) return;
      noteDrafts.set(noteId, next);
      setStatus('unsaved');
      schedule();
    },
    [noteId, schedule],
  );

  const append = useCallback(
    (addition: string) => {
      setText(appendDictation(textRef.current, addition));
    },
    [setText],
  );

  // Opening a note: its server text, or the draft this browser kept if that is newer.
  const [loadedId, setLoadedId] = useState<string | undefined>(undefined);
  if (note?.id !== loadedId) {
    setLoadedId(note?.id);
    const draft = note ? noteDrafts.get(note.id) : undefined;
    setTextState(note ? (draft ?? note.text) : '');
    setStatus(note && draft !== undefined && draft !== note.text ? 'unsaved' : 'saved');
  }
  useEffect(() => {
    if (!note) {
      textRef.current = '';
      savedRef.current = '';
      return;
    }
    const draft = noteDrafts.get(note.id);
    savedRef.current = note.text;
    textRef.current = draft ?? note.text;
    if (draft !== undefined && draft !== note.text) void save();
    else noteDrafts.remove(note.id);
    // Only when another note opens: refetches of the same note must not undo typing.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [note?.id]);

  // Back online: save what waited.
  useEffect(() => {
    const handleOnline = () => {
      if (textRef.current !== savedRef.current) void save();
    };
    window.addEventListener('online', handleOnline);
    return () => {
      window.removeEventListener('online', handleOnline);
    };
  }, [save]);

  // Leaving the note saves it.
  useEffect(
    () => () => {
      if (timer.current) {
        clearTimeout(timer.current);
        void save();
      }
    },
    [save],
  );

  return { text, setText, append, status, flush: save };
}
