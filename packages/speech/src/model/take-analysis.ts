import type { SpectralFrame } from '../features/features.js';
import { SAMPLE_RATE } from '../units.js';
import { takeSpan, type TakeSpan } from './features-of-take.js';
import { DEFAULT_SETTINGS, type ModelSettings } from './profile.js';

/**
 * A take's analysis kept as bytes beside its audio. A take's audio never changes, yet every
 * retrain analysed every take again: the largest part of training a profile of many takes
 * (docs/decisions/0073). Little-endian:
 *
 * - "PTA1", then a u32 fingerprint of the analysis that wrote the file;
 * - u32 frames, u16 mel bands, u16 phone bands (0 when the phone filters were not applied);
 * - f64 longest pause and f64 speech, in seconds;
 * - per frame: f64 level in dB, f32 x mel bands, f32 x phone bands.
 *
 * Every value is held at the precision the analysis computes it in, so a profile trained
 * from these bytes is byte for byte the one trained from the audio.
 *
 * A file written by any other analysis (another front end, end-pointer or FFT: anything
 * that changes a single value the fingerprint's fixed signal produces) is not read back,
 * so a changed analysis can never meet stale frames.
 */
const MAGIC = [0x50, 0x54, 0x41, 0x31]; // "PTA1"
const HEADER_BYTES = 4 + 4 + 4 + 2 + 2 + 8 + 8;

/** Settings that analyse with the phone filters too: the fingerprint covers them. */
const WITH_PHONE_BANDS: ModelSettings = { ...DEFAULT_SETTINGS, phoneWeight: 1 };

let fingerprint: number | undefined;

/**
 * What this build's analysis makes of a fixed signal, hashed: quiet noise, a voiced sound
 * gliding in pitch and loudness, a pause, a noise burst like a fricative, then quiet.
 * Every stage of the analysis (framing, window, FFT, filters, levels, the end-pointer's
 * span) leaves its mark on it.
 */
export function analysisFingerprint(): number {
  if (fingerprint !== undefined) return fingerprint;
  const samples = new Float32Array(Math.round(1.4 * SAMPLE_RATE));
  let seed = 12345;
  const noise = (): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 2 ** 32 - 0.5;
  };
  let phase = 0;
  for (let i = 0; i < samples.length; i++) {
    const t = i / SAMPLE_RATE;
    let v = 0.001 * noise();
    if (t >= 0.3 && t < 0.8) {
      phase += (2 * Math.PI * (120 + 80 * (t - 0.3))) / SAMPLE_RATE;
      const loudness = 0.3 * Math.sin((Math.PI * (t - 0.3)) / 0.5);
      for (let h = 1; h <= 12; h++) v += (loudness / h) * Math.sin(h * phase);
    } else if (t >= 0.95 && t < 1.15) v += 0.1 * noise();
    samples[i] = v;
  }
  let hash = 0x811c9dc5;
  const mix = (word: number): void => {
    for (let b = 0; b < 4; b++) hash = Math.imul(hash ^ ((word >>> (8 * b)) & 0xff), 0x01000193) >>> 0;
  };
  const bits = new DataView(encodeTakeAnalysis(takeSpan(samples, WITH_PHONE_BANDS), 0).buffer);
  for (let at = 8; at + 4 <= bits.byteLength; at += 4) mix(bits.getUint32(at, true));
  fingerprint = hash;
  return hash;
}

/** The bytes of `span`, stamped with this build's {@link analysisFingerprint}. */
export function encodeTakeAnalysis(span: TakeSpan, stamp = analysisFingerprint()): Uint8Array {
  const first = span.frames[0];
  const bands = first?.logMel.length ?? 0;
  const phoneBands = first?.phoneMel?.length ?? 0;
  const out = new Uint8Array(HEADER_BYTES + frameBytes(bands, phoneBands) * span.frames.length);
  const view = new DataView(out.buffer);
  MAGIC.forEach((byte, i) => view.setUint8(i, byte));
  view.setUint32(4, stamp, true);
  view.setUint32(8, span.frames.length, true);
  view.setUint16(12, bands, true);
  view.setUint16(14, phoneBands, true);
  view.setFloat64(16, span.longestPause, true);
  view.setFloat64(24, span.speech, true);
  let at = HEADER_BYTES;
  for (const frame of span.frames) {
    view.setFloat64(at, frame.energyDb, true);
    at += 8;
    for (const values of phoneBands > 0 ? [frame.logMel, frame.phoneMel] : [frame.logMel])
      for (const value of values ?? []) {
        view.setFloat32(at, value, true);
        at += 4;
      }
  }
  return out;
}

/** Whether `bytes` hold a whole analysis written by this build's analysis. */
export function isCurrentTakeAnalysis(bytes: Uint8Array): boolean {
  if (bytes.byteLength < HEADER_BYTES || MAGIC.some((byte, i) => bytes[i] !== byte)) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const frames = view.getUint32(8, true);
  return (
    view.getUint32(4, true) === analysisFingerprint() &&
    bytes.byteLength ===
      HEADER_BYTES + frameBytes(view.getUint16(12, true), view.getUint16(14, true)) * frames
  );
}

function frameBytes(bands: number, phoneBands: number): number {
  return 8 + 4 * (bands + phoneBands);
}

/** The analysis `bytes` hold, or undefined when they are not a current one (see {@link isCurrentTakeAnalysis}). */
export function decodeTakeAnalysis(bytes: Uint8Array): TakeSpan | undefined {
  if (!isCurrentTakeAnalysis(bytes)) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = view.getUint32(8, true);
  const bands = view.getUint16(12, true);
  const phoneBands = view.getUint16(14, true);
  const read = (at: number, length: number): Float32Array => {
    const values = new Float32Array(length);
    for (let k = 0; k < length; k++) values[k] = view.getFloat32(at + 4 * k, true);
    return values;
  };
  const frames: SpectralFrame[] = [];
  let at = HEADER_BYTES;
  for (let f = 0; f < count; f++) {
    const energyDb = view.getFloat64(at, true);
    const logMel = read(at + 8, bands);
    at += 8 + 4 * bands;
    if (phoneBands > 0) {
      frames.push({ logMel, phoneMel: read(at, phoneBands), energyDb });
      at += 4 * phoneBands;
    } else frames.push({ logMel, energyDb });
  }
  return { longestPause: view.getFloat64(16, true), speech: view.getFloat64(24, true), frames };
}

/** Analyse a take as training does for a profile of the default settings, or of those asked. */
export function analyseTake(audio: Float32Array, settings: Partial<ModelSettings> = {}): TakeSpan {
  return takeSpan(audio, { ...DEFAULT_SETTINGS, ...settings });
}
