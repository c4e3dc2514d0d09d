import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Slider from '@mui/material/Slider';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { DEFAULT_VOICE_PLAYBACK_SPEED } from '@parla/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { browserState, type HandsFreeOptions } from '../../../lib/browser-state';
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
  const changeHandsFree = (changes: Partial<HandsFreeOptions>) => {
    const next = { ...handsFree, ...changes };
    setHandsFree(next);
    browserState.set('handsFreeOptions', next);
  };
  return (
    <Stack spacing={2}>
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
