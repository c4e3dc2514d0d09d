import type { Phrase, PhraseSource, Scenario } from '@parla/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { modelsQueryKey } from '../../models/api/models.api';

export type { Phrase, Scenario };

export interface ScenarioStats {
  scenario_id: string;
  phrases: number;
  recorded_phrases: number;
  takes: number;
}

export interface DatasetPhrase {
  id: string;
  text: string;
  language: string;
  scenario_id: string;
  /** Already in the user's phrases. */
  added: boolean;
}

/** Every query of this feature starts with this key, so one invalidation refreshes them all. */
export const phrasesRootKey = ['phrases'] as const;

/** GET /app/scenarios: the scenarios, the active one marked. */
export const scenariosQueryOptions = () =>
  queryOptions({
    queryKey: [...phrasesRootKey, 'scenarios'],
    queryFn: async () =>
      (await api.get<{ availableScenarios: Scenario[] }>('/app/scenarios')).availableScenarios,
  });

/** GET /app/casr/scenarios_stats: phrases and recorded phrases per scenario. */
export const scenarioStatsQueryOptions = () =>
  queryOptions({
    queryKey: [...phrasesRootKey, 'stats'],
    queryFn: async () =>
      (await api.get<{ scenarios: ScenarioStats[] }>('/app/casr/scenarios_stats')).scenarios,
  });

/** GET /app/casr/phrases: the user's phrases, of one scenario and some sources when given. */
export const phrasesQueryOptions = (filter: { scenarioId?: string; sources?: PhraseSource[] } = {}) =>
  queryOptions({
    queryKey: [...phrasesRootKey, 'list', filter.scenarioId ?? null, filter.sources?.join(',') ?? null],
    queryFn: async () => {
      const query = new URLSearchParams();
      if (filter.scenarioId) query.set('scenario_id', filter.scenarioId);
      if (filter.sources?.length) query.set('sources', filter.sources.join(','));
      const suffix = query.size > 0 ? `?${query.toString()}` : '';
      return (await api.get<{ phrases: Phrase[] }>(`/app/casr/phrases${suffix}`)).phrases;
    },
  });

/** GET /app/casr/phrase/{id}. */
export const phraseQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...phrasesRootKey, 'one', id],
    queryFn: () => api.get<Phrase>(`/app/casr/phrase/${encodeURIComponent(id)}`),
  });

/** GET /app/casr/scenario_train_set/{id}/dataset: catalogue phrases the user can add. */
export const datasetQueryOptions = (scenarioId: string) =>
  queryOptions({
    queryKey: [...phrasesRootKey, 'dataset', scenarioId],
    queryFn: async () =>
      (
        await api.get<{ phrases: DatasetPhrase[] }>(
          `/app/casr/scenario_train_set/${encodeURIComponent(scenarioId)}/dataset`,
        )
      ).phrases,
  });

/** A mutation that refreshes phrases, stats and the recording state when it succeeds. */
function usePhrasesMutation<Input, Output>(mutationFn: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: phrasesRootKey }),
        queryClient.invalidateQueries({ queryKey: modelsQueryKey }),
      ]);
    },
  });
}

/** PUT /app/scenarios/activate/{id}. */
export const useActivateScenario = () =>
  usePhrasesMutation((scenarioId: string) =>
    api.request<unknown>(`/app/scenarios/activate/${encodeURIComponent(scenarioId)}`, { method: 'PUT' }),
  );

/** POST /app/casr/datasetPhrase: adds a catalogue phrase to the user's phrases. */
export const useAddDatasetPhrase = () =>
  usePhrasesMutation((input: { id: string; scenario_id: string }) =>
    api.post<Phrase>('/app/casr/datasetPhrase', input),
  );

/** POST /app/casr/customPhrase: a phrase in the user's own words. */
export const useAddCustomPhrase = () =>
  usePhrasesMutation((input: { text: string; scenario_id: string; language?: string }) =>
    api.post<Phrase>('/app/casr/customPhrase', { language: 'en-US', ...input }),
  );

/** PUT /app/casr/editPhrase: new words for a phrase (its source becomes `edited`). */
export const useEditPhrase = () =>
  usePhrasesMutation((input: { phrase_id: string; text: string }) =>
    api.request<Phrase>('/app/casr/editPhrase', { method: 'PUT', body: input }),
  );

/** POST /app/casr/deletePhrase: removes a phrase and its takes. */
export const useDeletePhrase = () => {
  const queryClient = useQueryClient();
  return usePhrasesMutation(async (phraseId: string) => {
    const result = await api.post<unknown>('/app/casr/deletePhrase', { phrase_id: phraseId });
    // Gone: its page, still open while it closes, must not fetch it again.
    queryClient.removeQueries({ queryKey: phraseQueryOptions(phraseId).queryKey });
    return result;
  });
};
