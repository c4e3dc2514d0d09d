import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import SvgIcon from '@mui/material/SvgIcon';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { appConfig } from '../../../config/app-config';
import { paths } from '../../../config/paths';
import { keyboardActions } from '../../../lib/app-activity';
import type { useRecognition } from '../hooks/use-recognition';

type Recognition = ReturnType<typeof useRecognition>;

function MicGlyph() {
  return (
    <SvgIcon>
      <rect x="9" y="2" width="6" height="12" rx="3" />
      <path d="M5 11a7 7 0 0 0 14 0h-2a5 5 0 0 1-10 0zM11 18h2v4h-2z" />
    </SvgIcon>
  );
}

function StopGlyph() {
  return (
    <SvgIcon>
      <rect x="6" y="6" width="12" height="12" rx="2" />
    </SvgIcon>
  );
}

/** What the recogniser is doing, in words, announced when it changes. */
export function RecognitionStatus({ recognition }: { recognition: Recognition }) {
  const { t } = useTranslation();
  const { state, microphone } = recognition;
  const product = appConfig.productName;
  let severity: 'info' | 'success' | 'warning' | 'error' = 'info';
  let text: string;
  let action: React.ReactNode = null;
  if (state.problem) {
    severity = 'error';
    switch (state.problem.code) {
      case 'consents_required':
        text = t('recognition.status.consentsRequired');
        break;
      case 'signed_out':
        text = t('recognition.status.signedOut');
        break;
      case 'already_streaming':
        severity = 'warning';
        text = t('recognition.status.alreadyStreaming');
        break;
      case 'server':
        text = t('recognition.status.server', { message: state.problem.message });
        break;
      case 'local_failed':
        text = t('recognition.status.localFailed', { message: state.problem.message });
        break;
    }
    if (state.problem.code !== 'signed_out')
      action = (
        <Button color="inherit" variant="outlined" onClick={recognition.reconnect}>
          {t('recognition.reconnect')}
        </Button>
      );
  } else if (state.model === 'model_missing') {
    severity = 'warning';
    text = t('recognition.status.modelMissing', { product });
    action = (
      <Button component={RouterLink} to={paths.record.getHref()} color="inherit" variant="outlined">
        {t('recognition.recordPhrases')}
      </Button>
    );
  } else if (state.model === 'model_loading_error') {
    severity = 'error';
    text = t('recognition.status.modelError', { message: state.modelMessage ?? '' });
    action = (
      <Button color="inherit" onClick={recognition.reconnect}>
        {t('recognition.reconnect')}
      </Button>
    );
  } else if (state.connection === 'disconnected' || state.connection === 'connecting') {
    severity = state.connection === 'disconnected' ? 'warning' : 'info';
    text =
      state.connection === 'connecting'
        ? t('recognition.status.connecting')
        : t('recognition.status.disconnected');
  } else if (state.connection === 'connected' || state.model !== 'model_ready') {
    text = t('recognition.status.loading');
  } else if (microphone.status === 'paused') {
    severity = 'warning';
    text = t('recognition.paused');
  } else if (state.processing) {
    text = t('recognition.status.processing');
  } else {
    severity = 'success';
    text =
      recognition.engine === 'local' ? t('recognition.status.readyLocal') : t('recognition.status.ready');
  }
  if (microphone.status === 'paused' && state.connection !== 'ready') {
    text = `${text} ${t('recognition.paused')}`;
  }
  return (
    <Box aria-live="polite" aria-atomic="true" data-testid="recognition-status">
      <Alert severity={severity} role={severity === 'error' ? 'alert' : 'status'}>
        {text}
        {/* Below the words rather than beside them, so a phone keeps a readable line length. */}
        {action && <Box sx={{ mt: 1.5 }}>{action}</Box>}
      </Alert>
      {microphone.status === 'error' && (
        <Alert severity="error" role="alert" sx={{ mt: 1 }}>
          {t(`recognition.micErrors.${microphone.code}`)}
        </Alert>
      )}
    </Box>
  );
}

