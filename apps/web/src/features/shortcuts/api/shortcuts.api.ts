import type { ShortcutPhrase } from '@parla/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { normalizeError } from '../../../lib/api-error';

export type { ShortcutPhrase };

/** What a form sends: the input said and the output spoken or written. */
export interface ShortcutValues {
  input: string;
  output: string;
}

/**
 * The list's key, and the start of every shortcut query: speak and dictate expand with the
 * list, so one invalidation after a change reaches them too.
 */
export const shortcutPhrasesQueryKey = ['shortcut_phrases'] as const;

const shortcutPath = (id: string) => `/app/casr/shortcut_phrases/${encodeURIComponent(id)}`;

/** GET /app/casr/shortcut_phrases: what each shortcut expands to. */
export const shortcutPhrasesQueryOptions = () =>
  queryOptions({
    queryKey: shortcutPhrasesQueryKey,
    queryFn: async () =>
      (await api.get<{ shortcut_phrases: ShortcutPhrase[] }>('/app/casr/shortcut_phrases')).shortcut_phrases,
  });

/** GET /app/casr/shortcut_phrases/{id}. */
export const shortcutPhraseQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...shortcutPhrasesQueryKey, 'one', id] as const,
    queryFn: () => api.get<ShortcutPhrase>(shortcutPath(id)),
  });

/**
 * A mutation that refreshes every shortcut query (the list, items, speak and dictate) on
 * success, and on a 409 too: the list the form checked against was out of date.
 */
function useShortcutMutation<Input, Output>(mutationFn: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: shortcutPhrasesQueryKey });
  return useMutation({
    mutationFn,
    onSuccess: refresh,
    onError: async (error) => {
      if (normalizeError(error).status === 409) await refresh();
    },
  });
}

/** POST /app/casr/shortcut_phrases: 409 when the input is taken (case-insensitively). */
export const useAddShortcut = () =>
  useShortcutMutation((values: ShortcutValues) =>
    api.post<ShortcutPhrase>('/app/casr/shortcut_phrases', values),
  );

/** PUT /app/casr/shortcut_phrases/{id}: 409 when another shortcut has the input. */
export const useEditShortcut = () => {
  const queryClient = useQueryClient();
  return useShortcutMutation(async ({ id, ...values }: ShortcutValues & { id: string }) => {
    const saved = await api.request<ShortcutPhrase>(shortcutPath(id), { method: 'PUT', body: values });
    // The list, which is not on screen now, shows the change the moment it opens.
    queryClient.setQueryData<ShortcutPhrase[]>(shortcutPhrasesQueryKey, (list) =>
      list?.map((s) => (s.id === id ? saved : s)),
    );
    return saved;
  });
};

/** DELETE /app/casr/shortcut_phrases/{id}. */
export const useDeleteShortcut = () => {
  const queryClient = useQueryClient();
  return useShortcutMutation(async (id: string) => {
    const result = await api.request<{ ok: true }>(shortcutPath(id), { method: 'DELETE' });
    // Gone: its page, still open while it closes, must not fetch it again, and the list
    // it returns to must not show it while it refreshes.
    queryClient.removeQueries({ queryKey: shortcutPhraseQueryOptions(id).queryKey });
    queryClient.setQueryData<ShortcutPhrase[]>(shortcutPhrasesQueryKey, (list) =>
      list?.filter((s) => s.id !== id),
    );
    return result;
  });
};
