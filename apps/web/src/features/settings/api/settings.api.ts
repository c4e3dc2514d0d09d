import type { UserSettings } from '@parla/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { userQueryKey } from '../../../lib/session';

export const settingsQueryKey = ['settings'] as const;

export const settingsQueryOptions = () =>
  queryOptions({
    queryKey: settingsQueryKey,
    queryFn: () => api.get<UserSettings>('/app/getUserSettings'),
  });

export function useUserSettings() {
  return useQuery(settingsQueryOptions());
}

export function useUpdateUserSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: Partial<UserSettings>) =>
      api.post<UserSettings>('/app/updateUserSettings', changes),
    onSuccess: async (settings) => {
      queryClient.setQueryData(settingsQueryKey, settings);
      await queryClient.invalidateQueries({ queryKey: userQueryKey });
    },
  });
}
