import { zodResolver } from '@hookform/resolvers/zod';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Typography from '@mui/material/Typography';
import { useSnackbar } from 'notistack';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { appConfig } from '../../../config/app-config';
import { logger } from '../../../lib/api';
import { normalizeError } from '../../../lib/api-error';
import { endSession } from '../../../lib/session';
import { useUpdateConsents } from '../api/consents.api';

const TermsFormSchema = z.object({
  isAgreed: z.boolean().refine((value) => value, 'It is required to agree'),
  marketing: z.boolean(),
});
type TermsForm = z.infer<typeof TermsFormSchema>;

/** Re-acceptance of the terms and privacy policy (spec sections 4 and 5). */
export function TermsDialog() {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const update = useUpdateConsents();
  const {
    control,
    handleSubmit,
    formState: { isDirty, isValid, errors },
  } = useForm<TermsForm>({
    resolver: zodResolver(TermsFormSchema),
    mode: 'onChange',
    defaultValues: { isAgreed: false, marketing: false },
  });

  const handleAccept = handleSubmit(async (values) => {
    try {
      await update.mutateAsync({
        accepted_tos: true,
        accepted_privacy_policy: true,
        marketing_consent: values.marketing,
      });
    } catch (error) {
      logger.error(error, { during: 'terms_consent' });
      enqueueSnackbar(t('errors.withMessage', { message: normalizeError(error).message }), {
        variant: 'error',
      });
    }
  });

  return (
    <Dialog open aria-labelledby="terms-title" aria-describedby="terms-body" maxWidth="sm" fullWidth>
      <form onSubmit={(event) => void handleAccept(event)} noValidate>
        <DialogTitle id="terms-title" component="h2" variant="h2">
          {t('consents.terms.title')}
        </DialogTitle>
        <DialogContent>
          <Typography id="terms-body" sx={{ mb: 2 }}>
            {t('consents.terms.body', { product: appConfig.productName })}
          </Typography>
          <Controller
            name="isAgreed"
            control={control}
            render={({ field }) => (
              <FormControlLabel
                control={
                  <Checkbox
                    checked={field.value}
                    onChange={(event) => {
                      field.onChange(event.target.checked);
                    }}
                    onBlur={field.onBlur}
                    slotProps={{
                      input: {
                        ref: field.ref,
                        'aria-describedby': errors.isAgreed ? 'terms-agree-error' : undefined,
                      },
                    }}
                  />
                }
                label={t('consents.terms.agree')}
              />
            )}
          />
          {errors.isAgreed && (
            <FormHelperText id="terms-agree-error" error sx={{ ml: 1.5 }}>
              {errors.isAgreed.message}
            </FormHelperText>
          )}
          <Controller
            name="marketing"
            control={control}
            render={({ field }) => (
              <FormControlLabel
                control={
                  <Checkbox
                    checked={field.value}
                    onChange={(event) => {
                      field.onChange(event.target.checked);
                    }}
                    onBlur={field.onBlur}
                    slotProps={{ input: { ref: field.ref } }}
                  />
                }
                label={t('consents.terms.marketing')}
              />
            )}
          />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 3, gap: 1, flexWrap: 'wrap' }}>
          <Button onClick={() => void endSession({ sendEvent: true })}>{t('nav.logout')}</Button>
          <Button type="submit" variant="contained" disabled={!isDirty || !isValid || update.isPending}>
            {t('consents.terms.accept')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
