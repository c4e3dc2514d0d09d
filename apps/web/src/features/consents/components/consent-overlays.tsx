import type { CookieConsentType } from '@parla/contract';
import { useQuery } from '@tanstack/react-query';
import { useSnackbar } from 'notistack';
import { Suspense, lazy, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { logger } from '../../../lib/api';
import { normalizeError } from '../../../lib/api-error';
import { sessionStore } from '../../../lib/session';
import { useStore } from '../../../lib/store';
import { userQueryOptions } from '../../auth/api/auth.api';
import { useUpdateConsents } from '../api/consents.api';
import { clearPendingCookieConsent, keepPendingCookieConsent, pendingCookieConsent } from '../consent-store';
import { CookieNotice } from './cookie-notice';
import { needsTermsAcceptance } from '../needs-terms';

// The dialog and its form code load only for the few users who must see it.
const TermsDialog = lazy(() => import('./terms-dialog').then((module) => ({ default: module.TermsDialog })));
const ProfileUpdatedDialog = lazy(() =>
  import('../../models/components/profile-updated-dialog').then((module) => ({
    default: module.ProfileUpdatedDialog,
  })),
);

/**
 * The consent overlays: the terms dialog for a signed-in user who must (re)accept, and
 * the cookie notice. Consent given before sign-in is kept locally, sent after
 * authentication, then cleared.
 */
export function ConsentOverlays() {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const { status } = useStore(sessionStore);
  const signedIn = status === 'signed_in';
  const user = useQuery({ ...userQueryOptions(), enabled: signedIn });
  const update = useUpdateConsents();
  const localConsent = useStore(pendingCookieConsent);
  const sending = useRef(false);

  const reportFailure = (error: unknown) => {
    logger.error(error, { during: 'cookie_consent' });
    enqueueSnackbar(t('errors.withMessage', { message: normalizeError(error).message }), {
      variant: 'error',
    });
  };

  // After sign-in: hand the consent given before it to the server, once.
  const userData = user.data;
  useEffect(() => {
    if (!signedIn || !userData || !localConsent || sending.current) return;
    if (userData.cookies_consent_types) {
      clearPendingCookieConsent();
      return;
    }
    sending.current = true;
    update.mutate(
      { cookies_consent_types: localConsent },
      {
        onSuccess: clearPendingCookieConsent,
        onError: reportFailure,
        onSettled: () => {
          sending.current = false;
        },
      },
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs when the user or the local consent changes
  }, [signedIn, userData, localConsent]);

  if (status === 'init') return null;

  const handleChoose = (types: CookieConsentType[]) => {
    if (!signedIn) {
      keepPendingCookieConsent(types);
      return;
    }
    update.mutate({ cookies_consent_types: types }, { onError: reportFailure });
  };

  if (signedIn) {
    if (!userData) return null;
    if (needsTermsAcceptance(userData)) {
      return (
        <Suspense fallback={null}>
          <TermsDialog />
        </Suspense>
      );
    }
    const showCookies = !userData.cookies_consent_types && !localConsent && !update.isPending;
    return (
      <>
        {showCookies && <CookieNotice onChoose={handleChoose} />}
        <Suspense fallback={null}>
          <ProfileUpdatedDialog />
        </Suspense>
      </>
    );
  }
  return localConsent ? null : <CookieNotice onChoose={handleChoose} />;
}
