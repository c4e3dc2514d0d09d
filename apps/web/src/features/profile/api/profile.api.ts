import {
  PROFILE_FIELDS,
  ProfileSchema,
  ProfileStatusSchema,
  type Profile,
  type UpdateProfileRequest,
} from '@parla/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { ApiError } from '../../../lib/api-error';

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

/** Keeps only the profile's known fields (spec section 5). */
export function pickProfileFields(input: Record<string, unknown>): UpdateProfileRequest {
  const picked: Record<string, unknown> = {};
  for (const field of PROFILE_FIELDS) if (input[field] !== undefined) picked[field] = input[field];
  return picked;
}

/**
 * Sends a profile update: only known fields, nothing when none is present, and one retry
 * with the current name when the server asks for it (spec section 5).
 */
export async function updateProfile(
  input: Record<string, unknown>,
  currentName: () => string | undefined,
  send: (body: UpdateProfileRequest) => Promise<Profile> = (body) =>
    api.post('/app/profile', body, { schema: ProfileSchema }),
): Promise<Profile | null> {
  const body = pickProfileFields(input);
  if (Object.keys(body).length === 0) return null;
  try {
    return await send(body);
  } catch (error) {
    const name = currentName();
    if (body.name === undefined && name && error instanceof ApiError && error.status === 400 && error.message === 'name is required') {
      return send({ ...body, name });
    }
    throw error;
  }
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Record<string, unknown>) =>
      updateProfile(input, () => queryClient.getQueryData<Profile>(profileKeys.all)?.name),
    onSuccess: (profile) => {
      if (profile) queryClient.setQueryData(profileKeys.all, profile);
      return queryClient.invalidateQueries({ queryKey: profileKeys.all });
    },
  });
}
