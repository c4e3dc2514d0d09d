import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { Component, useEffect, useState, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { appConfig } from '../../config/app-config';
import { logger } from '../../lib/api';
import { FALLBACK_ERROR_MESSAGE } from '../../lib/api-error';
import { autoReloadFor } from '../../lib/reload-policy';

/**
 * The fallback screen of spec section 8: the message and stack, and a Reload page
 * button. A chunk-load or 'not a function' error first tries one automatic reload
 * (at most once per 60 s for each kind).
 */
export function ErrorFallback({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const [reloading] = useState(() => autoReloadFor(error, appConfig.autoReloadThrottleMs));
  useEffect(() => {
    logger.error(error, { during: 'render' });
    void logger.flush({ keepalive: true });
  }, [error]);
  if (reloading) return null;
  const message =
    error instanceof Error ? error.message : typeof error === 'string' ? error : FALLBACK_ERROR_MESSAGE;
  const stack = error instanceof Error ? error.stack : undefined;
  return (
    <Container component="main" maxWidth="md" sx={{ py: { xs: 3, sm: 6 } }}>
      <Paper variant="outlined" sx={{ p: { xs: 3, sm: 5 } }} role="alert">
        <Typography variant="h1" sx={{ mb: 2 }}>
          {t('errors.fallbackTitle')}
        </Typography>
        <Typography sx={{ mb: 3 }}>{message || FALLBACK_ERROR_MESSAGE}</Typography>
        <Button
          variant="contained"
          size="large"
          onClick={() => {
            window.location.reload();
          }}
        >
          {t('errors.reload')}
        </Button>
        {stack && (
          <Box component="details" sx={{ mt: 4 }}>
            <Box component="summary" sx={{ cursor: 'pointer', minHeight: 48, display: 'list-item', py: 1 }}>
              {t('errors.technicalDetails')}
            </Box>
            <Box
              component="pre"
              sx={{
                whiteSpace: 'pre-wrap',
                wordBreak: 'break-word',
                fontSize: '0.875rem',
                bgcolor: 'grey.100',
                p: 2,
                borderRadius: 1,
              }}
            >
              {stack}
            </Box>
          </Box>
        )}
      </Paper>
    </Container>
  );
}

interface BoundaryState {
  error: unknown;
}

/** Catches render errors outside the router (providers) and shows the fallback screen. */
export class ErrorBoundary extends Component<{ children: ReactNode }, BoundaryState> {
  override state: BoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): BoundaryState {
    return { error };
  }

  override componentDidCatch(_error: unknown, _info: ErrorInfo) {
    // Logged by the fallback itself.
  }

  override render() {
    return this.state.error ? <ErrorFallback error={this.state.error} /> : this.props.children;
  }
}
