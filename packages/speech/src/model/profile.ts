import { createFrontEnd, type FeatureMatrix, type FrontEnd, type QuietEnds } from '../features/features.js';
import type { Seconds } from '../units.js';
import { dequantise, halve, quantise, sketch, type Quantised, type Sequence } from './dtw.js';
import type { VoicePrint } from './voice-print.js';

/**
 * Model file format version; bump on any change to features or scoring. Version 2 adds
 * each template's impostor scale and a calibration over it; version 1 files still load and
 * decode as they did (their templates take their phrase's scale). Version 4 may hold a
 * slot of utterances the user marked as none of their phrases, which builds before it
 * would take for a phrase without text. Version 6 may hold a whitening of the
 * features (`Profile.whitening`), which builds before it would not apply to live
 * utterances. Version 8 may weigh a match's misfit in its calibration (a fourth weight),
 * which builds before it would ignore while keeping the looser cut that goes with it.
 * Version 10 keeps the typical misfit beside the weights, gives no misfit to utterances
 * no longer than `settings.misfitAbove`, looks for a misfit on the template's side of the
 * alignment too and may weigh how far a match lies beyond the user's repetitions, none of
 * which builds before it would do. Version 12 divides out only part of each cepstrum's
 * spread within the utterance (`settings.variancePower`), which builds before it would
 * not, and so compare live utterances with its templates on other features. Version 14
 * may match on fewer cepstra (`settings.cepstra`) with deltas over more frames
 * (`settings.deltaWindow`), which builds before it would not. Version 16 may cut pauses
 * short before matching (`settings.pauseFloor`), which builds before it would not. Version
 * 18 may floor each utterance's quietest log-mel energies (`settings.dynamicRange`), which
 * builds before it would not (17 is left to the phone format, should it change). Version
 * 20 may leave a live utterance's quiet ends out of its alignment (`settings.endSkip`),
 * which builds before it would not (19 is left to the phone format). Version 22 allows for
 * a room louder than the takes' (`calibration.loudRoom`), which builds before it would not
 * (21 is left to the phone format). Version 24 may hold the person's voice print
 * (`Profile.voice`), which builds before it would not read (23 is left to the phone
 * format). Version 26 may judge a match far beyond the user's repetitions more steeply
 * (`calibration.farBeyondRepetition`), which builds before it would not (25 is left to the
 * phone format). Version 28 may leave phrases of several words to the misfit
 * (`Hinge.leavesPhrasesToMisfit`), which builds before it would judge by that hinge too (27 is
 * left to the phone format). Versions 1 to 16, 18, 20, 22, 24 and 26 still load.
 */
export const MODEL_VERSION = 28;
/** Format of profiles that also match phone posteriorgrams (`settings.phoneWeight` above 0):
 * their templates carry both views, so builds that know only cepstra must refuse them.
 * Versions 3, 5, 7, 9 and 11 were the same before the unknown slot, before whitening,
 * before the misfit, before the changes of version 10, before the partial variance
 * normalisation of version 12, and 13 before the cepstra count and delta window of
 * version 14. Profiles that match phones keep their pauses (format 16 cuts them), so 15
 * stays their format. */
export const PHONE_MODEL_VERSION = 15;

/** Whether profiles with these settings match phone posteriorgrams too. */
export function matchesPhones(settings: ModelSettings): boolean {
  return (settings.phoneWeight ?? 0) > 0;
}

/** The model format profiles with these settings are written in. */
export function modelVersionFor(settings: ModelSettings): number {
  return matchesPhones(settings) ? PHONE_MODEL_VERSION : MODEL_VERSION;
}

/** Settings fixed at training time and stored with the model. */
export interface ModelSettings {
  /** Analysis frames averaged into one matching frame. */
  decimation: number;
  /** Sakoe-Chiba band as a share of the longer sequence. */
  band: number;
  /** Slices in the first-pass sketch of each utterance. */
  sketchSegments: number;
  /** Phrases always kept by the first pass. */
  pruneMin: number;
  /** Extra share of the vocabulary kept by the first pass. */
  pruneShare: number;
  /** Utterances longer than this many frames are aligned at half the frame rate, and past
   * three times this at a quarter, so very slow speech costs no more than ordinary speech. */
  halveAbove: number;
  /** Weight of the phone posteriorgram appended to each frame; 0 (or absent, in older
   * files) matches cepstra alone and needs no acoustic model (docs/decisions/0055). */
  phoneWeight?: number;
  /** Utterances no longer than this get no misfit: a word that short is barely longer than
   * the misfit's window, so its worst stretch is most of it (docs/decisions/0059). Absent
   * in files before format 10, whose misfit used the window itself (0.3 s) and looked at
   * the utterance's side of the alignment alone. */
  misfitAbove?: Seconds;
  /** How much of each cepstrum's spread within the utterance its features divide out
   * (see `utteranceFeatures`); absent in files before format 12, which divided out all of
   * it (1) (docs/decisions/0061). */
  variancePower?: number;
  /** Cepstra per frame (with as many deltas); absent: {@link FULL_CEPSTRA}, as every file
   * before format 14 and profiles without whitening (docs/decisions/0062). */
  cepstra?: number;
  /** Frames either side each delta is regressed over; absent: {@link PLAIN_DELTA_WINDOW},
   * as every file before format 14 and profiles without whitening (docs/decisions/0062). */
  deltaWindow?: number;
  /** Pauses are cut short before matching: runs of frames less than this many dB above the
   * utterance's quiet floor (see `withoutPauses`); absent: kept, as in every file before
   * format 16, in profiles without whitening and in profiles that match phones
   * (docs/decisions/0064). */
  pauseFloor?: number;
  /** Log-mel energies more than this many dB under an utterance's loudest are raised to
   * that level (see `rangeFloor`), so that audio from a narrower channel than the user's
   * takes matches them; absent: no such floor, as in every file before format 18, in
   * profiles of band-limited takes and in profiles that match phones
   * (docs/decisions/0066). */
  dynamicRange?: number;
  /** A live utterance's quiet ends may be left out of its alignment (see `EndSkip`):
   * the frames before the first and after the last within `quietBelowDb` of its loud
   * level, each at `cost` times the matched phrase's take-to-take distance; absent: every
   * frame aligned, as in every file before format 20, in profiles without whitening and
   * in profiles that match phones (docs/decisions/0074). */
  endSkip?: { quietBelowDb: number; cost: number };
}

