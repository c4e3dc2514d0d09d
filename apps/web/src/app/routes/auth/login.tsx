import { useTranslation } from 'react-i18next';
import { CardPage } from '../../../components/layout/page';
import { appConfig } from '../../../config/app-config';
import { LoginForm } from '../../../features/auth/components/login-form';

export function LoginRoute() {
  const { t } = useTranslation();
  return (
    <CardPage title={t('auth.loginTitle')} intro={t('auth.loginIntro', { product: appConfig.productName })}>
      <LoginForm />
    </CardPage>
  );
}
