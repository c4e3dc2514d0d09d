import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { EmptyState } from '../../components/feedback/empty-state';
import { LoadingScreen } from '../../components/feedback/loading-screen';
import { Page } from '../../components/layout/page';
import { paths } from '../../config/paths';
import { userQueryOptions } from '../../features/auth/api/auth.api';
import { modelsInfoQueryOptions, modelsQueryKey } from '../../features/models/api/models.api';
import {
  phrasesQueryOptions,
  phrasesRootKey,
  scenariosQueryOptions,
} from '../../features/phrases/api/phrases.api';
import { takeInfo, takeOutbox, uploadTake } from '../../features/recording/api/takes.api';
import { LevelMeter } from '../../features/recording/components/level-meter';
import { TakeWaveform } from '../../features/recording/components/take-waveform';
import { queuePosition, TAKES_PER_PHRASE, type QueuePhrase } from '../../features/recording/training-queue';
import type { FlushResult } from '../../features/recording/take-outbox';
import { useTakeRecorder, type RecordedTake } from '../../features/recording/use-take-recorder';
import { encodeWav } from '../../features/recognition/wav';
import { browserState } from '../../lib/browser-state';
import { recordingSessionStore } from '../../lib/recording-session';
import { userQueryKey } from '../../lib/session';
import { useSendWhenOnline } from '../../lib/use-send-when-online';

/** Seconds a hands-free take is shown before it is saved, time enough to press Redo. */
const HANDS_FREE_REVIEW_MS = 1500;

interface UploadStatus {
  waiting: number;
  refused: { phrase: string; message: string }[];
}

/** Uploads what the outbox holds now and whenever the connection comes back. */
function useOutboxSync(userId: string | undefined) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<UploadStatus>({ waiting: 0, refused: [] });

  const sync = useCallback(async () => {
    if (!userId) return;
    let result: FlushResult;
    try {
      result = await takeOutbox.flush(userId, uploadTake);
    } catch {
      // IndexedDB unavailable: nothing was stored, so there is nothing to send either.
      return;
    }
    setStatus((previous) => ({
      waiting: result.waiting,
      refused: [
        ...previous.refused,
        ...result.refused.map(({ take, message }) => ({ phrase: take.phraseText, message })),
      ],
    }));
    if (result.uploaded.length > 0 || result.refused.length > 0) {
      // Each phrase counts its takes, as do the scenarios: all of them moved.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: modelsQueryKey }),
        queryClient.invalidateQueries({ queryKey: phrasesRootKey }),
      ]);
    }
  }, [queryClient, userId]);

  useSendWhenOnline(
    useCallback(() => {
      void sync();
    }, [sync]),
  );

  return { status, sync };
}

/** Polls the recording state while a profile is being built, so the profile-updated dialog shows up. */
function useModelWatch() {
  const queryClient = useQueryClient();
  const info = useQuery({
    ...modelsInfoQueryOptions(),
    refetchInterval: (query) => {
      const state = query.state.data?.recording_state;
      return state === 'waiting_for_model' ? 2000 : false;
    },
  });
  const state = info.data?.recording_state;
  const previous = useRef(state);
  useEffect(() => {
    if (previous.current === 'waiting_for_model' && state === 'model_built') {
      void queryClient.invalidateQueries({ queryKey: userQueryKey });
      void queryClient.invalidateQueries({ queryKey: modelsQueryKey });
    }
    previous.current = state;
  }, [queryClient, state]);
  return state;
}

