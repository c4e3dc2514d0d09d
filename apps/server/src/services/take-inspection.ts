import { downmix, resample } from '@parla/speech';
import { AppError } from '../errors.js';
import { decodeAudioFile } from './audio-decoding.js';

/** Shortest take worth keeping (spec section 9). */
export const MIN_TAKE_SECONDS = 0.15;
/** Longest take the server accepts (spec section 9). */
export const MAX_TAKE_SECONDS = 20;
/** Below this loudness (dBFS, RMS of the loudest 100 ms) a take holds no speech. */
const SILENCE_DBFS = -55;
/** Share of samples at full scale above which a take is too distorted to learn from. */
const MAX_CLIPPED_SHARE = 0.01;

export interface InspectedTake {
  /** 16 kHz mono, what training and recognition use. */
  samples: Float32Array;
  durationMs: number;
  peakDbfs: number;
  clippedShare: number;
}

/**
 * Checks an uploaded take — readable audio (WAV from the app, or a common compressed
 * format from an import), long enough, not too long, with sound in it and not clipped —
 * and converts it to 16 kHz mono. Throws a 4xx that says why not.
 */
export async function inspectTake(bytes: Uint8Array): Promise<InspectedTake> {
  const decoded = await decodeAudioFile(bytes);
  const mono = downmix(decoded);
  const seconds = mono.length / decoded.sampleRate;
  if (seconds < MIN_TAKE_SECONDS) {
    throw new AppError(
      400,
      'This recording is too short. Say the phrase after the beep, then stop.',
      'AUDIO_TOO_SHORT',
    );
  }
  if (seconds > MAX_TAKE_SECONDS) {
    throw new AppError(413, `Recordings can be at most ${MAX_TAKE_SECONDS} seconds long.`, 'AUDIO_TOO_LONG');
  }

  let clipped = 0;
  for (const sample of mono) if (Math.abs(sample) >= 0.999) clipped += 1;
  const clippedShare = clipped / mono.length;
  const window = Math.max(1, Math.round(decoded.sampleRate / 10));
  let loudest = 0;
  for (let start = 0; start < mono.length; start += window) {
    let energy = 0;
    const end = Math.min(mono.length, start + window);
    for (let i = start; i < end; i += 1) energy += (mono[i] ?? 0) ** 2;
    loudest = Math.max(loudest, energy / (end - start));
  }
  const peakDbfs = 10 * Math.log10(loudest + 1e-12);
  if (peakDbfs < SILENCE_DBFS) {
    throw new AppError(
      422,
      'We could not hear anything in this recording. Check the microphone and try again.',
      'AUDIO_SILENT',
    );
  }
  if (clippedShare > MAX_CLIPPED_SHARE) {
    throw new AppError(
      422,
      'This recording is too loud and distorted. Move a little further from the microphone and try again.',
      'AUDIO_CLIPPED',
    );
  }
  return {
    samples: resample(mono, decoded.sampleRate, 16_000),
    durationMs: Math.round(seconds * 1000),
    peakDbfs,
    clippedShare,
  };
}
