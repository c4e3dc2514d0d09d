import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSnackbar } from 'notistack';
import { useTranslation } from 'react-i18next';
import { Navigate, Link as RouterLink, useNavigate } from 'react-router';
import { LoadingScreen } from '../../../components/feedback/loading-screen';
import { CardPage } from '../../../components/layout/page';
import { appConfig } from '../../../config/app-config';
import { paths } from '../../../config/paths';
import { SignUpForm } from '../../../features/auth/components/sign-up-form';
import {
  profileKeys,
  profileQueryOptions,
  profileStatusQueryOptions,
  useUpdateProfile,
} from '../../../features/profile/api/profile.api';
import { ProfileForm } from '../../../features/profile/components/profile-form';
import { normalizeError } from '../../../lib/api-error';
import { sessionStore, userQueryKey } from '../../../lib/session';
import { useStore } from '../../../lib/store';

/** Profile set-up: a signed-in user whose mandatory profile fields are missing. */
function ProfileSetup() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { enqueueSnackbar } = useSnackbar();
  const status = useQuery(profileStatusQueryOptions());
  const profile = useQuery({ ...profileQueryOptions(), enabled: status.data?.is_created === true });
  const update = useUpdateProfile();
  if (status.isPending || (status.data?.is_created && profile.isPending)) return <LoadingScreen />;
  if (status.isError)
    return (
      <Alert severity="error">
        {t('errors.withMessage', { message: normalizeError(status.error).message })}
      </Alert>
    );
  if (status.data.is_mandatory_filled && !update.isSuccess)
    return <Navigate to={paths.launcher.getHref()} replace />;

  const handleSubmit = async (values: Record<string, unknown>) => {
    try {
      await update.mutateAsync(values);
      await queryClient.invalidateQueries({ queryKey: profileKeys.status });
      await queryClient.invalidateQueries({ queryKey: userQueryKey });
      enqueueSnackbar(t('profile.saved'), { variant: 'success' });
      await navigate(paths.launcher.getHref(), { replace: true });
    } catch (error) {
      enqueueSnackbar(t('errors.withMessage', { message: normalizeError(error).message }), {
        variant: 'error',
      });
    }
  };

  return (
    <>
      <Alert severity="warning" sx={{ mb: 3 }}>
        {t('profile.setupFirst')}
      </Alert>
      <ProfileForm
        initial={profile.data}
        submitLabel={t('profile.saveAndContinue')}
        onSubmit={handleSubmit}
      />
    </>
  );
}

export function SignUpRoute() {
  const { t } = useTranslation();
  const { status } = useStore(sessionStore);
  if (status === 'init') return <LoadingScreen />;
  if (status === 'signed_in') {
    return (
      <CardPage
        title={t('profile.setupTitle')}
        intro={t('profile.setupIntro', { product: appConfig.productName })}
      >
        <ProfileSetup />
      </CardPage>
    );
  }
  return (
    <CardPage title={t('signUp.title')} intro={t('signUp.intro', { product: appConfig.productName })}>
      <SignUpForm />
      <Box sx={{ mt: 3 }}>
        {t('signUp.haveAccount')}{' '}
        <Link component={RouterLink} to={paths.login.getHref()} sx={{ display: 'inline-block', py: 1 }}>
          {t('auth.login')}
        </Link>
      </Box>
    </CardPage>
  );
}
