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
 * with the room at the recording's own floor, or `roomUnderFloorDb` under it; by default
 * seeded by its length, so one take always comes out the same. Profiles of such takes read
 * live speech far better than profiles of the close-cut files, and let more unknown words
 * through (docs/decisions/0114).
 */
export function importedAsRecorded(
  take: Float32Array,
  random = rng(take.length),
  roomUnderFloorDb = 0,
): Float32Array {
  return asRecorded(take, floorRmsOf(take) * 10 ** (-roomUnderFloorDb / 20), random);
}

/**
 * When a recording holds the room around its phrase as the app's own takes do: this much
 * of it at each end, quieter than its floor and this much over it. The app keeps 0.3 s
 * before a phrase and 0.5 s after; FSDD's files, cut close, hold 0-0.13 s before and
 * 0-0.2 s after theirs; a voice memo or the synthetic speakers' takes 0.25 s and more.
 */
export const ROOM_HELD = { seconds: 0.15 as Seconds, overFloorDb: 10 } as const;

/** Frames this quiet hold nothing, not even a room: digital silence, or 16-bit's last bit. */
const DIGITAL_SILENCE_DB = -90;

/** Each 10 ms frame's level, in dB under full scale. */
function frameLevels(audio: Float32Array): number[] {
  return framePowers(audio, SAMPLE_RATE / 100).map((p) => 10 * Math.log10(p + 1e-20));
}

/**
 * How much room a recording (16 kHz) holds before and after its phrase: the 10 ms frames
 * at each end under {@link ROOM_HELD.overFloorDb} over its floor (the quietest tenth of
 * its frames that hold any sound). Digital silence counts as no room: no microphone
 * records it.
 */
export function roomAround(audio: Float32Array): { before: Seconds; after: Seconds } {
  return roomIn(frameLevels(audio), false);
}

/**
 * `roomAround` of a recording's frame levels; with `silenceIsQuiet`, digital silence counts
 * as room: a take recorded live may begin with a device's zeros, which are quiet all the same.
 */
function roomIn(levels: readonly number[], silenceIsQuiet: boolean): { before: Seconds; after: Seconds } {
  const sounding = levels.filter((l) => l > DIGITAL_SILENCE_DB).sort((a, b) => a - b);
  const floor = sounding[Math.floor(0.1 * sounding.length)];
  if (floor === undefined) return { before: 0, after: 0 };
  const roomAt = (order: readonly number[]): number => {
    let room = 0;
    for (const level of order) {
      if (level >= floor + ROOM_HELD.overFloorDb) break;
      if (silenceIsQuiet || level > DIGITAL_SILENCE_DB) room++;
    }
    return room / 100;
  };
  return { before: roomAt(levels), after: roomAt([...levels].reverse()) };
}

/**
 * Whether a recording (16 kHz) holds the room around its phrase as the app's takes do
 * ({@link ROOM_HELD} at each end). A profile of takes that do not (clips trimmed in an
 * editor, or edited to digital silence) understands the person live far worse than one
 * that also has takes recorded in the app (docs/decisions/0113, 0116).
 */
export function holdsItsRoom(audio: Float32Array): boolean {
  const { before, after } = roomAround(audio);
  return Math.min(before, after) >= ROOM_HELD.seconds;
}

/**
 * How near the person's speech an end of a take must be to have been cut in it: its loudest
 * frame within this of the take's loud frames (their 95th percentile). A room's talk or
 * television under the person is not: at 10 dB under the synthetic speakers, 4.5 % of their
 * takes are taken for cut at 6 dB, 33 % at 10 dB; FSDD's close-cut files 83 % (0139).
 */
const CUT_WITHIN_SPEECH_DB = 6;

/**
 * Where a take just recorded in the app seems cut off: less than {@link ROOM_HELD.seconds} of
 * quiet before its first sound (speech began before the microphone did) or after its last
 * (Stop, or the time limit, came mid-word), and that end as loud as the person's speech.
 * Takes without the room around the phrase understand the person live far worse (0113), so
 * the app asks for the take again. Nothing is cut in a take with no sound at all.
 */
export function cutOff(audio: Float32Array): { start: boolean; end: boolean } {
  const all = frameLevels(audio);
  const { before, after } = roomIn(all, true);
  const levels = all.filter((l) => l > DIGITAL_SILENCE_DB);
  if (levels.length === 0) return { start: false, end: false };
  const sorted = [...levels].sort((a, b) => a - b);
  const speech = sorted[Math.floor(0.95 * (sorted.length - 1))] as number;
  const edge = Math.round(ROOM_HELD.seconds * 100);
  const loud = (frames: number[]) => Math.max(...frames) >= speech - CUT_WITHIN_SPEECH_DB;
  return {
    start: before < ROOM_HELD.seconds && loud(levels.slice(0, edge)),
    end: after < ROOM_HELD.seconds && loud(levels.slice(-edge)),
  };
}

/**
 * How far under an imported take's own floor the room it is kept in lies. At the floor
 * measured best on the tuning takes (10, 15 and 20 dB under it: less understood at the cut
 * the house rule allows each, docs/decisions/0115).
 */
export const IMPORTED_ROOM_UNDER_FLOOR_DB = 0;

/** An imported recording as `keptAsImported` keeps it, and whether it was changed to be so. */
export interface ImportedTake {
  audio: Float32Array;
  /** It held too little room around its phrase and was kept as the app records a phrase. */
  keptAsRecorded: boolean;
}

/**
 * An imported recording (16 kHz) as a profile would be trained on it: as it is when it
 * holds the room around its phrase (a voice memo), else as the app would have recorded it
 * ({@link importedAsRecorded}), so that a clip cut close at the word in an editor, or a
 * telephone archive's, is heard live as it was enrolled. Measured, not in the server: on
 * FSDD's test takes it lets 5.0 % of unknown digits through (docs/decisions/0115).
 */
export function keptAsImported(
  audio: Float32Array,
  roomUnderFloorDb = IMPORTED_ROOM_UNDER_FLOOR_DB,
): ImportedTake {
  return holdsItsRoom(audio)
    ? { audio, keptAsRecorded: false }
    : { audio: importedAsRecorded(audio, rng(audio.length), roomUnderFloorDb), keptAsRecorded: true };
}
