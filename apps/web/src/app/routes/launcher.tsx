import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { LoadingScreen } from '../../components/feedback/loading-screen';
import { modelsQueryOptions } from '../../features/models/api/models.api';
import { subscriptionInfoQueryOptions } from '../../features/subscription/api/subscription.api';
import { normalizeError } from '../../lib/api-error';
import { browserState } from '../../lib/browser-state';
import { isModelBuilt, launcherTarget } from '../../lib/redirects';

/** `/`: loads the subscription info (forced), then sends the user to the right page (spec section 2). */
export function LauncherRoute() {
  const { t } = useTranslation();
  const subscription = useQuery({
    ...subscriptionInfoQueryOptions(),
    refetchOnMount: 'always',
    staleTime: 0,
  });
  const models = useQuery(modelsQueryOptions());
  const error = subscription.error ?? models.error;
  if (error) {
    return (
      <Container component="main" maxWidth="sm" sx={{ py: 6 }}>
        <Alert
          severity="error"
          action={
            <Button
              color="inherit"
              onClick={() => void Promise.all([subscription.refetch(), models.refetch()])}
            >
              {t('common.tryAgain')}
            </Button>
          }
        >
          {t('errors.withMessage', { message: normalizeError(error).message })}
        </Alert>
      </Container>
    );
  }
  if (subscription.isFetching || !models.data) return <LoadingScreen />;
  const target = launcherTarget({
    modelBuilt: isModelBuilt(models.data),
    lastOpenedTab: browserState.get('lastOpenedTab'),
    recognitionMode: browserState.get('recognitionMode'),
  });
  return <Navigate to={target} replace />;
}
