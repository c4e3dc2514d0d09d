import type { Profile } from '@parla/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { updateProfile as sendProfileUpdate } from '../profile-update';

import { profileKeys } from './profile-status.api';

export { profileKeys, profileStatusQueryOptions, useProfileStatus } from './profile-status.api';

export const profileQueryOptions = () =>
  queryOptions({ queryKey: profileKeys.all, queryFn: () => api.get<Profile>('/app/profile') });

export function useProfile() {
  return useQuery(profileQueryOptions());
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Record<string, unknown>) =>
      sendProfileUpdate(
        input,
        () => queryClient.getQueryData<Profile>(profileKeys.all)?.name,
        (body) => api.post<Profile>('/app/profile', body),
      ),
    onSuccess: (profile) => {
      if (profile) queryClient.setQueryData(profileKeys.all, profile);
      return queryClient.invalidateQueries({ queryKey: profileKeys.all });
    },
  });
}
