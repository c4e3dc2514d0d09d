import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Slider from '@mui/material/Slider';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { DEFAULT_LANGUAGE, DEFAULT_VOICE_PLAYBACK_SPEED } from '@parla/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { appConfig } from '../../../config/app-config';
import { voicesQueryOptions } from '../../../features/speech-output/api/tts.api';
import { pickVoice } from '../../../features/speech-output/voices';
import {
  browserState,
  type HandsFreeOptions,
  type RecognitionEngineChoice,
} from '../../../lib/browser-state';
import { SettingSwitch } from './setting-switch';

const DEFAULT_HANDS_FREE: HandsFreeOptions = { enabled: false, requireCtrl: false };

/** Voice playback and hands-free keys: kept in this browser. */
export function AudioSettingsRoute() {
  const { t } = useTranslation();
  const [speed, setSpeed] = useState(
    () => browserState.get('voicePlaybackSpeed') ?? DEFAULT_VOICE_PLAYBACK_SPEED,
  );
  const [handsFree, setHandsFree] = useState(
    () => browserState.get('handsFreeOptions') ?? DEFAULT_HANDS_FREE,
  );
  const [engine, setEngine] = useState<RecognitionEngineChoice>(
    () => browserState.get('recognitionEngine') ?? 'server',
  );
  const voices = useQuery(voicesQueryOptions());
  const [voiceId, setVoiceId] = useState(() => browserState.get('ttsVoiceId') ?? null);
  const voice = voices.data ? pickVoice(voices.data, voiceId, DEFAULT_LANGUAGE) : undefined;
  const changeHandsFree = (changes: Partial<HandsFreeOptions>) => {
    const next = { ...handsFree, ...changes };
    setHandsFree(next);
    browserState.set('handsFreeOptions', next);
  };
  return (
    <Stack spacing={2}>
      <TextField
        select
        label={t('recognition.engine')}
        value={engine}
        helperText={t('recognition.engineHelp')}
        onChange={(event) => {
          const next = event.target.value as RecognitionEngineChoice;
          setEngine(next);
          browserState.set('recognitionEngine', next);
        }}
        slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
      >
        <option value="server">{t('recognition.engineServer', { product: appConfig.productName })}</option>
        <option value="local">{t('recognition.engineLocal')}</option>
      </TextField>
      <TextField
        select
        label={t('speak.voice')}
        value={voice?.id ?? ''}
        helperText={t('settings.audio.voiceHelp')}
        disabled={!voices.data}
        onChange={(event) => {
          setVoiceId(event.target.value);
          browserState.set('ttsVoiceId', event.target.value);
        }}
        slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
      >
        {!voices.data && <option value="">{t('common.loading')}</option>}
        {voices.data?.map((option) => (
          <option key={option.id} value={option.id}>
            {option.name} ({option.locale})
          </option>
        ))}
      </TextField>
      <Paper variant="outlined" sx={{ px: 3, py: 2 }}>
        <Typography id="speed-label" sx={{ fontWeight: 600 }}>
          {t('settings.audio.speed')}
        </Typography>
        <Box sx={{ px: 1 }}>
          <Slider
            aria-labelledby="speed-label"
            value={speed}
            min={0.5}
            max={1.5}
            step={0.05}
            marks={[
              { value: 0.5, label: '0.5×' },
              { value: 1, label: '1×' },
              { value: 1.5, label: '1.5×' },
            ]}
            valueLabelDisplay="auto"
            getAriaValueText={(value) => `${value}×`}
            onChange={(_event, value) => {
              setSpeed(value);
            }}
            onChangeCommitted={(_event, value) => {
              browserState.set('voicePlaybackSpeed', value);
            }}
          />
        </Box>
        <Typography variant="body2" color="text.secondary">
          {t('settings.audio.speedHelp')}
        </Typography>
      </Paper>
      <SettingSwitch
        label={t('settings.audio.handsFree')}
        help={t('settings.audio.handsFreeHelp')}
        checked={handsFree.enabled}
        onChange={(checked) => {
          changeHandsFree({ enabled: checked });
        }}
      />
      <SettingSwitch
        label={t('settings.audio.requireCtrl')}
        help={t('settings.audio.requireCtrlHelp')}
        checked={handsFree.requireCtrl}
        onChange={(checked) => {
          changeHandsFree({ requireCtrl: checked });
        }}
      />
    </Stack>
  );
}
