import CssBaseline from '@mui/material/CssBaseline';
import GlobalStyles from '@mui/material/GlobalStyles';
import { ThemeProvider } from '@mui/material/styles';
import { QueryClientProvider } from '@tanstack/react-query';
import { MaterialDesignContent, SnackbarProvider } from 'notistack';
import { styled } from '@mui/material/styles';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { ErrorBoundary } from '../components/feedback/error-fallback';
import { appConfig } from '../config/app-config';
import { i18n } from '../lib/i18n';
import { queryClient } from '../lib/query-client';
import { theme } from './theme';

const globalStyles = (
  <GlobalStyles
    styles={{
      // Toasts start below the 64 px header so they never cover its Menu button.
      '.toasts-below-header': { top: '72px !important' },
      '.skip-link': {
        position: 'absolute',
        left: 8,
        top: -64,
        zIndex: 2000,
        padding: '12px 16px',
        background: '#ffffff',
        color: '#0b4f6c',
        fontWeight: 700,
        borderRadius: 8,
      },
      '.skip-link:focus': { top: 8 },
      'main:focus': { outline: 'none' },
    }}
  />
);

// Toast colours with at least 4.5:1 contrast for their white text, and readable type.
const Toast = styled(MaterialDesignContent)(() => ({
  fontSize: '1rem',
  fontWeight: 500,
  '&.notistack-MuiContent-success': { backgroundColor: '#1e6b34' },
  '&.notistack-MuiContent-error': { backgroundColor: '#b3261e' },
  '&.notistack-MuiContent-warning': { backgroundColor: '#7a4a00' },
  '&.notistack-MuiContent-info': { backgroundColor: '#0b4f6c' },
  '&.notistack-MuiContent-default': { backgroundColor: '#15202b' },
}));
const toastComponents = { success: Toast, error: Toast, warning: Toast, info: Toast, default: Toast };

/** Everything the screens rely on: theme, translations, server cache, toasts, error fallback. */
export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      {globalStyles}
      <I18nextProvider i18n={i18n}>
        <ErrorBoundary>
          <QueryClientProvider client={queryClient}>
            <SnackbarProvider
              maxSnack={appConfig.maxToasts}
              dense
              anchorOrigin={{ vertical: 'top', horizontal: 'center' }}
              classes={{ containerAnchorOriginTopCenter: 'toasts-below-header' }}
              autoHideDuration={6000}
              Components={toastComponents}
            >
              {children}
            </SnackbarProvider>
          </QueryClientProvider>
        </ErrorBoundary>
      </I18nextProvider>
    </ThemeProvider>
  );
}
