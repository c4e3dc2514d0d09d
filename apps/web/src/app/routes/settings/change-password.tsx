import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { LoadingScreen } from '../../../components/feedback/loading-screen';
import { useUser } from '../../../features/auth/api/auth.api';
import { ResetPasswordFlow } from '../../../features/auth/components/reset-password-flow';

/** A new password, confirmed by a code sent to the account's email. */
export function ChangePasswordRoute() {
  const { t } = useTranslation();
  const user = useUser();
  if (!user.data) return <LoadingScreen />;
  return (
    <>
      <Typography sx={{ mb: 3 }}>{t('settings.changePassword.intro')}</Typography>
      <ResetPasswordFlow fixedEmail={user.data.email} />
    </>
  );
}
