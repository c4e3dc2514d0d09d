import type { SessionResponse } from '@parla/contract';
import { NetworkError } from './api-error';
import { toStoredTokens } from './api-client';
import { api, logger, tokenStore } from './api';
import { browserState } from './browser-state';
import { queryClient } from './query-client';
import { createStore } from './store';

export type SessionStatus = 'init' | 'signed_in' | 'signed_out';

export interface LegalRestriction {
  reason: string;
  details: string;
}

export interface SessionState {
  status: SessionStatus;
  /** Set when the server refused the session for legal reasons; shown on /login. */
  restriction: LegalRestriction | null;
  /** The user logged out themselves: the login page does not offer to return. */
  loggedOut?: boolean;
}

/** Authentication state (spec section 4): init, then signed in or signed out. */
export const sessionStore = createStore<SessionState>({ status: 'init', restriction: null });

export const userQueryKey = ['user'] as const;

/** Start-up: a stored session is renewed by a refresh-token exchange before the app trusts it. */
export async function bootstrapSession(): Promise<void> {
  const tokens = tokenStore.get();
  if (!tokens) {
    sessionStore.set({ status: 'signed_out', restriction: null });
    return;
  }
  try {
    await api.refreshNow();
  } catch (error) {
    // Offline at start-up keeps the session; the calls that follow will retry the refresh.
    if (!(error instanceof NetworkError)) logger.error(error, { during: 'session_bootstrap' });
  }
  const current = tokenStore.get();
  if (current) {
    logger.setInfo({ user_id: current.userId });
    sessionStore.set({ status: 'signed_in', restriction: null });
  } else if (sessionStore.get().status !== 'signed_out') {
    sessionStore.set((state) => ({ ...state, status: 'signed_out' }));
  }
}

/** Signed in by login, sign-up, password reset or a social sign-in. */
export function startSession(session: SessionResponse) {
  tokenStore.set(toStoredTokens(session, session.user.id, Date.now()));
  queryClient.setQueryData(userQueryKey, session.user);
  logger.setInfo({ user_id: session.user.id });
  sessionStore.set({ status: 'signed_in', restriction: null });
}

/**
 * Ends the session: tells the server when the user asked for it, then clears tokens,
 * cached data, logger info and the browser settings (spec section 4).
 */
export async function endSession(options: { sendEvent: boolean; restriction?: LegalRestriction | null }) {
  if (options.sendEvent && tokenStore.get()) {
    await api
      .post('/app/logAuthEvent', { event: 'logout' }, { quietNetworkErrors: true })
      .catch(() => undefined);
  }
  void logger.flush({ keepalive: true });
  tokenStore.clear();
  queryClient.clear();
  logger.clearInfo();
  browserState.clearUserSettings();
  // The voice profile downloaded for local recognition is personal data.
  void import('./model-cache').then((cache) => cache.clearCachedModels());
  sessionStore.set({
    status: 'signed_out',
    restriction: options.restriction ?? null,
    loggedOut: options.sendEvent,
  });
}

/** Another tab logged out: follow it. */
export function watchOtherTabs(storageKey = 'parla.session') {
  const handleStorage = (event: StorageEvent) => {
    if (event.key === storageKey && event.newValue === null && sessionStore.get().status === 'signed_in') {
      void endSession({ sendEvent: false });
    }
  };
  window.addEventListener('storage', handleStorage);
  return () => {
    window.removeEventListener('storage', handleStorage);
  };
}