export const DEFAULT_SETTINGS: ModelSettings = {
  decimation: 2,
  band: 0.2,
  sketchSegments: 12,
  pruneMin: 5,
  pruneShare: 0.03,
  halveAbove: 110,
  misfitAbove: 0.6,
  variancePower: 0.75,
};

/** `weight * max(0, log(d1 / spread) - above)`, in `sigmoid` units: how a match is judged
 * beyond the user's repetitions of the phrase it matched (`Calibration`). */
export interface Hinge {
  above: number;
  weight: number;
  /** From format 28, on `farBeyondRepetition`: a match of a phrase of several words with a
   * misfit of its own is left to the misfit (files before judged every match by it). */
  leavesPhrasesToMisfit?: true;
}

/** Logistic calibration over log distance ratios. */
export interface Calibration {
  /** Weights for [1, log(d1 / scale), log(d1 / rival)] and, from format 8, the match's
   * `misfit`; the scale is the matched template's entry in `templateScales`. */
  weights: [number, number, number] | [number, number, number, number];
  /** Results below this confidence are rejected as out of vocabulary. */
  threshold: number;
  /** From format 10: the user's typical misfit, which a match's misfit is weighed
   * against (format 8 files hold it in the first weight). */
  typicalMisfit?: number;
  /** From format 10: `weight * max(0, log(d1 / spread) - above)` joins the score, `spread`
   * the typical distance between two takes of the matched phrase. A match much farther
   * than the user's repetitions lie from each other is an unknown phrase even when the
   * other phrases are too few, or too unlike it, to be rivals (docs/decisions/0060). */
  beyondRepetition?: Hinge;
  /** From format 26: a second, steeper hinge of the same kind further out, beside
   * `beyondRepetition`. A single word that differs from an enrolled one in a sound ("go"
   * for "no") lies 1.7 times as far as the user's repetitions of it, farther than a later
   * session takes their own words (docs/decisions/0111). From format 28 not for a phrase of
   * several words heard long enough for a misfit, which tells a word that differs: a
   * steady speaker's phrases lie that far over a noisier room or through another microphone
   * (docs/decisions/0126). */
  farBeyondRepetition?: Hinge;
  /**
   * From format 22: how far the user's takes rose over their room (`riseDb`, the median
   * of their `riseOf`), and what a live utterance that rises less is allowed for. One that
   * rises `fromDb` to `fullDb` less earns up to `weight` of score (`sigmoid` units), in
   * proportion: a room louder than the takes' brings a right match's score far nearer the
   * cut than an unknown phrase's (docs/decisions/0085).
   */
  loudRoom?: LoudRoomAllowance;
}

/** What a live utterance heard in a louder room than the takes' is allowed for ({@link Calibration}). */
export interface LoudRoomAllowance {
  riseDb: number;
  fromDb: number;
  fullDb: number;
  weight: number;
}

/** An utterance ready for matching: full rate, half rate and a fixed-size sketch. */
export interface Prepared extends Sequence {
  quietEnds?: QuietEnds | undefined;
  half: Sequence;
  quarter: Sequence;
  sketch: Sequence;
}

/**
 * One enrolled take, ready for matching, held as 8-bit integers (the model file's own
 * values) at full, half and quarter rate, with its sketch.
 */
export interface Template extends Quantised {
  half: Quantised;
  quarter: Quantised;
  sketch: Quantised;
  phrase: number;
}

