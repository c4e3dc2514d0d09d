import type { ProfileStatus } from '@parla/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';

// Kept apart from the profile form's code: every private page's guard needs the status.
export const profileKeys = {
  all: ['profile'] as const,
  status: ['profile', 'status'] as const,
};

export const profileStatusQueryOptions = () =>
  queryOptions({
    queryKey: profileKeys.status,
    queryFn: () => api.get<ProfileStatus>('/app/profile/status'),
  });

export function useProfileStatus() {
  return useQuery(profileStatusQueryOptions());
}
