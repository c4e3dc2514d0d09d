import type { SUPPORT_TYPES } from '@parla/contract';
import { useMutation } from '@tanstack/react-query';
import { appConfig } from '../../../config/app-config';
import { api } from '../../../lib/api';

export interface SupportMessage {
  type: (typeof SUPPORT_TYPES)[number];
  text: string;
}

/** POST /app/support with what helps the team answer: app version and current page, no personal data. */
export function useSendSupportMessage() {
  return useMutation({
    mutationFn: (message: SupportMessage) =>
      api.post<{ id: string }>('/app/support', {
        ...message,
        metadata: { client_version: appConfig.clientVersion, page: window.location.pathname },
      }),
  });
}
