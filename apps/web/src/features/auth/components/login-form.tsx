import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { useState, type ChangeEvent, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../../config/paths';
import { logger } from '../../../lib/api';
import { LegalRestrictionError, normalizeError } from '../../../lib/api-error';
import { sessionStore, startSession, type LegalRestriction } from '../../../lib/session';
import { useStore } from '../../../lib/store';
import { TextInput } from '../../../components/form/text-input';
import { login } from '../api/auth.api';

interface LoginFormValues {
  email: string;
  password: string;
}

// Two fields need no schema library: the login screen stays light.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

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
  const [values, setValues] = useState<LoginFormValues>({ email: '', password: '' });
  const [errors, setErrors] = useState<Partial<LoginFormValues>>({});
  const [submitting, setSubmitting] = useState(false);

  const validate = (): Partial<LoginFormValues> => {
    const email = values.email.trim();
    const found: Partial<LoginFormValues> = {};
    if (!email) found.email = t('auth.enterEmail');
    else if (!EMAIL_PATTERN.test(email)) found.email = t('auth.invalidEmail');
    if (!values.password) found.password = t('auth.enterPassword');
    return found;
  };

  const handleLogin = async (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = validate();
    setErrors(found);
    if (found.email ?? found.password) {
      document.getElementById(found.email ? 'login-email' : 'login-password')?.focus();
      return;
    }
    setFailure(null);
    setSubmitting(true);
    try {
      startSession(await login({ email: values.email.trim(), password: values.password }));
    } catch (error) {
      setSubmitting(false);
      if (error instanceof LegalRestrictionError) {
        setRestriction({ reason: error.reason, details: error.details });
        return;
      }
      const { status, message } = normalizeError(error);
      if (status !== 401 && status !== 0) logger.error(error, { during: 'login' });
      setFailure(message);
    }
  };

  const handleChange = (field: keyof LoginFormValues) => (event: ChangeEvent<HTMLInputElement>) => {
    setValues((current) => ({ ...current, [field]: event.target.value }));
  };

  return (
    <>
      {restriction && <RestrictionNotice restriction={restriction} />}
      {failure && (
        <Alert severity="error" sx={{ mb: 3 }} role="alert">
          {failure}
        </Alert>
      )}
      <Box
        component="form"
        noValidate
        onSubmit={(event: SyntheticEvent<HTMLFormElement>) => void handleLogin(event)}
      >
        <Stack spacing={2.5}>
          <TextInput
            id="login-email"
            label={t('auth.email')}
            type="email"
            autoComplete="email"
            inputMode="email"
            required
            value={values.email}
            onChange={handleChange('email')}
            error={errors.email}
          />
          <TextInput
            id="login-password"
            label={t('auth.password')}
            type="password"
            autoComplete="current-password"
            required
            value={values.password}
            onChange={handleChange('password')}
            error={errors.password}
          />
          <Button type="submit" variant="contained" size="large" disabled={submitting}>
            {submitting ? t('auth.loggingIn') : t('auth.login')}
          </Button>
        </Stack>
      </Box>
      {showLinks && (
        <Stack spacing={1.5} sx={{ mt: 3 }}>
          <Link
            component={RouterLink}
            to={paths.resetPassword.getHref()}
            sx={{ alignSelf: 'flex-start', py: 1 }}
          >
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