/** The live microphone level, as a meter. */
export function LevelMeter({ level, active }: { level: number; active: boolean }) {
  const { t } = useTranslation();
  // Speech sits around 0.05-0.3 RMS: a square-root scale makes quiet speech visible.
  const percent = active ? Math.min(100, Math.round(Math.sqrt(level) * 180)) : 0;
  return (
    <Box
      role="meter"
      aria-label={t('recognition.level')}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      sx={{
        height: 12,
        borderRadius: 6,
        bgcolor: 'grey.200',
        border: 1,
        borderColor: 'grey.500',
        overflow: 'hidden',
        width: '100%',
      }}
    >
      <Box
        sx={{
          height: '100%',
          width: `${percent}%`,
          bgcolor: percent > 90 ? 'error.main' : 'primary.main',
          transition: 'width 50ms linear',
        }}
      />
    </Box>
  );
}

/** Start and stop listening, the level meter and the listening mode; Space is the same as the button. */
export function ListenControls({ recognition }: { recognition: Recognition }) {
  const { t } = useTranslation();
  const { listening, ready, microphone, listeningMode } = recognition;
  const paused = microphone.status === 'paused';
  const active = listening || paused;
  const toggle = active ? recognition.stopListening : recognition.startListening;

  useEffect(() => keyboardActions.register('space', toggle), [toggle]);

  // Nothing to listen with yet: the status above links to recording instead.
  if (recognition.state.model === 'model_missing' && !active) return null;

  const statusText =
    microphone.status === 'opening'
      ? t('recognition.opening')
      : listening
        ? listeningMode === 'hands_free'
          ? t('recognition.listeningHandsFree')
          : t('recognition.listeningPress')
        : paused
          ? t('recognition.paused')
          : t('recognition.notListening');

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
        <Button
          variant={active ? 'outlined' : 'contained'}
          color={active ? 'secondary' : 'primary'}
          size="large"
          onClick={toggle}
          disabled={!active && !ready}
          startIcon={active ? <StopGlyph /> : <MicGlyph />}
          sx={{ minHeight: 64, minWidth: 220, fontSize: '1.25rem', px: 4 }}
        >
          {active ? t('recognition.stopListening') : t('recognition.listen')}
        </Button>
        <ToggleButtonGroup
          exclusive
          value={listeningMode}
          onChange={(_event, value: typeof listeningMode | null) => {
            if (value) recognition.setListeningMode(value);
          }}
          aria-label={t('recognition.mode')}
        >
          <ToggleButton value="press" sx={{ minHeight: 48, px: 2 }}>
            {t('recognition.press')}
          </ToggleButton>
          <ToggleButton value="hands_free" sx={{ minHeight: 48, px: 2 }}>
            {t('recognition.handsFree')}
          </ToggleButton>
        </ToggleButtonGroup>
      </Box>
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 0.5, maxWidth: 480 }}>
        <Typography variant="body2" aria-live="polite">
          {statusText}
        </Typography>
        <LevelMeter level={recognition.level} active={listening} />
      </Box>
      {/* Said while it holds, between presses too: the server (or the worker) says when it
          stops (decision 0076). */}
      {recognition.state.drownedBy && (
        <Alert severity="warning" role="status" data-testid="room-too-loud" sx={{ maxWidth: 640 }}>
          {t(`recognition.roomTooLoud.${recognition.state.drownedBy}`, { product: appConfig.productName })}
        </Alert>
      )}
      {/* The last press ended with nothing understood: say so, or it looks like nothing happened. */}
      {recognition.state.missed && (
        <Alert severity="info" role="status" data-testid="nothing-understood" sx={{ maxWidth: 640 }}>
          {t(`recognition.missed.${recognition.state.missed}`)}
        </Alert>
      )}
      {recognition.state.partial && (
        <Typography variant="body1" color="text.secondary" data-testid="partial-text">
          {t('recognition.hearing', { text: recognition.state.partial })}
        </Typography>
      )}
    </Box>
  );
}
