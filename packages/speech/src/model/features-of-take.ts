import {
  analyse,
  frameLevels,
  SpectralAnalyser,
  utteranceFeatures,
  type FeatureMatrix,
  type FrontEnd,
  type QuietEnds,
  type SpectralFrame,
} from '../features/features.js';
import { SpeechError } from '../errors.js';
import type { PhoneModel } from '../phones/acoustic-model.js';
import { joinViews, phoneCepstra, posteriorgram, type PosteriorCache } from '../phones/posteriorgram.js';
import { findSegments, quietEndsOf, silencesBetween, type EndpointerOptions } from '../vad/endpointer.js';
import type { Decibels, Seconds } from '../units.js';
import { cepstraOf, defaultFrontEnd, deltaWindowOf, matchesPhones, type ModelSettings } from './profile.js';

/** The spoken part of a recorded take and what its pauses say about the speaker. */
export interface TakeSpan {
  /** Longest silence inside the spoken part of the take, as the live end-pointer counts it. */
  longestPause: Seconds;
  /** Duration of the spoken part. */
  speech: Seconds;
  /** The analysis frames of the spoken part. */
  frames: SpectralFrame[];
}

/** A take's spoken part with its matching features. */
export interface TakeFeatures extends TakeSpan {
  features: FeatureMatrix;
}

/** {@link takeSpan} and the matching features of its frames. */
export function takeFeatures(
  samples: Float32Array,
  settings: ModelSettings,
  endpointer: EndpointerOptions = {},
  phones?: PhoneView,
): TakeFeatures {
  const span = takeSpan(samples, settings, endpointer);
  return { ...span, features: spanFeatures(span.frames, settings, phones) };
}

/**
 * Trim a take to its speech with the same end-pointer the live decoder uses (so templates
 * and live utterances are cut alike), keeping pauses inside the phrase. Training reads
 * the frames before it knows every setting the features depend on.
 */
export function takeSpan(
  samples: Float32Array,
  settings: ModelSettings,
  endpointer: EndpointerOptions = {},
): TakeSpan {
  const fe = defaultFrontEnd();
  // Levels first, spectra only for the spoken part: silence around a take costs little.
  const { first, past, longestPause } = spokenPart(frameLevels(samples, fe), fe, endpointer);
  const span =
    past > first
      ? new SpectralAnalyser(fe, first > 0 ? samples[first - 1] : 0, matchesPhones(settings)).push(
          samples.subarray(first, past),
        )
      : analyse(samples, fe, matchesPhones(settings));
  return {
    longestPause,
    speech: (span.length * fe.hopSamples) / fe.sampleRate,
    frames: span,
  };
}

/**
 * The samples of a take's spoken part, `[first, past the last)` of the frames from the first
 * word to the last (all of them when no word is found), and the longest silence between its
 * words as a live stream counts it.
 */
function spokenPart(
  energies: Float64Array,
  fe: FrontEnd,
  endpointer: EndpointerOptions,
): { first: number; past: number; longestPause: Seconds } {
  // A short end-point silence finds the words; the span runs from the first to the last.
  const wordGaps = { ...endpointer, minSilence: 0.12 };
  const segments = findSegments(energies, wordGaps);
  const firstWord = segments[0];
  const lastWord = segments[segments.length - 1];
  // What a live stream must wait out for this take to stay one utterance.
  const longestPause = Math.max(0, ...silencesBetween(segments, wordGaps)) * (fe.hopSamples / fe.sampleRate);
  const words = firstWord !== undefined && lastWord !== undefined && lastWord.endFrame > firstWord.startFrame;
  const from = words ? firstWord.startFrame : 0;
  const to = words ? lastWord.endFrame : energies.length;
  // Frame `to - 1` is the last, and it reaches a frame's length past its start.
  const past = to > from ? (to - 1) * fe.hopSamples + fe.frameSamples : from * fe.hopSamples;
  return { first: from * fe.hopSamples, past, longestPause };
}

/**
 * Where a recorded take's words begin and end, in seconds, found as training finds them
 * ({@link takeSpan}).
 */
export function spokenSpan(
  samples: Float32Array,
  endpointer: EndpointerOptions = {},
): { start: Seconds; end: Seconds } {
  const fe = defaultFrontEnd();
  const { first, past } = spokenPart(frameLevels(samples, fe), fe, endpointer);
  return { start: first / fe.sampleRate, end: Math.min(samples.length, past) / fe.sampleRate };
}

/** How a profile matches phones: the acoustic model, the user's cepstral mean, the view's weight. */
export interface PhoneView {
  model: PhoneModel;
  mean: Float32Array;
  weight: number;
  /** A live stream's scored rows (see {@link posteriorgram}). */
  cache?: PosteriorCache;
}

/** The phone view a profile's settings ask for, or undefined when it matches cepstra alone. */
export function phoneViewOf(
  settings: ModelSettings,
  model: PhoneModel | undefined,
  mean: () => Float32Array | undefined,
): PhoneView | undefined {
  if (!matchesPhones(settings)) return undefined;
  if (model === undefined)
    throw new SpeechError(
      'bad_model',
      'This voice profile needs the phone acoustic model, which was not loaded.',
    );
  const m = mean();
  if (m === undefined) throw new SpeechError('bad_model', 'This voice profile has no phone cepstral mean.');
  return { model, mean: m, weight: settings.phoneWeight ?? 0 };
}

