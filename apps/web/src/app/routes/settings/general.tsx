import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { UserSettings } from '@parla/contract';
import { useSnackbar } from 'notistack';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadingScreen } from '../../../components/feedback/loading-screen';
import { useUpdateUserSettings, useUserSettings } from '../../../features/settings/api/settings.api';
import { normalizeError } from '../../../lib/api-error';
import { browserState, type RecognitionMode } from '../../../lib/browser-state';
import { SUPPORTED_LANGUAGES } from '../../../lib/i18n';
import { SettingSwitch } from './setting-switch';

/** Recognition behaviour stored on the server, and the mode and language of this browser. */
export function GeneralSettingsRoute() {
  const { t, i18n } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const settings = useUserSettings();
  const update = useUpdateUserSettings();
  const [mode, setMode] = useState<RecognitionMode | ''>(() => browserState.get('recognitionMode') ?? '');

  const handleChange = (changes: Partial<UserSettings>) => {
    update.mutate(changes, {
      onSuccess: () => enqueueSnackbar(t('settings.saved'), { variant: 'success', preventDuplicate: true }),
      onError: (error) =>
        enqueueSnackbar(t('errors.withMessage', { message: normalizeError(error).message }), {
          variant: 'error',
        }),
    });
  };

  if (settings.isPending) return <LoadingScreen />;
  if (settings.isError)
    return (
      <Alert severity="error">
        {t('errors.withMessage', { message: normalizeError(settings.error).message })}
      </Alert>
    );
  const values = settings.data;
  const native = { slotProps: { select: { native: true }, inputLabel: { shrink: true } } } as const;
  return (
    <Stack spacing={2}>
      <TextField
        select
        label={t('settings.general.mode')}
        value={mode}
        helperText={t('settings.general.modeHelp')}
        onChange={(event) => {
          const next = event.target.value as RecognitionMode;
          setMode(next);
          browserState.set('recognitionMode', next);
        }}
        {...native}
      >
        <option value="" disabled>
          {t('common.notSet')}
        </option>
        <option value="speak">{t('modes.speak.title')}</option>
        <option value="dictate">{t('modes.dictate.title')}</option>
      </TextField>
      <TextField
        select
        label={t('settings.general.language')}
        value={i18n.language}
        onChange={(event) => void i18n.changeLanguage(event.target.value)}
        {...native}
      >
        {Object.entries(SUPPORTED_LANGUAGES).map(([tag, name]) => (
          <option key={tag} value={tag}>
            {name}
          </option>
        ))}
      </TextField>
      <SettingSwitch
        label={t('settings.general.streaming')}
        help={t('settings.general.streamingHelp')}
        checked={values.use_streaming_model}
        onChange={(checked) => {
          handleChange({ use_streaming_model: checked });
        }}
      />
      <SettingSwitch
        label={t('settings.general.profanities')}
        help={t('settings.general.profanitiesHelp')}
        checked={values.filter_profanities}
        onChange={(checked) => {
          handleChange({ filter_profanities: checked });
        }}
      />
      <SettingSwitch
        label={t('settings.general.chat')}
        help={t('settings.general.chatHelp')}
        checked={values.chat_gpt_enabled}
        onChange={(checked) => {
          handleChange({ chat_gpt_enabled: checked });
        }}
      />
    </Stack>
  );
}
