import { NOTES_PAGE_SIZE, type DictationNote } from '@parla/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export type { DictationNote };

export interface NotesPage {
  notes: DictationNote[];
  page: number;
  perPage: number;
  total: number;
}

export const notesQueryKey = ['dictation_notes'] as const;

/** GET /app/dictation_notes: most recently changed first, 25 a page. */
export const notesQueryOptions = (page: number) =>
  queryOptions({
    queryKey: [...notesQueryKey, page] as const,
    queryFn: () => api.get<NotesPage>('/app/dictation_notes', { query: { page, perPage: NOTES_PAGE_SIZE } }),
    placeholderData: keepPreviousData,
  });

export const createNote = (text: string) => api.post<DictationNote>('/app/dictation_notes', { text });

export const saveNote = (id: string, text: string) =>
  api.request<DictationNote>(`/app/dictation_notes/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body: { text },
    quietNetworkErrors: true,
  });

export const deleteNote = (id: string) =>
  api.request<{ ok: true }>(`/app/dictation_notes/${encodeURIComponent(id)}`, { method: 'DELETE' });
