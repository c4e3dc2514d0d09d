import type { CookieConsentType } from '@parla/contract';
import { browserState } from '../../lib/browser-state';
import { createStore } from '../../lib/store';

/** Cookie consent given before sign-in: kept locally until it can be sent to the server. */
export const pendingCookieConsent = createStore<CookieConsentType[] | undefined>(
  browserState.get('unauthorizedCookieTypesConsent'),
);

export function keepPendingCookieConsent(types: CookieConsentType[]) {
  browserState.set('unauthorizedCookieTypesConsent', types);
  pendingCookieConsent.set(types);
}

export function clearPendingCookieConsent() {
  browserState.remove('unauthorizedCookieTypesConsent');
  pendingCookieConsent.set(undefined);
}
