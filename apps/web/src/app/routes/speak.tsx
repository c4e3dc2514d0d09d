import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import Paper from '@mui/material/Paper';
import Slider from '@mui/material/Slider';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { RecognitionResult } from '@parla/contract';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { Page } from '../../components/layout/page';
import { paths } from '../../config/paths';
import { shortcutPhrasesQueryOptions } from '../../features/shortcuts/api/shortcuts.api';
import { expandShortcut } from '../../features/recognition/shortcuts';
import { ConfirmChoices } from '../../features/recognition/components/confirm-choices';
import { questionKey } from '../../features/recognition/question-key';
import {
  ListenControls,
  RecognitionStatus,
} from '../../features/recognition/components/recognition-controls';
import { useRecognition } from '../../features/recognition/hooks/use-recognition';
import { useSpeechPlayer } from '../../features/speech-output/hooks/use-speech-player';
import { tokenStore } from '../../lib/api';
import { keyboardActions } from '../../lib/app-activity';
import { useRememberTab } from '../../lib/use-remember-tab';

interface HistoryItem {
  id: number;
  text: string;
}

/** Per user and tab: the conversation survives a reload, and another person signing in does not see it. */
const historyKey = () => `parla.speakHistory.${tokenStore.get()?.userId ?? ''}`;
const MAX_HISTORY = 50;

function readHistory(): HistoryItem[] {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(historyKey()) ?? '[]');
    return Array.isArray(parsed) ? (parsed as HistoryItem[]) : [];
  } catch {
    return [];
  }
}