/** /record/training/{variant}: one phrase at a time, recorded, checked, kept and uploaded. */
export function RecordTrainingRoute() {
  const { t } = useTranslation();
  const { variant = 'default' } = useParams();
  const user = useQuery(userQueryOptions());
  const scenarios = useQuery(scenariosQueryOptions());
  const scenarioId =
    scenarios.data?.find((scenario) => scenario.scenario_id === variant)?.scenario_id ??
    scenarios.data?.find((scenario) => scenario.isActive)?.scenario_id ??
    scenarios.data?.[0]?.scenario_id;
  const phrases = useQuery({ ...phrasesQueryOptions({ scenarioId }), enabled: scenarioId !== undefined });
  const { status: upload, sync } = useOutboxSync(user.data?.id);
  const recordingState = useModelWatch();

  // The phrases as they were when the session began: takes saved now are counted here.
  const [baseline, setBaseline] = useState<QueuePhrase[] | null>(null);
  const [saved, setSaved] = useState<Map<string, number>>(new Map());
  if (!baseline && phrases.data) {
    const single = phrases.data.filter((phrase) => phrase.id === variant);
    setBaseline(single.length > 0 ? single : phrases.data);
  }

  const position = useMemo(() => (baseline ? queuePosition(baseline, saved) : null), [baseline, saved]);
  const scenario = scenarios.data?.find((item) => item.scenario_id === scenarioId);

  const save = useCallback(
    async (take: RecordedTake) => {
      if (!position || !user.data || !scenarioId) return;
      const wav = encodeWav(take.samples);
      await takeOutbox.add({
        id: crypto.randomUUID(),
        userId: user.data.id,
        phraseId: position.phrase.id,
        phraseText: position.phrase.text,
        wav: wav.buffer,
        info: takeInfo(take.seconds, scenarioId),
        createdAt: Date.now(),
        attempts: 0,
      });
      setSaved((previous) =>
        new Map(previous).set(position.phrase.id, (previous.get(position.phrase.id) ?? 0) + 1),
      );
      void sync();
    },
    [position, scenarioId, sync, user.data],
  );

  if (user.isPending || scenarios.isPending || (scenarioId !== undefined && phrases.isPending) || !baseline) {
    if (phrases.isError || scenarios.isError) {
      return (
        <Page title={t('recording.title')}>
          <Alert severity="error">{t('recording.loadFailed')}</Alert>
        </Page>
      );
    }
    return <LoadingScreen />;
  }

  const totalNeeded = baseline.reduce((sum, phrase) => sum + Math.max(0, TAKES_PER_PHRASE - phrase.takes), 0);
  const savedCount = [...saved.values()].reduce((sum, count) => sum + count, 0);

  return (
    <Page
      title={t('recording.title')}
      intro={scenario ? t('recording.intro', { scenario: scenario.name }) : undefined}
      actions={
        <Button component={RouterLink} to={paths.record.getHref()} variant="outlined">
          {t('recording.backToPhrases')}
        </Button>
      }
    >
      {totalNeeded > 0 && (
        <Box sx={{ mb: 3 }}>
          <Typography id="session-progress-label" variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {t('recording.sessionProgress', { saved: savedCount, total: totalNeeded })}
          </Typography>
          <LinearProgress
            variant="determinate"
            value={Math.round((100 * savedCount) / totalNeeded)}
            aria-labelledby="session-progress-label"
            sx={{ height: 10, borderRadius: 5 }}
          />
        </Box>
      )}

      {position ? (
        <TakePanel key={`${position.phrase.id}-${position.take}`} position={position} onSave={save} />
      ) : (
        <EmptyState
          title={baseline.length === 0 ? t('recording.noPhrasesTitle') : t('recording.doneTitle')}
          body={
            baseline.length === 0
              ? t('recording.noPhrasesBody')
              : recordingState === 'model_built' && upload.waiting === 0
                ? t('recording.doneBuilt')
                : t('recording.doneBuilding')
          }
          actions={
            <Button component={RouterLink} to={paths.record.getHref()} variant="contained" size="large">
              {baseline.length === 0 ? t('recording.addPhrases') : t('recording.backToPhrases')}
            </Button>
          }
        />
      )}

      <Box aria-live="polite" sx={{ mt: 3 }}>
        {upload.waiting > 0 && (
          <Alert severity="info">{t('recording.waitingUpload', { count: upload.waiting })}</Alert>
        )}
        {upload.refused.map((item, index) => (
          <Alert key={index} severity="warning" sx={{ mt: 1 }}>
            {t('recording.refused', { phrase: item.phrase, message: item.message })}
          </Alert>
        ))}
      </Box>
    </Page>
  );
}

/** Which end of a take seems cut off, for its notice; undefined when neither. */
function cutAt({ cut }: RecordedTake): 'start' | 'end' | 'both' | undefined {
  if (cut.start && cut.end) return 'both';
  if (cut.start) return 'start';
  return cut.end ? 'end' : undefined;
}

interface TakePanelProps {
  position: NonNullable<ReturnType<typeof queuePosition>>;
  onSave: (take: RecordedTake) => Promise<void>;
}

