import { APP_NAME } from '@parla/contract';
import { appConfig, extraAppInfo } from '../config/app-config';
import { ApiClient, webLockRunner, type ForcedSignOut } from './api-client';
import { ClientLogger } from './logger';
import { createLocalTokenStore } from './token-storage';

/** Handlers the app shell installs: what to do when a session ends or the network is gone. */
export interface SessionHandlers {
  onForcedSignOut(cause: ForcedSignOut): void;
  onNetworkError(): void;
}

let handlers: SessionHandlers | null = null;

export function installSessionHandlers(next: SessionHandlers) {
  handlers = next;
}

export const tokenStore = createLocalTokenStore();

const lock = webLockRunner('parla.token-refresh');

/** The app's one API client. */
export const api = new ApiClient({
  baseUrl: appConfig.apiBaseUrl,
  fetch: (input, init) => fetch(input, init),
  tokens: tokenStore,
  ...(lock ? { lock } : {}),
  extra: extraAppInfo,
  onForcedSignOut: (cause) => handlers?.onForcedSignOut(cause),
  onNetworkError: () => handlers?.onNetworkError(),
});

/** The app's one logger, sending to /logsBatch with the session's token when there is one. */
export const logger = new ClientLogger({
  send: async (logs, { keepalive }) => {
    await api.post(
      '/logsBatch',
      { logs },
      {
        query: { app_name: APP_NAME },
        auth: tokenStore.get() !== null,
        keepalive,
        quietNetworkErrors: true,
      },
    );
  },
});