/** Conversation mode: the recognised phrase shown large and spoken aloud at once. */
export function SpeakRoute() {
  const { t } = useTranslation();
  useRememberTab();
  const player = useSpeechPlayer();
  const shortcuts = useQuery(shortcutPhrasesQueryOptions());
  const [phrase, setPhrase] = useState<string | null>(null);
  const [rejected, setRejected] = useState<RecognitionResult | null>(null);
  /** The last result, to confirm or correct; cleared when something else is said. */
  const [lastResult, setLastResult] = useState<RecognitionResult | null>(null);
  const [history, setHistory] = useState<HistoryItem[]>(readHistory);
  const voiceLabel = useId();
  const speedLabel = useId();

  useEffect(() => {
    try {
      sessionStorage.setItem(historyKey(), JSON.stringify(history));
    } catch {
      // The conversation lasts for this page only.
    }
  }, [history]);

  const { speak } = player;
  const say = useCallback(
    (text: string, options: { keepResult?: boolean } = {}) => {
      setPhrase(text);
      setRejected(null);
      if (!options.keepResult) setLastResult(null);
      setHistory((items) => [{ id: Date.now(), text }, ...items].slice(0, MAX_HISTORY));
      void speak(text);
    },
    [speak],
  );

  const recognition = useRecognition({
    mode: 'speak',
    onResult: (result) => {
      if (result.rejected || result.text === null) {
        setRejected(result);
        setLastResult(result);
        return;
      }
      say(expandShortcut(result.text, shortcuts.data));
      setLastResult(result);
    },
    // The app must not hear itself: no echo cancellation on the microphone.
    muted: player.status === 'playing',
  });

  const repeat = useCallback(() => {
    if (phrase) void speak(phrase);
  }, [phrase, speak]);
  useEffect(() => keyboardActions.register('enter', repeat), [repeat]);

  const guess = rejected?.alternatives[0]?.text;
  const actions = (
    <>
      <Button component={RouterLink} to={paths.modePicker.getHref()} variant="outlined">
        {t('modes.change')}
      </Button>
      <Button component={RouterLink} to={paths.dictate.getHref()} variant="outlined">
        {t('modes.dictate.title')}
      </Button>
    </>
  );

  return (
    <Page title={t('modes.speak.title')} actions={actions} width="lg">
      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '2fr 1fr' } }}>
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 3, minWidth: 0 }}>
          <RecognitionStatus recognition={recognition} />
          <Paper
            variant="outlined"
            component="section"
            aria-label={t('speak.phraseLabel')}
            sx={{
              p: { xs: 3, sm: 4 },
              minHeight: { xs: 180, sm: 240 },
              display: 'flex',
              flexDirection: 'column',
              justifyContent: 'center',
              gap: 2,
            }}
          >
            <Box aria-live="assertive" aria-atomic="true">
              {rejected ? (
                <Box data-testid="rejection">
                  <Typography
                    sx={{ fontSize: { xs: '1.75rem', sm: '2.25rem' }, fontWeight: 700, lineHeight: 1.2 }}
                  >
                    {t('recognition.rejected')}
                  </Typography>
                  {guess && (
                    <Typography sx={{ fontSize: '1.25rem', mt: 1 }}>
                      {t('recognition.bestGuess', { text: guess })}
                    </Typography>
                  )}
                </Box>
              ) : phrase ? (
                <Typography
                  data-testid="spoken-phrase"
                  lang="en"
                  sx={{
                    fontSize: { xs: '2.75rem', sm: '4rem', md: '4.5rem' },
                    fontWeight: 700,
                    lineHeight: 1.1,
                    overflowWrap: 'anywhere',
                  }}
                >
                  {phrase}
                </Typography>
              ) : (
                <Typography sx={{ fontSize: '1.375rem' }} color="text.secondary">
                  {t('speak.placeholder')}
                </Typography>
              )}
            </Box>
            <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap' }}>
              {phrase && !rejected && (
                <Button variant="outlined" size="large" onClick={repeat}>
                  {t('speak.repeat')}
                </Button>
              )}
              {player.status === 'playing' && (
                <Button variant="outlined" size="large" color="secondary" onClick={player.stop}>
                  {t('speak.stopSpeaking')}
                </Button>
              )}
            </Box>
            {lastResult && (
              <ConfirmChoices
                key={questionKey(lastResult)}
                result={lastResult}
                onChoose={(text) => say(expandShortcut(text, shortcuts.data), { keepResult: true })}
              />
            )}
            {player.status === 'error' && (
              <Alert severity="warning" role="alert">
                {t('speak.speakError')}
              </Alert>
            )}
          </Paper>
          <ListenControls recognition={recognition} />
          {/* The spoken phrase plays here; nothing is shown: the buttons above control it. */}
          <audio {...player.audioProps} data-testid="speech-audio" hidden />
        </Box>
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 3, minWidth: 0 }}>
          <Paper
            variant="outlined"
            component="section"
            aria-labelledby={voiceLabel}
            sx={{ p: 3, display: 'flex', flexDirection: 'column', gap: 2 }}
          >
            <Typography variant="h2" id={voiceLabel} sx={{ fontSize: '1.25rem' }}>
              {t('speak.voiceSettings')}
            </Typography>
            <TextField
              select
              label={t('speak.voice')}
              value={player.voice?.id ?? ''}
              onChange={(event) => {
                player.setVoiceId(event.target.value);
              }}
              slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
              disabled={player.voices.length === 0}
            >
              {player.voices.map((voice) => (
                <option key={voice.id} value={voice.id}>
                  {voice.name} ({voice.locale})
                </option>
              ))}
            </TextField>
            <Box>
              <Typography id={speedLabel}>{t('speak.speed')}</Typography>
              <Box sx={{ px: 1 }}>
                <Slider
                  aria-labelledby={speedLabel}
                  value={player.speed}
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
                    player.setSpeed(value);
                  }}
                />
              </Box>
            </Box>
          </Paper>
          <Paper variant="outlined" component="section" aria-labelledby="conversation-heading" sx={{ p: 3 }}>
            <Box
              sx={{
                display: 'flex',
                alignItems: 'center',
                justifyContent: 'space-between',
                gap: 1,
                flexWrap: 'wrap',
                mb: 1,
              }}
            >
              <Typography variant="h2" id="conversation-heading" sx={{ fontSize: '1.25rem' }}>
                {t('speak.history')}
              </Typography>
            </Box>
            {history.length === 0 ? (
              <Typography color="text.secondary">{t('speak.historyEmpty')}</Typography>
            ) : (
              <List disablePadding data-testid="conversation">
                {history.map((item) => (
                  <ListItem key={item.id} disablePadding>
                    <ListItemButton
                      sx={{ minHeight: 48, borderRadius: 1 }}
                      aria-label={t('speak.sayAgain', { text: item.text })}
                      onClick={() => {
                        setPhrase(item.text);
                        setRejected(null);
                        void speak(item.text);
                      }}
                    >
                      <Typography sx={{ fontSize: '1.125rem' }}>{item.text}</Typography>
                    </ListItemButton>
                  </ListItem>
                ))}
              </List>
            )}
            {history.length > 0 && (
              <Button
                variant="outlined"
                sx={{ mt: 2 }}
                onClick={() => {
                  setHistory([]);
                }}
              >
                {t('speak.clearHistory')}
              </Button>
            )}
          </Paper>
        </Box>
      </Box>
    </Page>
  );
}