/** One take of one phrase: record, look and listen, redo or keep. */
function TakePanel({ position, onSave }: TakePanelProps) {
  const { t } = useTranslation();
  const [handsFree, setHandsFree] = useState(browserState.get('handsFreeOptions')?.enabled ?? false);
  const recorder = useTakeRecorder(position.phrase.text, { handsFree });
  const { state, start, reset } = recorder;
  const [saving, setSaving] = useState(false);
  const [playing, setPlaying] = useState(false);
  const audio = useRef<HTMLAudioElement | null>(null);

  useEffect(() => {
    recordingSessionStore.set({ active: true });
    return () => recordingSessionStore.set({ active: false });
  }, []);

  const handleHandsFree = (enabled: boolean) => {
    setHandsFree(enabled);
    browserState.set('handsFreeOptions', {
      requireCtrl: false,
      ...browserState.get('handsFreeOptions'),
      enabled,
    });
  };

  const handleSave = useCallback(async () => {
    if (state.status !== 'recorded' || !state.take.verdict.ok) return;
    setSaving(true);
    await onSave(state.take);
  }, [onSave, state]);

  const cut = state.status === 'recorded' ? cutAt(state.take) : undefined;
  // Hands-free, a take that seems cut off is recorded again by itself, once: a second is kept.
  const [recordedAgain, setRecordedAgain] = useState(false);

  const handleRedo = useCallback(() => {
    audio.current?.pause();
    setPlaying(false);
    reset();
    if (!handsFree) void start();
  }, [handsFree, reset, start]);

  // Hands-free: the phrase appears and listening starts; a good take is kept after a moment.
  useEffect(() => {
    if (handsFree && state.status === 'idle') void start();
  }, [handsFree, start, state.status]);
  useEffect(() => {
    if (!handsFree || state.status !== 'recorded' || !state.take.verdict.ok) return;
    const again = cut !== undefined && !recordedAgain;
    const timer = window.setTimeout(() => {
      if (!again) return void handleSave();
      setRecordedAgain(true);
      handleRedo();
    }, HANDS_FREE_REVIEW_MS);
    return () => window.clearTimeout(timer);
  }, [cut, handleRedo, handleSave, handsFree, recordedAgain, state]);

  const handlePlay = () => {
    if (state.status !== 'recorded') return;
    const url = URL.createObjectURL(new Blob([encodeWav(state.take.samples)], { type: 'audio/wav' }));
    audio.current?.pause();
    const player = new Audio(url);
    audio.current = player;
    player.onended = () => {
      setPlaying(false);
      URL.revokeObjectURL(url);
    };
    setPlaying(true);
    player.play().catch(() => setPlaying(false));
  };

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2.5, sm: 4 } }}>
      <Stack spacing={3}>
        <Typography variant="body1" color="text.secondary">
          {t('recording.position', {
            index: position.index,
            count: position.count,
            take: position.take,
            takes: TAKES_PER_PHRASE,
          })}
        </Typography>
        <Typography
          component="p"
          aria-label={t('recording.phraseLabel', { phrase: position.phrase.text })}
          sx={{ fontSize: { xs: '2rem', sm: '3rem' }, fontWeight: 700, lineHeight: 1.2 }}
        >
          {position.phrase.text}
        </Typography>

        {state.status === 'idle' && (
          <Stack spacing={2}>
            <Typography>{handsFree ? t('recording.handsFreeHint') : t('recording.hint')}</Typography>
            <Box>
              <Button variant="contained" size="large" onClick={() => void start()} sx={{ minWidth: 200 }}>
                {t('recording.record')}
              </Button>
            </Box>
          </Stack>
        )}

        {state.status === 'starting' && <Typography role="status">{t('recording.starting')}</Typography>}

        {state.status === 'recording' && (
          <Stack spacing={2}>
            <Typography role="status">
              {t('recording.listening', { seconds: state.seconds.toFixed(1) })}
            </Typography>
            <LevelMeter level={recorder.level} label={t('recording.level')} />
            <Box>
              <Button
                variant="contained"
                color="secondary"
                size="large"
                onClick={() => void recorder.stop()}
                sx={{ minWidth: 200 }}
              >
                {t('recording.stop')}
              </Button>
            </Box>
          </Stack>
        )}

        {state.status === 'recorded' && (
          <Stack spacing={2}>
            <TakeWaveform
              samples={state.take.samples}
              label={t('recording.waveform', { seconds: state.take.seconds.toFixed(1) })}
            />
            {!state.take.verdict.ok && (
              <Alert severity="warning" role="alert">
                {t(`recording.verdict.${state.take.verdict.reason}`)}
              </Alert>
            )}
            {state.take.verdict.ok && cut !== undefined && (
              <Alert severity="warning" role="alert">
                {t(`recording.cutOff.${cut}`)}
              </Alert>
            )}
            {handsFree && state.take.verdict.ok && !saving && (
              <Typography role="status">
                {t(
                  cut !== undefined && !recordedAgain
                    ? 'recording.recordingAgainSoon'
                    : 'recording.keepingSoon',
                )}
              </Typography>
            )}
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
              <Button variant="outlined" size="large" onClick={handlePlay} disabled={playing}>
                {playing ? t('recording.playing') : t('recording.play')}
              </Button>
              <Button variant="outlined" size="large" onClick={handleRedo}>
                {t('recording.redo')}
              </Button>
              <Button
                variant="contained"
                size="large"
                onClick={() => void handleSave()}
                disabled={!state.take.verdict.ok || saving}
              >
                {t('recording.saveNext')}
              </Button>
            </Stack>
          </Stack>
        )}

        {state.status === 'error' && (
          <Stack spacing={2}>
            <Alert severity="error" role="alert">
              {t(`recording.microphone.${state.code}`)}
            </Alert>
            <Box>
              <Button variant="contained" size="large" onClick={() => void start()}>
                {t('recording.tryAgain')}
              </Button>
            </Box>
          </Stack>
        )}

        <FormControlLabel
          control={<Switch checked={handsFree} onChange={(event) => handleHandsFree(event.target.checked)} />}
          label={t('recording.handsFree')}
        />
      </Stack>
    </Paper>
  );
}
