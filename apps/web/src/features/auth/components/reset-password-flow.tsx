import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { NewPasswordSchema } from '@parla/contract';
import { useSnackbar } from 'notistack';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { fieldProps } from '../../../components/form/register-field';
import { paths } from '../../../config/paths';
import { normalizeError } from '../../../lib/api-error';
import { startSession } from '../../../lib/session';
import { forgotPassword, resetPassword, validateResetCode } from '../api/auth.api';

const EmailStep = z.object({
  email: z
    .string()
    .trim()
    .min(1, 'Enter your email address')
    .pipe(z.email({ message: 'Enter a valid email address' })),
});
const CodeStep = z.object({
  code: z
    .string()
    .trim()
    .regex(/^[0-9]{6}$/, 'Enter the 6 digits from the email'),
});
const PasswordStep = z
  .object({ password: NewPasswordSchema, confirm: z.string() })
  .refine((values) => values.password === values.confirm, {
    path: ['confirm'],
    message: 'The two passwords differ',
  });

type Step =
  | { name: 'email' }
  | { name: 'code'; email: string }
  | { name: 'password'; email: string; updateToken: string };

/**
 * Password reset by code (also used to change the password when signed in): the email
 * gets a 6-digit code, the code gives a one-time token, the token sets the new password.
 */
export function ResetPasswordFlow({ fixedEmail }: { fixedEmail?: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { enqueueSnackbar } = useSnackbar();
  const [step, setStep] = useState<Step>({ name: 'email' });
  const [failure, setFailure] = useState<string | null>(null);

  const emailForm = useForm<z.infer<typeof EmailStep>>({
    resolver: zodResolver(EmailStep),
    defaultValues: { email: fixedEmail ?? '' },
  });
  const codeForm = useForm<z.infer<typeof CodeStep>>({
    resolver: zodResolver(CodeStep),
    defaultValues: { code: '' },
  });
  const passwordForm = useForm<z.infer<typeof PasswordStep>>({
    resolver: zodResolver(PasswordStep),
    defaultValues: { password: '', confirm: '' },
  });

  const run = async (action: () => Promise<void>) => {
    setFailure(null);
    try {
      await action();
    } catch (error) {
      setFailure(normalizeError(error).message);
    }
  };

  const handleEmail = emailForm.handleSubmit((values) =>
    run(async () => {
      await forgotPassword(values.email);
      setStep({ name: 'code', email: values.email });
    }),
  );
  const handleCode = codeForm.handleSubmit((values) =>
    run(async () => {
      if (step.name !== 'code') return;
      const { update_token } = await validateResetCode(step.email, values.code);
      setStep({ name: 'password', email: step.email, updateToken: update_token });
    }),
  );
  const handlePassword = passwordForm.handleSubmit((values) =>
    run(async () => {
      if (step.name !== 'password') return;
      startSession(
        await resetPassword({ email: step.email, updateToken: step.updateToken, password: values.password }),
      );
      enqueueSnackbar(t('reset.done'), { variant: 'success' });
      await navigate(paths.launcher.getHref(), { replace: true });
    }),
  );

  return (
    <Stack spacing={2.5}>
      {failure && (
        <Alert severity="error" role="alert">
          {failure}
        </Alert>
      )}
      {step.name === 'email' && (
        <Stack component="form" spacing={2.5} noValidate onSubmit={(event) => void handleEmail(event)}>
          <TextField
            label={t('auth.email')}
            type="email"
            autoComplete="email"
            required
            slotProps={{ htmlInput: { readOnly: Boolean(fixedEmail) } }}
            {...fieldProps(emailForm.register, emailForm.formState.errors, 'email')}
          />
          <Button type="submit" variant="contained" size="large" disabled={emailForm.formState.isSubmitting}>
            {t('reset.sendCode')}
          </Button>
        </Stack>
      )}
      {step.name === 'code' && (
        <Stack component="form" spacing={2.5} noValidate onSubmit={(event) => void handleCode(event)}>
          <Typography role="status">{t('reset.codeSent', { email: step.email })}</Typography>
          <TextField
            label={t('reset.code')}
            autoComplete="one-time-code"
            inputMode="numeric"
            required
            {...fieldProps(codeForm.register, codeForm.formState.errors, 'code')}
          />
          <Button type="submit" variant="contained" size="large" disabled={codeForm.formState.isSubmitting}>
            {t('reset.checkCode')}
          </Button>
          <Button onClick={() => void handleEmail()}>{t('reset.sendAgain')}</Button>
        </Stack>
      )}
      {step.name === 'password' && (
        <Stack component="form" spacing={2.5} noValidate onSubmit={(event) => void handlePassword(event)}>
          <TextField
            label={t('reset.newPassword')}
            type="password"
            autoComplete="new-password"
            required
            {...fieldProps(
              passwordForm.register,
              passwordForm.formState.errors,
              'password',
              t('signUp.passwordHelp'),
            )}
          />
          <TextField
            label={t('reset.confirmPassword')}
            type="password"
            autoComplete="new-password"
            required
            {...fieldProps(passwordForm.register, passwordForm.formState.errors, 'confirm')}
          />
          <Button
            type="submit"
            variant="contained"
            size="large"
            disabled={passwordForm.formState.isSubmitting}
          >
            {t('reset.setPassword')}
          </Button>
        </Stack>
      )}
    </Stack>
  );
}
