// Recordings made elsewhere, heard as the app records a phrase (docs/decisions/0113, 0114).
import { rng } from '../seeded.js';
import { SAMPLE_RATE, type Seconds } from '../units.js';

/** The room the app records before a phrase: the end-pointer's padding and more. */
export const RECORDED_LEAD: Seconds = 0.3;
/** The room the app records after a phrase. */
export const RECORDED_TAIL: Seconds = 0.5;

/**
 * A quiet room's own steady sound added to `audio` (in place) at `rms`: brownish noise,
 * white noise through a one-pole low-pass with a little of the white kept.
 */
export function addRoomTone(audio: Float32Array, rms: number, random: () => number): void {
  let lp = 0;
  const tone = new Float32Array(audio.length);
  let power = 0;
  for (let i = 0; i < audio.length; i++) {
    const white = random() * 2 - 1;
    lp = 0.9 * lp + 0.1 * white;
    tone[i] = lp + 0.15 * white;
    power += (tone[i] as number) ** 2;
  }
  const scale = power > 0 ? rms / Math.sqrt(power / audio.length) : 0;
  for (let i = 0; i < audio.length; i++) audio[i] = (audio[i] as number) + (tone[i] as number) * scale;
}

/** The mean power of each whole frame of `frame` samples, in order. */
export function framePowers(audio: Float32Array, frame: number): number[] {
  const powers: number[] = [];
  for (let from = 0; from + frame <= audio.length; from += frame) {
    let sum = 0;
    for (let i = from; i < from + frame; i++) sum += (audio[i] as number) ** 2;
    powers.push(sum / frame);
  }
  return powers;
}

/**
 * A recording's own floor, as a root mean square: that of its quietest tenth of 10 ms
 * frames (the room between words, or a close-cut file's quietest sound). 16 kHz audio.
 */
export function floorRmsOf(audio: Float32Array): number {
  const powers = framePowers(audio, SAMPLE_RATE / 100);
  powers.sort((a, b) => a - b);
  return Math.sqrt(powers[Math.floor(0.1 * powers.length)] ?? 0);
}

/**
 * A recording (16 kHz) as the app would have recorded it: {@link RECORDED_LEAD} before it
 * and {@link RECORDED_TAIL} after it, and a quiet room at `roomRms` throughout. A word cut
 * close in a file then begins and ends in a room, and its quiet parts hold a room's sound,
 * as a live utterance's do.
 */
export function asRecorded(word: Float32Array, roomRms: number, random: () => number): Float32Array {
  const before = Math.round(RECORDED_LEAD * SAMPLE_RATE);
  const out = new Float32Array(before + word.length + Math.round(RECORDED_TAIL * SAMPLE_RATE));
  out.set(word, before);
  addRoomTone(out, roomRms, random);
  return out;
}

/**
 * A recording made elsewhere (16 kHz) as the app would have recorded it: {@link asRecorded}
 * with the room at the recording's own floor; by default seeded by its length, so one take
 * always comes out the same. Profiles of such takes read live speech far better than
 * profiles of the close-cut files, and let more unknown words through; the server does not
 * keep imports so yet (docs/decisions/0114). `speech:eval --imported` and `--as-recorded`
 * measure it.
 */
export function importedAsRecorded(take: Float32Array, random = rng(take.length)): Float32Array {
  return asRecorded(take, floorRmsOf(take), random);
}
