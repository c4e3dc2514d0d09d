import { useSnackbar } from 'notistack';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { appConfig } from '../config/app-config';
import { logger } from '../lib/api';
import { browserState } from '../lib/browser-state';
import { activityStore, keyboardActionFor, keyboardActions } from '../lib/app-activity';

/** Offline and online toasts (texts of spec section 8). */
export function useNetworkToasts() {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  useEffect(() => {
    const handleOffline = () => {
      enqueueSnackbar(t('network.offline', { product: appConfig.productName }), {
        variant: 'error',
        preventDuplicate: true,
      });
    };
    const handleOnline = () => {
      enqueueSnackbar(t('network.online'), { variant: 'success', preventDuplicate: true });
    };
    window.addEventListener('offline', handleOffline);
    window.addEventListener('online', handleOnline);
    return () => {
      window.removeEventListener('offline', handleOffline);
      window.removeEventListener('online', handleOnline);
    };
  }, [enqueueSnackbar, t]);
}

/** Log batches: every 60 s and whenever the page is hidden. */
export function useLogFlushing() {
  useEffect(() => {
    const timer = window.setInterval(() => void logger.flush(), appConfig.logFlushIntervalMs);
    const handleVisibility = () => {
      if (document.visibilityState === 'hidden') void logger.flush({ keepalive: true });
    };
    const handleError = (event: ErrorEvent) => {
      logger.error(event.error ?? event.message, { during: 'window_error' });
    };
    const handleRejection = (event: PromiseRejectionEvent) => {
      logger.error(event.reason, { during: 'unhandled_rejection' });
    };
    document.addEventListener('visibilitychange', handleVisibility);
    window.addEventListener('error', handleError);
    window.addEventListener('unhandledrejection', handleRejection);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', handleVisibility);
      window.removeEventListener('error', handleError);
      window.removeEventListener('unhandledrejection', handleRejection);
    };
  }, []);
}

/** The app becomes inactive after 60 s hidden, unless a meeting integration keeps it awake. */
export function useInactivity() {
  useEffect(() => {
    let timer: number | undefined;
    const handleVisibility = () => {
      window.clearTimeout(timer);
      if (document.visibilityState === 'hidden') {
        timer = window.setTimeout(() => {
          if (!activityStore.get().meetingActive)
            activityStore.set((state) => ({ ...state, inactive: true }));
        }, appConfig.inactivityTimeoutMs);
      } else {
        activityStore.set((state) => (state.inactive ? { ...state, inactive: false } : state));
      }
    };
    document.addEventListener('visibilitychange', handleVisibility);
    return () => {
      window.clearTimeout(timer);
      document.removeEventListener('visibilitychange', handleVisibility);
    };
  }, []);
}

/**
 * Global keys (spec section 2): space and Return go to the page's registered action
 * (e.g. start and stop listening); in the additional mode Ctrl must be held. Keys typed
 * into a field or pressed on a control keep their usual meaning.
 */
export function useGlobalKeyboard() {
  useEffect(() => {
    const handleKeyDown = (event: KeyboardEvent) => {
      const target = event.target instanceof Element ? event.target : null;
      const action = keyboardActionFor(
        {
          key: event.key,
          ctrlKey: event.ctrlKey,
          altKey: event.altKey,
          metaKey: event.metaKey,
          repeat: event.repeat,
          defaultPrevented: event.defaultPrevented,
          onInteractiveElement: Boolean(
            target?.closest(
              'input, textarea, select, button, a, [contenteditable="true"], [role="button"], [role="dialog"]',
            ),
          ),
        },
        browserState.get('handsFreeOptions'),
      );
      if (action && keyboardActions.dispatch(action)) event.preventDefault();
    };
    window.addEventListener('keydown', handleKeyDown);
    return () => {
      window.removeEventListener('keydown', handleKeyDown);
    };
  }, []);
}
