import { useEffect } from 'react';
import { tokenStore } from '../../lib/api';
import { useStore } from '../../lib/store';
import { sessionStore } from '../../lib/session';

/**
 * Sends takes that an earlier visit kept on this device (recorded offline, or the tab
 * closed before the upload): when the app starts signed in, and whenever it comes back online.
 */
export function usePendingTakeUploads() {
  const { status } = useStore(sessionStore);
  useEffect(() => {
    if (status !== 'signed_in') return;
    const send = () => {
      const userId = tokenStore.get()?.userId;
      if (!userId) return;
      // Loaded only now, so the first screen does not carry the recorder's code.
      void import('./api/takes.api')
        .then(({ takeOutbox, uploadTake }) => takeOutbox.flush(userId, uploadTake))
        .catch(() => undefined);
    };
    send();
    window.addEventListener('online', send);
    return () => window.removeEventListener('online', send);
  }, [status]);
}
