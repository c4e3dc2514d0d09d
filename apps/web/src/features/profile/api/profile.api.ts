import { ProfileSchema, ProfileStatusSchema, type Profile } from '@parla/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { updateProfile as sendProfileUpdate } from '../profile-update';

export const profileKeys = {
  all: ['profile'] as const,
  status: ['profile', 'status'] as const,
};

export const profileQueryOptions = () =>
  queryOptions({ queryKey: profileKeys.all, queryFn: () => api.get('/app/profile', { schema: ProfileSchema }) });

export const profileStatusQueryOptions = () =>
  queryOptions({
    queryKey: profileKeys.status,
    queryFn: () => api.get('/app/profile/status', { schema: ProfileStatusSchema }),
  });

export function useProfile() {
  return useQuery(profileQueryOptions());
}

export function useProfileStatus() {
  return useQuery(profileStatusQueryOptions());
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Record<string, unknown>) =>
      sendProfileUpdate(input, () => queryClient.getQueryData<Profile>(profileKeys.all)?.name, (body) =>
        api.post('/app/profile', body, { schema: ProfileSchema }),
      ),
    onSuccess: (profile) => {
      if (profile) queryClient.setQueryData(profileKeys.all, profile);
      return queryClient.invalidateQueries({ queryKey: profileKeys.all });
    },
  });
}
