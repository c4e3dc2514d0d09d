import { DEFAULT_LANGUAGE, DEFAULT_VOICE_PLAYBACK_SPEED } from '@parla/contract';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { logger } from '../../../lib/api';
import { browserState } from '../../../lib/browser-state';
import { synthesize, voicesQueryOptions } from '../api/tts.api';
import { pickVoice } from '../voices';

/** Spoken phrases kept for repeating at once; a conversation repeats recent ones. */
const KEPT_AUDIO = 30;

export type PlayerStatus = 'idle' | 'loading' | 'playing' | 'error';

/**
 * Speaks texts aloud with the chosen voice and speed through the page's <audio> element:
 * the server synthesises MP3, the element plays it at the playback rate (pitch kept).
 */
export function useSpeechPlayer() {
  const voices = useQuery(voicesQueryOptions());
  const [voiceId, setVoiceIdState] = useState(() => browserState.get('ttsVoiceId') ?? null);
  const [speed, setSpeedState] = useState(
    () => browserState.get('voicePlaybackSpeed') ?? DEFAULT_VOICE_PLAYBACK_SPEED,
  );
  const [status, setStatus] = useState<PlayerStatus>('idle');
  const [speakingText, setSpeakingText] = useState<string | null>(null);
  const audioRef = useRef<HTMLAudioElement | null>(null);
  const urls = useRef(new Map<string, string>());
  const request = useRef<AbortController | null>(null);

  const voice = voices.data ? pickVoice(voices.data, voiceId, DEFAULT_LANGUAGE) : undefined;

  useEffect(() => {
    const kept = urls.current;
    return () => {
      request.current?.abort();
      for (const url of kept.values()) URL.revokeObjectURL(url);
      kept.clear();
    };
  }, []);

  const speak = useCallback(
    async (text: string) => {
      const audio = audioRef.current;
      if (!audio || !voice || !text.trim()) return;
      request.current?.abort();
      const controller = new AbortController();
      request.current = controller;
      const key = `${voice.id}\n${text}`;
      setSpeakingText(text);
      try {
        let url = urls.current.get(key);
        if (!url) {
          setStatus('loading');
          const blob = await synthesize(text, voice.id, controller.signal);
          url = URL.createObjectURL(blob);
          urls.current.set(key, url);
          if (urls.current.size > KEPT_AUDIO) {
            const [oldestKey, oldest] = urls.current.entries().next().value ?? [];
            if (oldestKey !== undefined && oldest !== undefined) {
              urls.current.delete(oldestKey);
              URL.revokeObjectURL(oldest);
            }
          }
        }
        if (controller.signal.aborted) return;
        audio.src = url;
        audio.preservesPitch = true;
        audio.playbackRate = browserState.get('voicePlaybackSpeed') ?? speed;
        setStatus('playing');
        await audio.play();
      } catch (error) {
        if (error instanceof DOMException && error.name === 'AbortError') return;
        logger.error(error, { during: 'speak_aloud' });
        setStatus('error');
      }
    },
    [voice, speed],
  );

  const stop = useCallback(() => {
    request.current?.abort();
    audioRef.current?.pause();
    setStatus('idle');
  }, []);

  const setVoiceId = useCallback((id: string) => {
    browserState.set('ttsVoiceId', id);
    setVoiceIdState(id);
  }, []);

  const setSpeed = useCallback((value: number) => {
    browserState.set('voicePlaybackSpeed', value);
    setSpeedState(value);
    if (audioRef.current) audioRef.current.playbackRate = value;
  }, []);

  const audioProps = {
    ref: audioRef,
    onEnded: () => {
      setStatus('idle');
    },
    onPause: () => {
      setStatus((current) => (current === 'playing' ? 'idle' : current));
    },
  };

  return {
    voices: voices.data ?? [],
    voicesError: voices.isError,
    voice,
    setVoiceId,
    speed,
    setSpeed,
    status,
    speakingText,
    speak,
    stop,
    audioProps,
  };
}
