import type { Consents, UpdateConsentsRequest, User } from '@parla/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { userQueryKey } from '../../../lib/session';

/** POST /app/update_consents: the cookie choice or the terms; returns consents and the updated user. */
export function updateConsents(body: UpdateConsentsRequest) {
  return api.post<{ consents: Consents; user: User }>('/app/update_consents', body);
}

export function useUpdateConsents() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateConsents,
    onSuccess: ({ user }) => {
      queryClient.setQueryData(userQueryKey, user);
    },
  });
}
