import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Slider from '@mui/material/Slider';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMutation } from '@tanstack/react-query';
import { useSnackbar } from 'notistack';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadingScreen } from '../../../components/feedback/loading-screen';
import { useUser } from '../../../features/auth/api/auth.api';
import { useUpdateConsents } from '../../../features/consents/api/consents.api';
import { useUpdateUserSettings, useUserSettings } from '../../../features/settings/api/settings.api';
import { api } from '../../../lib/api';
import { normalizeError } from '../../../lib/api-error';
import { endSession } from '../../../lib/session';
import { SettingSwitch } from './setting-switch';

function DeleteAccount() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [optOut, setOptOut] = useState({ recognition: false, training: false });
  const remove = useMutation({
    mutationFn: () =>
      api.request('/app/end_user/delete_account', {
        method: 'DELETE',
        body: { opt_out_audio_recognition: optOut.recognition, opt_out_audio_training: optOut.training },
      }),
    onSuccess: () => endSession({ sendEvent: false }),
  });
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="delete-title"
      sx={{ p: { xs: 2.5, sm: 3 }, borderColor: 'error.main' }}
    >
      <Typography id="delete-title" variant="h2" sx={{ mb: 1 }}>
        {t('settings.extra.deleteTitle')}
      </Typography>
      <Typography sx={{ mb: 2 }}>{t('settings.extra.deleteBody')}</Typography>
      <Button
        color="error"
        variant="outlined"
        onClick={() => {
          setOpen(true);
        }}
      >
        {t('settings.extra.deleteButton')}
      </Button>
      <Dialog
        open={open}
        onClose={() => {
          setOpen(false);
        }}
        aria-labelledby="delete-dialog-title"
      >
        <DialogTitle id="delete-dialog-title">{t('settings.extra.deleteConfirmTitle')}</DialogTitle>
        <DialogContent>
          <Typography sx={{ mb: 2 }}>{t('settings.extra.deleteConfirmBody')}</Typography>
          <FormControlLabel
            control={
              <Checkbox
                checked={optOut.recognition}
                onChange={(event) => {
                  setOptOut((state) => ({ ...state, recognition: event.target.checked }));
                }}
              />
            }
            label={t('signUp.optOutRecognition')}
          />
          <FormControlLabel
            control={
              <Checkbox
                checked={optOut.training}
                onChange={(event) => {
                  setOptOut((state) => ({ ...state, training: event.target.checked }));
                }}
              />
            }
            label={t('signUp.optOutTraining')}
          />
          {remove.isError && <Alert severity="error">{normalizeError(remove.error).message}</Alert>}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 3 }}>
          <Button
            onClick={() => {
              setOpen(false);
            }}
          >
            {t('common.cancel')}
          </Button>
          <Button
            color="error"
            variant="contained"
            disabled={remove.isPending}
            onClick={() => remove.mutate()}
          >
            {t('settings.extra.deleteForever')}
          </Button>
        </DialogActions>
      </Dialog>
    </Paper>
  );
}

/** Personal recognition details, cookie choice, and account deletion. */
export function ExtraSettingsRoute() {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const settings = useUserSettings();
  const update = useUpdateUserSettings();
  const user = useUser();
  const consents = useUpdateConsents();
  const [silence, setSilence] = useState<number | null>(null);
  if (settings.isPending || user.isPending) return <LoadingScreen />;
  if (settings.isError)
    return (
      <Alert severity="error">
        {t('errors.withMessage', { message: normalizeError(settings.error).message })}
      </Alert>
    );
  const reportError = (error: unknown) => {
    enqueueSnackbar(t('errors.withMessage', { message: normalizeError(error).message }), {
      variant: 'error',
    });
  };
  const saved = () => {
    enqueueSnackbar(t('settings.saved'), { variant: 'success', preventDuplicate: true });
  };
  const nonEssential = user.data?.cookies_consent_types?.includes('non_essential') ?? false;
  return (
    <Stack spacing={2}>
      <SettingSwitch
        label={t('settings.extra.discrete')}
        help={t('settings.extra.discreteHelp')}
        checked={settings.data.discrete_enabled}
        onChange={(checked) => {
          update.mutate({ discrete_enabled: checked }, { onSuccess: saved, onError: reportError });
        }}
      />
      <Paper variant="outlined" sx={{ px: 3, py: 2 }}>
        <Typography id="silence-label" sx={{ fontWeight: 600 }}>
          {t('settings.extra.silence')}
        </Typography>
        <Box sx={{ px: 1 }}>
          <Slider
            aria-labelledby="silence-label"
            value={silence ?? settings.data.min_silence_length_seconds}
            min={0.1}
            max={5}
            step={0.1}
            marks={[
              { value: 0.3, label: '0.3 s' },
              { value: 5, label: '5 s' },
            ]}
            valueLabelDisplay="auto"
            getAriaValueText={(value) => t('settings.extra.seconds', { value })}
            onChange={(_event, value) => {
              setSilence(value);
            }}
            onChangeCommitted={(_event, value) => {
              update.mutate(
                { min_silence_length_seconds: Math.round(value * 10) / 10 },
                { onSuccess: saved, onError: reportError },
              );
            }}
          />
        </Box>
        <Typography variant="body2" color="text.secondary">
          {t('settings.extra.silenceHelp')}
        </Typography>
      </Paper>
      <SettingSwitch
        label={t('settings.extra.cookies')}
        help={t('settings.extra.cookiesHelp')}
        checked={nonEssential}
        disabled={consents.isPending}
        onChange={(checked) => {
          consents.mutate(
            { cookies_consent_types: checked ? ['essential', 'non_essential'] : ['essential'] },
            { onSuccess: saved, onError: reportError },
          );
        }}
      />
      <DeleteAccount />
    </Stack>
  );
}
