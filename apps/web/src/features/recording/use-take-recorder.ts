import { cutOff, int16ToFloat32 } from '@parla/speech';
import { useCallback, useEffect, useRef, useState } from 'react';
import { MicrophoneError, openMicrophone, type MicrophoneSession } from '../../lib/audio/microphone';
import { browserState } from '../../lib/browser-state';
import { SpeechActivity } from './speech-activity';
import { judgeTake, recordingLimitSeconds, type TakeVerdict } from './take-rules';

const RATE = 16_000;
/** Quiet after speech that ends a take in hands-free mode: long enough for pauses inside a phrase. */
const HANDS_FREE_END_SILENCE = 1.2;

export interface RecordedTake {
  samples: Int16Array;
  seconds: number;
  speechSeconds: number;
  verdict: TakeVerdict;
  /** Where the phrase seems cut off: the app asks for it again, and keeps it if told to. */
  cut: { start: boolean; end: boolean };
}

export type RecorderState =
  | { status: 'idle' }
  | { status: 'starting' }
  | { status: 'recording'; seconds: number }
  | { status: 'recorded'; take: RecordedTake }
  | { status: 'error'; code: MicrophoneError['code'] };

/**
 * Records one take of a phrase: the microphone at 16 kHz, a level for the meter, a stop
 * at the time limit, and in hands-free mode a stop when the person has finished speaking.
 */
export function useTakeRecorder(phrase: string, options: { handsFree: boolean }) {
  const [state, setState] = useState<RecorderState>({ status: 'idle' });
  const [level, setLevel] = useState(0);
  const session = useRef<MicrophoneSession | null>(null);
  const chunks = useRef<Int16Array[]>([]);
  const activity = useRef<SpeechActivity | null>(null);
  const stopping = useRef(false);

  const stop = useCallback(async () => {
    const current = session.current;
    if (!current || stopping.current) return;
    stopping.current = true;
    const rest = await current.stop();
    session.current = null;
    stopping.current = false;
    setLevel(0);
    const parts = [...chunks.current, rest];
    const samples = new Int16Array(parts.reduce((sum, part) => sum + part.length, 0));
    let offset = 0;
    for (const part of parts) {
      samples.set(part, offset);
      offset += part.length;
    }
    const seconds = samples.length / RATE;
    const speechSeconds = activity.current?.speechSeconds ?? 0;
    setState({
      status: 'recorded',
      take: {
        samples,
        seconds,
        speechSeconds,
        verdict: judgeTake(speechSeconds, seconds),
        cut: cutOff(int16ToFloat32(samples)),
      },
    });
  }, []);

  const start = useCallback(async () => {
    if (session.current) return;
    setState({ status: 'starting' });
    chunks.current = [];
    activity.current = new SpeechActivity(HANDS_FREE_END_SILENCE);
    const limit = recordingLimitSeconds(phrase) * RATE;
    let recorded = 0;
    try {
      session.current = await openMicrophone({
        deviceId: browserState.get('audioOptions')?.deviceId ?? null,
        chunkSamples: 1600,
        onChunk: (chunk) => {
          chunks.current.push(chunk);
          activity.current?.push(chunk);
          recorded += chunk.length;
          setState({ status: 'recording', seconds: recorded / RATE });
          const heardTheEnd = options.handsFree && activity.current?.ended === true;
          if (recorded >= limit || heardTheEnd) void stop();
        },
        onLevel: ({ rms }) => setLevel(rms),
      });
      setState({ status: 'recording', seconds: 0 });
    } catch (error) {
      session.current = null;
      setState({ status: 'error', code: error instanceof MicrophoneError ? error.code : 'failed' });
    }
  }, [phrase, options.handsFree, stop]);

  const reset = useCallback(() => setState({ status: 'idle' }), []);

  // Leaving the page releases the microphone.
  useEffect(
    () => () => {
      void session.current?.stop();
      session.current = null;
    },
    [],
  );

  return { state, level, start, stop, reset };
}