/**
 * Matching features of a span of analysis frames: cepstra, with the phone posteriorgram
 * appended when the profile matches phones. Without `phones` (or for quick guesses while
 * the user speaks) the cepstra alone. With `talkingRoomDb`, the level a room talking
 * around the utterance reaches, its frames are weighed by how far they rise over it
 * (`roomWeights`).
 */
export function spanFeatures(
  frames: readonly SpectralFrame[],
  settings: ModelSettings,
  phones?: PhoneView,
  talkingRoomDb?: Decibels,
): FeatureMatrix {
  if (settings.pauseFloor !== undefined && phones === undefined)
    frames = withoutPauses(frames, settings.pauseFloor);
  const weighed = (features: FeatureMatrix): FeatureMatrix =>
    talkingRoomDb === undefined
      ? features
      : { ...features, weights: roomWeights(frames, talkingRoomDb, settings.decimation, features.frames) };
  const cepstral = utteranceFeatures(frames, defaultFrontEnd(), {
    decimation: settings.decimation,
    variancePower: settings.variancePower,
    cepstra: cepstraOf(settings),
    deltaWindow: deltaWindowOf(settings),
    dynamicRange: settings.dynamicRange,
  });
  if (settings.endSkip !== undefined && phones === undefined)
    cepstral.quietEnds = quietEnds(frames, settings.decimation, settings.endSkip.quietBelowDb);
  if (phones === undefined) return weighed(cepstral);
  const pg = posteriorgram(phoneCepstra(frames), phones.model, {
    decimation: settings.decimation,
    mean: phones.mean,
    cache: phones.cache,
  });
  return weighed(joinViews(cepstral, pg, phones.weight));
}

/**
 * How a frame counts by how far it rises over a talking room: a frame `ROOM_WEIGHT.overDb`
 * or less over the room's level is as much the room's voices as the user's and counts
 * `least`; one `fullDb` over it is the user's and counts fully (docs/decisions/0086).
 */
export const ROOM_WEIGHT = { overDb: 3, fullDb: 15, least: 0.5 } as const;

/** Each matching frame's weight (`ROOM_WEIGHT`): the mean of its analysis frames'. */
export function roomWeights(
  frames: readonly SpectralFrame[],
  roomDb: Decibels,
  decimation: number,
  count: number,
): Float32Array {
  const { overDb, fullDb, least } = ROOM_WEIGHT;
  const weights = new Float32Array(count);
  const step = Math.max(1, decimation);
  for (let t = 0; t < count; t++) {
    let sum = 0;
    for (let d = 0; d < step; d++) {
      const frame = frames[Math.min(frames.length - 1, t * step + d)];
      const rise = (frame?.energyDb ?? roomDb) - roomDb;
      sum += Math.min(1, Math.max(least, (rise - overDb) / (fullDb - overDb)));
    }
    weights[t] = sum / step;
  }
  return weights;
}

/**
 * The matching frames at each end of an utterance before its first and after its last
 * frame within `belowDb` of its loud level (the 95th percentile of its analysis frames).
 */
export function quietEnds(
  frames: readonly SpectralFrame[],
  decimation: number,
  belowDb: Decibels,
): QuietEnds {
  return quietEndsOf(
    frames.map((f) => f.energyDb),
    belowDb,
    decimation,
  );
}

/** Quiet runs at least this long are pauses (docs/decisions/0064). */
export const PAUSE_MIN: Seconds = 0.08;
/** What is kept of each end of a pause: the fall into it and the rise out of it. */
export const PAUSE_EDGE: Seconds = 0.02;
/** The share of an utterance's frames below its quiet floor: its quietest tenth. */
const FLOOR_QUANTILE = 0.1;

/**
 * The frames of an utterance with its pauses cut short: every run of at least
 * {@link PAUSE_MIN} of frames less than `floorDb` above the utterance's quiet floor keeps
 * only {@link PAUSE_EDGE} at each end (the leading and trailing silence the end-pointer
 * pads with included). A hesitation is where severe speech differs most from take to take,
 * and it says nothing about which phrase it is (docs/decisions/0064).
 */
export function withoutPauses(frames: readonly SpectralFrame[], floorDb: Decibels): SpectralFrame[] {
  const fe = defaultFrontEnd();
  const minRun = Math.round((PAUSE_MIN * fe.sampleRate) / fe.hopSamples);
  const edge = Math.round((PAUSE_EDGE * fe.sampleRate) / fe.hopSamples);
  // Too short to hold a pause worth cutting: 0.2 s, the shortest of words.
  if (frames.length < 20) return [...frames];
  const levels = frames.map((f) => f.energyDb).sort((a, b) => a - b);
  const floor = levels[Math.floor(FLOOR_QUANTILE * levels.length)] ?? -Infinity;
  const quiet = (i: number): boolean => (frames[i] as SpectralFrame).energyDb < floor + floorDb;
  const kept: SpectralFrame[] = [];
  for (let i = 0; i < frames.length;) {
    let end = i + 1;
    if (quiet(i)) while (end < frames.length && quiet(end)) end++;
    const run = frames.slice(i, end);
    kept.push(...(quiet(i) && run.length >= minRun ? [...run.slice(0, edge), ...run.slice(-edge)] : run));
    i = end;
  }
  // What is mostly quiet is not cut down to nothing: noise the end-pointer took for speech.
  return kept.length >= 10 ? kept : [...frames];
}
