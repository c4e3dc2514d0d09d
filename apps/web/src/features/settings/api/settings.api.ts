import { UserSettingsSchema, type UserSettings } from '@parla/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { userQueryKey } from '../../../lib/session';

export const settingsQueryKey = ['settings'] as const;

export const settingsQueryOptions = () =>
  queryOptions({
    queryKey: settingsQueryKey,
    queryFn: () => api.get('/app/getUserSettings', { schema: UserSettingsSchema }),
  });

export function useUserSettings() {
  return useQuery(settingsQueryOptions());
}

export function useUpdateUserSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: Partial<UserSettings>) =>
      api.post('/app/updateUserSettings', changes, { schema: UserSettingsSchema }),
    onSuccess: async (settings) => {
      queryClient.setQueryData(settingsQueryKey, settings);
      await queryClient.invalidateQueries({ queryKey: userQueryKey });
    },
  });
}
