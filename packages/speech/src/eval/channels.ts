// What recording channels do to a signal, to measure how the recogniser copes with them.
import { framePowers, importedAsRecorded, keptAsImported, roomAround } from '../audio/as-recorded.js';
import { resample } from '../audio/resample.js';
import { hash, rng } from '../seeded.js';
import { SAMPLE_RATE } from '../units.js';
import type { LoadedItem } from './evaluate.js';

/** A signal as an 8 kHz recording of it holds it (a telephone, a Bluetooth headset in its
 * narrow-band mode), back at 16 kHz. */
export const narrowBand = (audio: Float32Array): Float32Array =>
  resample(resample(audio, SAMPLE_RATE, 8000), 8000, SAMPLE_RATE);

/** 20 ms frames, for levels. */
const LEVEL_FRAME = SAMPLE_RATE / 50;

/**
 * The power of a recording's speech: the mean over its 20 ms frames within 20 dB of its
 * 95th-percentile frame, so that the quiet around and between words does not count.
 */
export function activeLevel(audio: Float32Array): number {
  const powers = framePowers(audio, LEVEL_FRAME);
  if (powers.length === 0) return 0;
  const sorted = [...powers].sort((a, b) => a - b);
  const loud = sorted[Math.floor(0.95 * (sorted.length - 1))] as number;
  const active = powers.filter((p) => p >= loud / 100);
  return active.reduce((a, p) => a + p, 0) / active.length;
}

/**
 * A recording made in a noisier room: `noise` (read from `offset`, looped) added at
 * `snrDb` under the recording's speech level ({@link activeLevel}), its own level measured
 * over the stretch it covers.
 */
export function inNoise(audio: Float32Array, noise: Float32Array, snrDb: number, offset = 0): Float32Array {
  if (noise.length === 0) throw new RangeError('The noise is empty.');
  const stretch = new Float32Array(audio.length);
  let power = 0;
  for (let i = 0; i < audio.length; i++) {
    const n = noise[(offset + i) % noise.length] as number;
    stretch[i] = n;
    power += n * n;
  }
  power /= Math.max(1, audio.length);
  const scale = power > 0 ? Math.sqrt(activeLevel(audio) / power / 10 ** (snrDb / 10)) : 0;
  const out = new Float32Array(audio.length);
  for (let i = 0; i < audio.length; i++) out[i] = (audio[i] as number) + (stretch[i] as number) * scale;
  return out;
}

/** The root mean square of a signal's samples. */
export const rmsOf = (x: Float32Array): number =>
  Math.sqrt(x.reduce((n, v) => n + v * v, 0) / Math.max(1, x.length));

/** Enrolment items kept as `keptAsImported` keeps imported files (docs/decisions/0115). */
export const enrolledAsImported = (items: readonly LoadedItem[], roomUnderFloorDb?: number): LoadedItem[] =>
  items.map((item) => {
    const { audio, keptAsRecorded } = keptAsImported(item.audio, roomUnderFloorDb);
    return { ...item, audio, keptAsRecorded };
  });

/**
 * Test items each heard as the app records a phrase: the room before, after and under it
 * at the file's own floor, a room of its own for every item (docs/decisions/0113).
 */
export const heardAsRecorded = (items: readonly LoadedItem[]): LoadedItem[] =>
  items.map((item, i) => ({
    ...item,
    audio: importedAsRecorded(item.audio, rng(hash(`${item.speaker} ${i}`))),
  }));

/**
 * A recording cut close at its phrase, as an editor trims a clip: the room before and after
 * it ({@link roomAround}) left out.
 */
export function cutClose(audio: Float32Array): Float32Array {
  const { before, after } = roomAround(audio);
  return audio.slice(Math.round(before * SAMPLE_RATE), audio.length - Math.round(after * SAMPLE_RATE));
}
