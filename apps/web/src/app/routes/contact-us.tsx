import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { SUPPORT_TYPES } from '@parla/contract';
import { useSnackbar } from 'notistack';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { fieldProps } from '../../components/form/register-field';
import { Page } from '../../components/layout/page';
import { appConfig } from '../../config/app-config';
import { useSendSupportMessage } from '../../features/support/api/support.api';
import { normalizeError } from '../../lib/api-error';

const ContactSchema = z.object({
  type: z.enum(SUPPORT_TYPES),
  text: z.string().trim().min(1, 'Write your message').max(5000, 'Use at most 5000 characters'),
});
type ContactValues = z.infer<typeof ContactSchema>;

/** A message to the support team (POST /app/support). */
export function ContactUsRoute() {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const send = useSendSupportMessage();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<ContactValues>({
    resolver: zodResolver(ContactSchema),
    defaultValues: { type: 'question', text: '' },
  });

  const handleSend = handleSubmit(async (values) => {
    try {
      await send.mutateAsync(values);
      reset();
      enqueueSnackbar(t('contactUs.sent'), { variant: 'success' });
    } catch (error) {
      enqueueSnackbar(t('errors.withMessage', { message: normalizeError(error).message }), {
        variant: 'error',
      });
    }
  });

  return (
    <Page
      title={t('contactUs.title')}
      intro={t('contactUs.intro', { email: appConfig.supportEmail })}
      width="sm"
    >
      {send.isSuccess && (
        <Alert severity="success" sx={{ mb: 3 }}>
          {t('contactUs.sentLong')}
        </Alert>
      )}
      <Stack component="form" spacing={2.5} noValidate onSubmit={(event) => void handleSend(event)}>
        <TextField
          select
          label={t('contactUs.type')}
          slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
          {...fieldProps(register, errors, 'type')}
        >
          {SUPPORT_TYPES.map((type) => (
            <option key={type} value={type}>
              {t(`contactUs.types.${type}`)}
            </option>
          ))}
        </TextField>
        <TextField
          label={t('contactUs.message')}
          multiline
          minRows={6}
          required
          {...fieldProps(register, errors, 'text')}
        />
        <Typography variant="body2" color="text.secondary">
          {t('contactUs.privacy')}
        </Typography>
        <Button type="submit" variant="contained" size="large" disabled={isSubmitting}>
          {t('contactUs.send')}
        </Button>
      </Stack>
    </Page>
  );
}
