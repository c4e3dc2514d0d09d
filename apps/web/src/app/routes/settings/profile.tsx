import Alert from '@mui/material/Alert';
import { useQueryClient } from '@tanstack/react-query';
import { useSnackbar } from 'notistack';
import { useTranslation } from 'react-i18next';
import { LoadingScreen } from '../../../components/feedback/loading-screen';
import { profileKeys, useProfile, useUpdateProfile } from '../../../features/profile/api/profile.api';
import { ProfileForm } from '../../../features/profile/components/profile-form';
import { normalizeError } from '../../../lib/api-error';
import { userQueryKey } from '../../../lib/session';

export function ProfileSettingsRoute() {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const queryClient = useQueryClient();
  const profile = useProfile();
  const update = useUpdateProfile();
  if (profile.isPending) return <LoadingScreen />;
  if (profile.isError)
    return (
      <Alert severity="error">
        {t('errors.withMessage', { message: normalizeError(profile.error).message })}
      </Alert>
    );
  const handleSubmit = async (values: Record<string, unknown>) => {
    try {
      await update.mutateAsync(values);
      await queryClient.invalidateQueries({ queryKey: profileKeys.status });
      await queryClient.invalidateQueries({ queryKey: userQueryKey });
      enqueueSnackbar(t('profile.saved'), { variant: 'success' });
    } catch (error) {
      enqueueSnackbar(t('errors.withMessage', { message: normalizeError(error).message }), {
        variant: 'error',
      });
    }
  };
  return <ProfileForm initial={profile.data} submitLabel={t('common.save')} onSubmit={handleSubmit} />;
}
