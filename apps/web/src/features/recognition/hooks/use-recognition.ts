import {
  CLIENT_VERSION,
  DEFAULT_LANGUAGE,
  REALTIME_PROVIDERS,
  SPEECH_ENCODER_FILE,
  SPEECH_ENCODER_PATH,
  SPEECH_MODEL_PATH,
  type RecognitionMode,
  type RecognitionResult,
  type User,
  type UserSettings,
} from '@parla/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useLayoutEffect, useReducer, useRef, useState } from 'react';
import { io } from 'socket.io-client';
import { settingsQueryOptions } from '../../settings/api/settings.api';
import { modelsQueryKey, modelsQueryOptions, type ModelInfo } from '../../models/api/models.api';
import { api, logger, tokenStore } from '../../../lib/api';
import { MicrophoneError, openMicrophone, type MicrophoneSession } from '../../../lib/audio/microphone';
import { browserState, type RecognitionEngineChoice } from '../../../lib/browser-state';
import { userQueryKey } from '../../../lib/session';
import { useSendWhenOnline } from '../../../lib/use-send-when-online';
import { userQueryOptions } from '../../auth/api/auth.api';
import {
  keptRecordings,
  loadEncoderViews,
  loadGenericSetup,
  loadLocalModel,
  localResultUpload,
} from '../api/recognition.api';
import { LocalEngine } from '../local-engine';
import type { RecognitionEngine } from '../recognition-engine';
import {
  canStream,
  initialRecognitionState,
  recognitionReducer,
  type RecognitionEvent,
} from '../recognition-state';
import { SocketEngine } from '../socket-engine';

/** Until the settings load (or if they cannot): the server's own defaults. */
const FALLBACK_SETTINGS = {
  dictation_scenario: null,
  use_streaming_model: true,
  filter_profanities: false,
  min_silence_length_seconds: 0.3,
} satisfies Partial<UserSettings>;

export type ListeningMode = 'hands_free' | 'press';

export type MicrophoneState =
  | { status: 'off' }
  | { status: 'opening' }
  | { status: 'on' }
  /** The connection dropped: capture stopped, it resumes when the recogniser is back. */
  | { status: 'paused' }
  | { status: 'error'; code: MicrophoneError['code'] | 'failed' };

export interface UseRecognitionOptions {
  mode: RecognitionMode;
  /** Every final result, rejected ones included. */
  onResult: (result: RecognitionResult) => void;
  /**
   * While true (the app itself is talking), the microphone is sent as silence: it records
   * without echo cancellation, so it would otherwise hear the app's own voice.
   */
  muted?: boolean;
}

/**
 * Recognition for a page: the engine chosen in settings (server socket or local worker),
 * its state machine, the microphone and the level meter. The engine lives as long as the page.
 */