/** A trained personal profile. */
export interface Profile {
  version: number;
  settings: ModelSettings;
  /** Display text of each phrase, indexed by phrase number. */
  phrases: string[];
  /** Typical distance between two takes of each phrase. */
  scales: Float32Array;
  templates: Template[];
  /** Quantisation step of every template value (see {@link templateStep}). */
  step: number;
  /** Per template: mean distance to its three closest takes of other phrases (its impostor
   * scale, a per-template cohort normalisation). Format 1 files use their phrase's scale. */
  templateScales: Float32Array;
  calibration: Calibration;
  /** The phrase slot holding utterances the user said were none of their phrases: never
   * an answer, its templates only compete, so what sounds like them is rejected. Its text
   * is empty. Absent when there are none. */
  unknownPhrase?: number;
  /** Within-phrase whitening of the cepstral view (row-major square matrix), applied to
   * templates at training and to every utterance before matching; absent in profiles
   * trained on one take per phrase and in files before format 6 (docs/decisions/0057). */
  whitening?: Float32Array;
  /** Mean phone cepstrum of the user's takes, removed before phone scoring (profiles that
   * match phones only). */
  phoneMean?: Float32Array;
  /** What the person's voice sounds like apart from their words, to tell their phrases from
   * another voice in the room saying them (format 24 on, not in profiles that match phones;
   * docs/decisions/0094). */
  voice?: VoicePrint;
  /** End-point silence long enough to bridge the pauses seen inside this user's takes. */
  minSilence: Seconds;
  /** When the profile was trained (ISO time). */
  trainedAt: string;
}

/** Derive the views matching needs from an utterance's features. */
export function prepare(features: FeatureMatrix, settings: ModelSettings): Prepared {
  const half = halve(features);
  return { ...features, half, quarter: halve(half), sketch: sketch(features, settings.sketchSegments) };
}

/**
 * Build a template from features. The slower rates and the sketch are derived from the
 * quantised full rate, so a template read back from a model file is the very same.
 */
export function makeTemplate(
  features: FeatureMatrix,
  phrase: number,
  settings: ModelSettings,
  step: number,
): Template {
  return templateOf(quantise(features, step), phrase, settings);
}

/** A template from its quantised full rate, as training makes it or a model file holds it. */
export function templateOf(full: Quantised, phrase: number, settings: ModelSettings): Template {
  const views = prepare(dequantise(full), settings);
  return {
    ...full,
    half: quantise(views.half, full.step),
    quarter: quantise(views.quarter, full.step),
    sketch: quantise(views.sketch, full.step),
    phrase,
  };
}

/** A template as an utterance to align against the others (training compares takes). */
export function templateAsQuery(t: Template): Prepared {
  return {
    ...dequantise(t),
    half: dequantise(t.half),
    quarter: dequantise(t.quarter),
    sketch: dequantise(t.sketch),
  };
}

/**
 * One quantisation step for a whole profile: the largest magnitude among the features
 * of its takes over 127. One step for every dimension lets the decoder compare a float
 * utterance with a template at the cost of one multiplication.
 */
export function templateStep(features: readonly Sequence[]): number {
  let max = 0;
  for (const f of features) for (const v of f.data) max = Math.max(max, Math.abs(v));
  return max > 0 ? max / 127 : 1;
}

let cachedFrontEnd: FrontEnd | undefined;
/** The one front end every profile uses (16 kHz, 25 ms frames, 10 ms shift, 32 mel bands,
 * up to {@link FULL_CEPSTRA} cepstra). */
export function defaultFrontEnd(): FrontEnd {
  cachedFrontEnd ??= createFrontEnd({ cepstra: FULL_CEPSTRA });
  return cachedFrontEnd;
}

/** Cepstra of the front end, and of profiles whose settings name no other count. */
export const FULL_CEPSTRA = 20;

/** Cepstra per frame of profiles with these settings. */
export function cepstraOf(settings: ModelSettings): number {
  return settings.cepstra ?? FULL_CEPSTRA;
}

/** Delta window of profiles whose settings name none. */
export const PLAIN_DELTA_WINDOW = 2;

/** Frames either side each delta of profiles with these settings is regressed over. */
export function deltaWindowOf(settings: ModelSettings): number {
  return settings.deltaWindow ?? PLAIN_DELTA_WINDOW;
}

/** Values in a frame's cepstral view: the cepstra and their deltas (phone views follow). */
export function cepstralDims(settings: ModelSettings): number {
  return 2 * cepstraOf(settings);
}

/** The texts of the phrases a profile has takes of (not the slot of utterances marked unknown). */
export function recordedPhrases(profile: Profile): string[] {
  return profile.phrases.filter((_, i) => i !== profile.unknownPhrase);
}

/** Lower-case, strip punctuation and collapse spaces: how phrase texts are compared. */
export function normaliseText(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\p{L}\p{N}\s']/gu, ' ')
    .replace(/'/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** How many words a phrase text holds, as compared (`normaliseText`). */
export function wordsIn(text: string): number {
  return normaliseText(text).split(' ').length;
}

/** Where a take belongs: its phrase's normalised text, or, for an utterance marked as none
 * of the user's phrases, a key no phrase text can normalise to. */
export function phraseKey(take: { text: string; unknown?: boolean }): string {
  return take.unknown === true ? '\u0000unknown' : normaliseText(take.text);
}
