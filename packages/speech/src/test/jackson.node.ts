// Jackson's FSDD takes for tests of the generic path beside his profile (Node only: it reads
// the shared data and loads SoundSwallower).
import { concatAudio } from '../audio/audio.js';
import { Matcher } from '../decode/matcher.js';
import { SecondOpinion } from '../generic/second-opinion.js';
import type { Profile } from '../model/profile.js';
import { trainProfile } from '../model/train.js';
import { loadSoundSwallower } from '../platform/soundswallower.node.js';
import { DIGITS, fsddRecording } from './fsdd.node.js';

/** Passed on, so the tests beside his profile need only this module. */
export { DIGITS, haveFsdd } from './fsdd.node.js';

/** Jackson's take `index` of `digit`, as recorded (cut at the word). */
export const speech = (digit: number, index: number): Float32Array => fsddRecording(digit, 'jackson', index);

export const silence = (seconds: number): Float32Array => new Float32Array(Math.round(seconds * 16_000));

/** One of jackson's takes with silence on each side, as a live stream hears it. */
export const padded = (digit: number, index: number): Float32Array =>
  concatAudio(silence(0.5), speech(digit, index), silence(0.5));

/** Jackson's profile of `digits`, from his first three takes of each. */
export const jacksonProfile = (digits: readonly number[]): Profile =>
  trainProfile(digits.flatMap((d) => [0, 1, 2].map((i) => ({ text: DIGITS[d] ?? '', audio: padded(d, i) }))));

/** Jackson's profile of one, four and seven; "three" is a phrase he has not recorded. */
export const jacksonMatcher = (): Matcher => new Matcher(jacksonProfile([1, 4, 7]));

/** A generic path for his phrases: one, four and seven recorded, three not yet. */
export async function jacksonEngine(): Promise<SecondOpinion> {
  const created = await SecondOpinion.create(
    await loadSoundSwallower(),
    ['one', 'four', 'seven', 'three'],
    ['one', 'four', 'seven'],
  );
  if (created === undefined) throw new Error('expected phrases to hear');
  return created;
}