export function useRecognition({ mode, onResult, muted = false }: UseRecognitionOptions) {
  const queryClient = useQueryClient();
  const settings = useQuery(settingsQueryOptions());
  const [state, dispatch] = useReducer(recognitionReducer, initialRecognitionState);
  const [engineChoice] = useState<RecognitionEngineChoice>(
    () => browserState.get('recognitionEngine') ?? 'server',
  );
  const [listeningMode, setListeningModeState] = useState<ListeningMode>(
    () => browserState.get('listeningMode') ?? 'press',
  );
  const [microphone, setMicrophone] = useState<MicrophoneState>({ status: 'off' });
  const [level, setLevel] = useState(0);
  const engineRef = useRef<RecognitionEngine | null>(null);
  const sessionRef = useRef<MicrophoneSession | null>(null);
  const wantListeningRef = useRef(false);
  const onResultRef = useRef(onResult);
  const mutedRef = useRef(muted);
  const listeningModeRef = useRef(listeningMode);
  const stopListeningRef = useRef<() => void>(() => undefined);
  // The engine's callbacks read the newest handlers without being made again.
  useLayoutEffect(() => {
    onResultRef.current = onResult;
    mutedRef.current = muted;
    listeningModeRef.current = listeningMode;
  });

  const userSettings = settings.data ?? FALLBACK_SETTINGS;
  const engineOptions = {
    recognition_mode: mode,
    streaming_vad_min_silence_length: userSettings.min_silence_length_seconds,
    filter_profanities: userSettings.filter_profanities,
  };
  const optionsRef = useRef(engineOptions);
  useLayoutEffect(() => {
    optionsRef.current = engineOptions;
  });

  // One engine per page visit; created once the settings are known, so the first options are right.
  const settingsReady = !settings.isPending;
  useEffect(() => {
    if (!settingsReady) return;
    const onModelReady = (version: number | undefined) => {
      // The cache of GET /app/modelsInfo learns of a newer profile from the socket.
      const models = queryClient.getQueryData<ModelInfo[]>(modelsQueryKey);
      if (version !== undefined && models?.[0]?.version !== version)
        void queryClient.invalidateQueries({ queryKey: modelsQueryKey });
    };
    const callbacks = {
      dispatch: (event: RecognitionEvent) => {
        // The server says no profile while the cache thinks one is built: the cache is stale.
        if (event.type === 'model_status' && event.status === 'model_missing') {
          const models = queryClient.getQueryData<ModelInfo[]>(modelsQueryKey);
          if (models && models.length > 0) void queryClient.invalidateQueries({ queryKey: modelsQueryKey });
        }
        dispatch(event);
      },
      onResult: (result: RecognitionResult) => {
        // Press to talk: one utterance per press.
        if (listeningModeRef.current === 'press' && wantListeningRef.current) stopListeningRef.current();
        onResultRef.current(result);
      },
      onModelReady,
    };
    // Dictation has its own endpoint for accounts that have it (spec section 6).
    const user = queryClient.getQueryData<User>(userQueryKey);
    const provider =
      mode === 'dictate' && user?.providers_enabled.includes('dictation') ? 'dictation' : 'casr';
    const engine: RecognitionEngine =
      engineChoice === 'local'
        ? new LocalEngine({
            ...callbacks,
            createWorker: () =>
              new Worker(new URL('../recognition.worker.ts', import.meta.url), { type: 'module' }),
            loadModel: loadLocalModel,
            generic: {
              modelBase: new URL(SPEECH_MODEL_PATH, window.location.href).href,
              loadSetup: loadGenericSetup,
            },
            onGenericProblem: (error) => {
              logger.error(error, { during: 'generic_adapted_means' });
            },
            encoder: {
              modelUrl: new URL(`${SPEECH_ENCODER_PATH}${SPEECH_ENCODER_FILE}`, window.location.href).href,
              loadViews: loadEncoderViews,
            },
            onEncoderProblem: (error) => {
              logger.error(error, { during: 'speech_encoder' });
            },
            options: optionsRef.current,
            onLocalResult: ({ result, audio }) => {
              // Nothing is kept for a person who opted out of keeping recognition audio.
              if (audio.length === 0 || !user || user.opt_out_audio_recognition) return;
              // Answers to the result ("That's right") teach the profile from the kept recording.
              keptRecordings
                .keepLocal(result, user.id, localResultUpload(result, audio, { language: DEFAULT_LANGUAGE }))
                .catch((error: unknown) => {
                  logger.error(error, { during: 'keep_local_result' });
                });
            },
          })
        : new SocketEngine({
            ...callbacks,
            createSocket: (options) => io(REALTIME_PROVIDERS[provider].namespace, options),
            getAuth: () => {
              const tokens = tokenStore.get();
              return tokens
                ? { token: tokens.accessToken, refresh_token: tokens.refreshToken, user_id: tokens.userId }
                : null;
            },
            refreshToken: async () => {
              await api.refreshNow();
              return tokenStore.get() !== null;
            },
            provider: {
              provider_id: provider,
              language: DEFAULT_LANGUAGE,
              app_build: CLIENT_VERSION,
              use_streaming_model: userSettings.use_streaming_model,
              ...(mode === 'dictate' && userSettings.dictation_scenario
                ? { scenario_id: userSettings.dictation_scenario }
                : {}),
            },
            options: optionsRef.current,
          });
    engineRef.current = engine;
    engine.start();
    return () => {
      engineRef.current = null;
      engine.dispose();
    };
    // The engine is made once per page; later option changes go through setOptions.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settingsReady, engineChoice, queryClient, mode]);

  // Utterances and answers kept while the server could not be reached go once it can.
  const userId = useQuery(userQueryOptions()).data?.id;
  useSendWhenOnline(
    useCallback(() => {
      if (userId === undefined) return;
      keptRecordings.outbox.flush(userId).catch((error: unknown) => {
        logger.error(error, { during: 'send_kept_results' });
      });
    }, [userId]),
  );

  // Settings changed meanwhile (another tab, the settings page): applies to the next stream.
  const { recognition_mode, streaming_vad_min_silence_length, filter_profanities } = engineOptions;
  useEffect(() => {
    engineRef.current?.setOptions({ recognition_mode, streaming_vad_min_silence_length, filter_profanities });
  }, [recognition_mode, streaming_vad_min_silence_length, filter_profanities]);

  // After a consent update the connection starts again (spec section 4).
  useEffect(() => {
    const consentsOf = (user: User | undefined) =>
      user ? `${user.accepted_tos_at ?? ''}|${user.accepted_privacy_policy_at ?? ''}` : null;
    let last = consentsOf(queryClient.getQueryData<User>(userQueryKey));
    return queryClient.getQueryCache().subscribe((event) => {
      if (event.type !== 'updated' || event.query.queryHash !== JSON.stringify(userQueryKey)) return;
      const next = consentsOf(event.query.state.data as User | undefined);
      if (next !== null && last !== null && next !== last) engineRef.current?.reconnect();
      if (next !== null) last = next;
    });
  }, [queryClient]);

  // Local recognition holds a copy of the profile: a newer version is loaded when the cache
  // learns of it, once the person is not speaking.
  const models = useQuery({ ...modelsQueryOptions(), enabled: engineChoice === 'local' });
  const modelVersion = models.data?.[0]?.version;
  const loadedVersion = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (engineChoice !== 'local' || modelVersion === undefined) return;
    if (loadedVersion.current !== undefined && loadedVersion.current !== modelVersion)
      engineRef.current?.profileChanged();
    loadedVersion.current = modelVersion;
  }, [engineChoice, modelVersion]);

  const ready = canStream(state);

  const closeMicrophone = useCallback(async (status: MicrophoneState['status'] = 'off') => {
    const session = sessionRef.current;
    sessionRef.current = null;
    setLevel(0);
    if (status === 'off' || status === 'paused') setMicrophone({ status });
    if (!session) return;
    const tail = await session.stop();
    engineRef.current?.sendChunk(tail);
    engineRef.current?.endStream();
  }, []);

  const openMic = useCallback(async () => {
    if (sessionRef.current) return;
    setMicrophone({ status: 'opening' });
    try {
      const session = await openMicrophone({
        // A press to talk begins with the device's silence, which the recogniser would
        // take for the room's floor (docs/decisions/0076).
        skipLeadingSilence: true,
        deviceId: browserState.get('audioOptions')?.deviceId ?? null,
        onChunk: (samples) =>
          engineRef.current?.sendChunk(mutedRef.current ? new Int16Array(samples.length) : samples),
        onLevel: ({ rms }) => {
          setLevel(rms);
        },
      });
      if (!wantListeningRef.current) {
        await session.stop();
        setMicrophone({ status: 'off' });
        return;
      }
      sessionRef.current = session;
      setMicrophone({ status: 'on' });
    } catch (error) {
      wantListeningRef.current = false;
      logger.error(error, { during: 'open_microphone' });
      setMicrophone({ status: 'error', code: error instanceof MicrophoneError ? error.code : 'failed' });
    }
  }, []);

  const startListening = useCallback(() => {
    wantListeningRef.current = true;
    dispatch({ type: 'listening_started' });
    if (ready) void openMic();
  }, [ready, openMic]);

  const stopListening = useCallback(() => {
    wantListeningRef.current = false;
    void closeMicrophone('off');
  }, [closeMicrophone]);
  useLayoutEffect(() => {
    stopListeningRef.current = stopListening;
  }, [stopListening]);

  // Nothing is streamed while the recogniser is away: capture pauses and resumes with it.
  useEffect(() => {
    if (!ready && sessionRef.current) void closeMicrophone('paused');
    else if (ready && wantListeningRef.current && !sessionRef.current) void openMic();
  }, [ready, closeMicrophone, openMic]);

  // Leaving the page closes the microphone.
  useEffect(
    () => () => {
      wantListeningRef.current = false;
      const session = sessionRef.current;
      sessionRef.current = null;
      void session?.stop();
    },
    [],
  );

  const setListeningMode = useCallback(
    (next: ListeningMode) => {
      browserState.set('listeningMode', next);
      setListeningModeState(next);
      if (next === 'press') stopListening();
    },
    [stopListening],
  );

  return {
    state,
    ready,
    engine: engineChoice,
    microphone,
    listening: microphone.status === 'on' || microphone.status === 'opening',
    level,
    listeningMode,
    setListeningMode,
    startListening,
    stopListening,
    reconnect: () => engineRef.current?.reconnect(),
  };
}
