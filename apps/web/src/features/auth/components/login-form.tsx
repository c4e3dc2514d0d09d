import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { z } from 'zod';
import { paths } from '../../../config/paths';
import { logger } from '../../../lib/api';
import { LegalRestrictionError, normalizeError } from '../../../lib/api-error';
import { sessionStore, startSession, type LegalRestriction } from '../../../lib/session';
import { useStore } from '../../../lib/store';
import { fieldProps } from '../../../components/form/register-field';
import { login } from '../api/auth.api';

const LoginFormSchema = z.object({
  email: z.string().trim().min(1, 'Enter your email address').pipe(z.email({ message: 'Enter a valid email address' })),
  password: z.string().min(1, 'Enter your password'),
});
type LoginFormValues = z.infer<typeof LoginFormSchema>;

/** A legal restriction from the server: its reason and details, shown where the user signs in. */
export function RestrictionNotice({ restriction }: { restriction: LegalRestriction }) {
  const { t } = useTranslation();
  return (
    <Alert severity="error" sx={{ mb: 3 }} role="alert">
      <AlertTitle>{t('auth.restrictedTitle')}</AlertTitle>
      <strong>{restriction.reason}</strong>
      {restriction.details && <Box sx={{ mt: 1 }}>{restriction.details}</Box>}
    </Alert>
  );
}

/** Email and password sign-in; on success the session starts and the guard moves on. */
export function LoginForm({ showLinks = true }: { showLinks?: boolean }) {
  const { t } = useTranslation();
  const { restriction: sessionRestriction } = useStore(sessionStore);
  const [restriction, setRestriction] = useState<LegalRestriction | null>(sessionRestriction);
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<LoginFormValues>({ resolver: zodResolver(LoginFormSchema), defaultValues: { email: '', password: '' } });

  const handleLogin = handleSubmit(async (values) => {
    setFailure(null);
    try {
      startSession(await login(values));
    } catch (error) {
      if (error instanceof LegalRestrictionError) {
        setRestriction({ reason: error.reason, details: error.details });
        return;
      }
      const { status, message } = normalizeError(error);
      if (status !== 401 && status !== 0) logger.error(error, { during: 'login' });
      setFailure(message);
    }
  });

  return (
    <>
      {restriction && <RestrictionNotice restriction={restriction} />}
      {failure && (
        <Alert severity="error" sx={{ mb: 3 }} role="alert">
          {failure}
        </Alert>
      )}
      <Box component="form" noValidate onSubmit={(event) => void handleLogin(event)}>
        <Stack spacing={2.5}>
          <TextField
            label={t('auth.email')}
            type="email"
            autoComplete="email"
            inputMode="email"
            required
            {...fieldProps(register, errors, 'email')}
          />
          <TextField
            label={t('auth.password')}
            type="password"
            autoComplete="current-password"
            required
            {...fieldProps(register, errors, 'password')}
          />
          <Button type="submit" variant="contained" size="large" disabled={isSubmitting}>
            {isSubmitting ? t('auth.loggingIn') : t('auth.login')}
          </Button>
        </Stack>
      </Box>
      {showLinks && (
        <Stack spacing={1.5} sx={{ mt: 3 }}>
          <Link component={RouterLink} to={paths.resetPassword.getHref()} sx={{ alignSelf: 'flex-start', py: 1 }}>
            {t('auth.forgotPassword')}
          </Link>
          <Box>
            {t('auth.noAccount')}{' '}
            <Link component={RouterLink} to={paths.signUp.getHref()} sx={{ display: 'inline-block', py: 1 }}>
              {t('auth.createAccount')}
            </Link>
          </Box>
        </Stack>
      )}
    </>
  );
}
