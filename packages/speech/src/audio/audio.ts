import { SpeechError } from '../errors.js';
import { SAMPLE_RATE } from '../units.js';
import { resample } from './resample.js';
import { decodeWav, type DecodedAudio } from './wav.js';

/** Average the channels into one. */
export function downmix(audio: DecodedAudio): Float32Array {
  const [first, ...rest] = audio.channels;
  if (first === undefined) throw new SpeechError('empty_audio', 'The audio has no channels.');
  if (rest.length === 0) return first;
  const out = first.slice();
  for (const ch of rest) for (let i = 0; i < out.length; i++) out[i] = (out[i] ?? 0) + (ch[i] ?? 0);
  const scale = 1 / audio.channels.length;
  for (let i = 0; i < out.length; i++) out[i] = (out[i] ?? 0) * scale;
  return out;
}

/** Decoded audio as the product's format: 16 kHz mono float samples. */
export function toMono16k(audio: DecodedAudio): Float32Array {
  return resample(downmix(audio), audio.sampleRate, SAMPLE_RATE);
}

/** Decode a WAV file straight to 16 kHz mono. */
export function wavToMono16k(bytes: Uint8Array): Float32Array {
  return toMono16k(decodeWav(bytes));
}

/** Signals one after another. */
export function concatAudio(...parts: Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Convert 16-bit PCM samples to floats in [-1, 1]. */
export function int16ToFloat32(pcm: Int16Array): Float32Array {
  const out = new Float32Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) out[i] = (pcm[i] ?? 0) / 32768;
  return out;
}
