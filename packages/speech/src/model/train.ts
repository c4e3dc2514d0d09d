import { SpeechError } from '../errors.js';
import type { PhoneModel } from '../phones/acoustic-model.js';
import { DtwWorkspace } from './dtw.js';
import { phoneViewOf, spanFeatures, takeSpan, type TakeSpan } from './features-of-take.js';
import { meanCepstrum, phoneCepstra } from '../phones/posteriorgram.js';
import { fillsEveryBand } from '../features/bandwidth.js';
import type { FeatureMatrix } from '../features/features.js';
import {
  DEFAULT_SETTINGS,
  cepstralDims,
  makeTemplate,
  matchesPhones,
  modelVersionFor,
  templateAsQuery,
  templateStep,
  phraseKey,
  type Calibration,
  type ModelSettings,
  type Prepared,
  type Profile,
  type Template,
} from './profile.js';
import { align, closestPhrases, confidence, misfit, prune, SketchTable } from './scoring.js';
import { learnWhitening, pairsOf, whiten } from './whitening.js';
import { learnVoicePrint } from './voice-print.js';
import type { Seconds } from '../units.js';
import { riseOf } from '../vad/endpointer.js';

/** One enrolment recording: the phrase and its audio at 16 kHz mono, or the analysis of it
 * kept from an earlier training (`take-analysis.ts`), or both. */
export interface TrainingItem {
  text: string;
  audio?: Float32Array;
  /** The take's analysis, used instead of analysing `audio` again when it holds what this
   * profile's settings match on (the phone filters' bands, for profiles that match phones). */
  analysis?: TakeSpan;
  /** An utterance the user said was none of their phrases (`text` is then ignored): it
   * is never an answer, and what sounds like it is rejected. */
  unknown?: boolean;
  /** A recording made elsewhere, kept as the app would have recorded it (`keptAsImported`):
   * profiles mostly of such takes reject at {@link IMPORTED_THRESHOLD}. */
  keptAsRecorded?: boolean;
}

/** Training settings. */
export interface TrainOptions {
  settings?: Partial<ModelSettings>;
  /** Confidence below which results are rejected (default 0.5, the threshold chosen on the
   * tuning splits, or nearer {@link IMPORTED_THRESHOLD} as more of the takes were imported
   * and kept as recorded). Lower accepts more unknown phrases; higher rejects more known ones. */
  threshold?: number;
  /** Default end-point silence, raised when the user's takes hold longer pauses. */
  minSilence?: Seconds;
  /** The phone acoustic model; needed when `settings.phoneWeight` is above 0. */
  phones?: PhoneModel;
  /** Clock for `trainedAt`, injectable for reproducible files. */
  now?: () => Date;
}

/**
 * The rejection rule, one for every user: with `n = log(d1 / impostor scale of the matched
 * template)` and `r = log(d1 / rival)`, the score `s = 0.5 n + r` is accepted below -0.17,
 * and the confidence is `sigmoid(20 (-0.17 - s))`, so the threshold is 0.5. Both terms are
 * ratios, so a session that makes every distance grow moves them far less than it moves
 * the distance itself. Weights, cut and slope were chosen on the tuning splits (FSDD takes
 * 5-9 and the synthetic tuning takes); see docs/decisions/0053. On the features of format
 * 12 (`settings.variancePower`) the cut is -0.1885 (`-3.77`; FSDD takes 5-9 with one
 * enrolment take, docs/decisions/0061).
 */
export const RELATIVE_CALIBRATION: Calibration = { weights: [-3.77, -10, -20], threshold: 0.5 };
/**
 * The same rule for profiles that match on whitened features (docs/decisions/0057), with
 * the match's misfit `w` (`scoring.ts`) beside it (docs/decisions/0058): the score is
 * `s = 0.5 n + r + 0.3 (w - m)`, `m` the median misfit of the user's takes against other
 * takes of the same phrase, accepted below -0.1965 (`sigmoid(20 (-0.1965 - s))`; -0.1985
 * before pauses were cut, -0.1695 on the plain front end of format 12 and -0.155 on the
 * features before it, docs/decisions/0061, 0062 and 0064). Training stores `m` beside the
 * weights; utterances too short for a misfit (`settings.misfitAbove`) are judged on
 * `0.5 n + r` alone (docs/decisions/0059). The distance beyond repetition
 * ({@link BEYOND_REPETITION}) joins the score too.
 */
export const WHITENED_CALIBRATION: Calibration = { weights: [-3.67, -10, -20, -6], threshold: 0.5 };
/**
 * With the whitened rule, a match whose distance lies more than `e^0.2` (1.22) times the
 * user's take-to-take distance away loses `0.5` of score per unit of log distance beyond
 * it (`sigmoid` units: 20 times that). It decides where the other phrases are too few or
 * too unlike an unknown one to act as rivals (a handful of phrases), and leaves large
 * vocabularies as they were on the tuning splits (docs/decisions/0060).
 */
export const BEYOND_REPETITION = { above: 0.2, weight: -10 } as const;
/**
 * Beside it, further out: a match more than `e^0.45` (1.57) times the user's take-to-take
 * distance away loses another `4` of score a unit of log distance beyond that. A single
 * word that differs from an enrolled one in a sound ("go" for "no", "hello" for "no") lies
 * 1.67-1.75 times as far, and far from every other phrase, so the relative terms take it
 * for a repetition; a later session's own words lie nearer (the synthetic speakers'
 * later-day tuning takes decide as without it). Tuning splits: the mild speakers' single
 * words 7.1 -> 3.6 % of unknown words accepted, every other figure as before
 * (docs/decisions/0111). Phrases of several words heard long enough for a misfit are left
 * to it: a steady speaker's phrases lie as far over a noisier room or through a headset,
 * and the misfit still tells a word that differs (tuning takes: the mild speakers 20 dB
 * over a noisy room 74.5 -> 95.7 % understood, through a headset 90.9 -> 99.5 %, every
 * ruled set as before; docs/decisions/0126).
 */
export const FAR_BEYOND_REPETITION = { above: 0.45, weight: -80, leavesPhrasesToMisfit: true } as const;
/**
 * What a live utterance heard in a room louder than the user's takes were is allowed for
 * (`calibration.loudRoom`): rising over its room 8 dB less than the takes did, nothing;
 * 20 dB or more less, one unit of score in `sigmoid` units (0.05 of the cut's score, the
 * confidence of a match at the threshold raised from 0.5 to 0.73); in between, in
 * proportion. Such a room brings a known word's score far nearer the cut than an unknown
 * word's: on the tuning takes in `speech:rooms` (hands-free, one voice, four voices, a fan
 * or real people 20 dB under them), FSDD's known digits understood 320 -> 364 of 596,
 * unknown digits accepted 0 -> 3 of 124, and in their own room the same
 * (docs/decisions/0085).
 */
export const LOUD_ROOM = { fromDb: 8, fullDb: 20, weight: 1 } as const;
/**
 * The rejection cut of a profile whose takes were all made elsewhere and kept as the app
 * records a phrase (`keptAsImported`): their room is one the recogniser made, the same
 * under every take, and it brings unknown words nearer (docs/decisions/0114). A profile
 * of both kinds rejects between the two cuts in proportion to its share of such takes, in
 * logit units. The house rule's cut over the imported tuning sets (`speech:tune
 * --imported`); the server does not mark imports so (docs/decisions/0115).
 */
export const IMPORTED_THRESHOLD = 0.765;

/** The cut for takes of which this share were imported and kept as recorded. */
export function thresholdForImported(share: number): number {
  const logit = Math.log(IMPORTED_THRESHOLD / (1 - IMPORTED_THRESHOLD));
  const base = Math.log(RELATIVE_CALIBRATION.threshold / (1 - RELATIVE_CALIBRATION.threshold));
  return 1 / (1 + Math.exp(-(base + share * (logit - base))));
}

/**
 * A marked take closer than this many times the user's median take-to-take distance to
 * an enrolled take is taken for that phrase. Above 1 because the whitening is fitted to
 * the enrolled takes, which brings them closer to each other than new takes of the same
 * phrase come (tuning splits: 65 % of known FSDD takes marked by mistake are caught, 86-87 %
 * of synthetic moderate and severe ones, and no unknown take; at 1, 51 % and 78-79 %).
 */
const MISTAKEN_MARK_RATIO = 1.05;
/**
 * How whitened profiles analyse (docs/decisions/0062): 16 cepstra instead of 20, as the
 * highest follow pitch and voice from take to take more than the words, and deltas over
 * three frames either side instead of two (60 ms at the matching rate), steadier over the
 * tremor and jitter of atypical speech and over a short word's few frames. On the tuning
 * splits each raised accuracy at the one cut; profiles of one take per phrase, which are
 * not whitened, did better with the plain front end. Pauses are cut short too
 * (`pauseFloor`, 3 dB; docs/decisions/0064), except in profiles that match phones, whose
 * phone view follows every frame; for the same reason only the others may leave a live
 * utterance's quiet ends out of its alignment (`endSkip`: frames 12 dB under its loud
 * level, at 1.5 times the phrase's take-to-take distance each; docs/decisions/0074).
 */
export const WHITENED_FRONT_END = {
  cepstra: 16,
  deltaWindow: 3,
  pauseFloor: 3,
  endSkip: { quietBelowDb: 12, cost: 1.5 },
} as const satisfies Partial<ModelSettings>;
/**
 * How far under an utterance's loudest log-mel energy profiles of full-band takes floor
 * the rest (`settings.dynamicRange`). On the tuning takes through an 8 kHz channel,
 * decoded by profiles of the full-band takes, 60 dB reads mild, moderate and severe speech
 * at 99.5, 95.7 and 95.7 % (91.3, 91.8 and 80.8 without a floor) and leaves every set of
 * the house rule at the same accuracy and false accepts; 50 dB did as well through the
 * channel but accepted one more unknown mild word without it, 70 dB helped less
 * (docs/decisions/0066).
 */
export const DYNAMIC_RANGE = 60;
/** Typical take-to-take distance relative to the nearest other phrase, for single-take profiles. */
const SCALE_PRIOR_RATIO = 0.8;
/** Other phrases each take is aligned against to find its impostor scale. */
const COMPETITORS = 3;
/** Closest takes of other phrases averaged into a template's impostor scale. */
const IMPOSTORS = 3;
/** Pseudo-count pulling each phrase's scale towards the user's overall scale. */
const SCALE_SHRINK = 1000;

function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/**
 * Train a personal profile: one template per take, the take-to-take spread of each phrase,
 * and each template's impostor scale. Exact alignments grow linearly with the takes: each
 * take is aligned against the takes of its own phrase and of its three closest other
 * phrases, found by comparing the sketches of every pair of takes once.
 * The rejection rule itself is the same for every user ({@link RELATIVE_CALIBRATION}):
 * thresholds learned from two or three takes recorded back to back proved too tight for
 * recordings of another day.
 */
export function trainProfile(items: readonly TrainingItem[], options: TrainOptions = {}): Profile {
  if (items.length === 0) throw new SpeechError('bad_training_data', 'There are no recordings to train on.');
  const asked = options.settings ?? {};
  const settings: ModelSettings = { ...DEFAULT_SETTINGS, ...asked };
  // The phone view is scored frame by frame as a stream arrives, so it cannot lose pauses;
  // asked for both, training would whiten on one timeline and match on another.
  if (matchesPhones(settings) && settings.pauseFloor !== undefined)
    throw new SpeechError(
      'bad_training_data',
      'Profiles that match phones keep their pauses: pauseFloor cannot be set with phoneWeight.',
    );
  const phraseIndex = new Map<string, number>();
  const phrases: string[] = [];
  const takes: TakeSpan[] = [];
  const takePhrases: number[] = [];
  let longestPause = 0;
  let unknownPhrase: number | undefined;
  for (const item of items) {
    // Utterances marked as none of the user's phrases gather in one slot with no text.
    const key = phraseKey(item);
    if (key === '') throw new SpeechError('bad_training_data', 'A phrase has no text.');
    let p = phraseIndex.get(key);
    if (p === undefined) {
      p = phrases.length;
      phraseIndex.set(key, p);
      phrases.push(item.unknown === true ? '' : item.text.trim());
      if (item.unknown === true) unknownPhrase = p;
    }
    const take = analysisOf(item, settings);
    longestPause = Math.max(longestPause, take.longestPause);
    takes.push(take);
    takePhrases.push(p);
  }
  if (phrases.length === (unknownPhrase === undefined ? 0 : 1))
    throw new SpeechError('bad_training_data', 'There are no recordings of phrases to train on.');
  // Takes that fill every band are matched with their quietest bands floored, so that live
  // audio from a narrower channel (an 8 kHz headset) reads as they do; band-limited takes
  // are matched as they are, which measured better than any floor (docs/decisions/0066).
  if (
    !('dynamicRange' in asked) &&
    !matchesPhones(settings) &&
    fillsEveryBand(takes.map((take) => take.frames))
  )
    settings.dynamicRange = DYNAMIC_RANGE;
  // The phone view removes one cepstral mean, the user's over all their takes, so that a
  // live frame scores the same whatever utterance it ends up in.
  const phoneView = phoneViewOf(settings, options.phones, () => userPhoneMean(takes));
  // Whitening is learned on the cepstral view of the takes, then applied to them and, by
  // the Matcher, to every live utterance. Whitened profiles analyse with their own front
  // end; without repetitions to whiten by, the plain one measured better. What the caller
  // asks for in the settings is used either way.
  const whitenedFrontEnd: Partial<ModelSettings> = Object.fromEntries(
    Object.entries(WHITENED_FRONT_END).filter(
      ([key]) => !(key in asked) && !((key === 'pauseFloor' || key === 'endSkip') && phoneView !== undefined),
    ),
  );
  const whitenedSettings: ModelSettings = { ...settings, ...whitenedFrontEnd };
  const whitenedTakes = takes.map((take) => spanFeatures(take.frames, whitenedSettings));
  const whitening = learnWhitening(whitenedTakes, takePhrases, {
    dims: cepstralDims(whitenedSettings),
    band: settings.band,
    skipPhrase: unknownPhrase,
  });
  if (whitening !== undefined) Object.assign(settings, whitenedFrontEnd);
  const features = takes.map((take, i) =>
    whiten(
      phoneView !== undefined
        ? spanFeatures(take.frames, settings, phoneView)
        : whitening === undefined
          ? spanFeatures(take.frames, settings)
          : (whitenedTakes[i] as FeatureMatrix),
      whitening,
    ),
  );
  const step = templateStep(features);
  const built = features.map((f, i) => makeTemplate(f, takePhrases[i] as number, settings, step));
  // Takes are compared with each other as a live utterance would be: as floats.
  const builtQueries = built.map(templateAsQuery);
  const ws = new DtwWorkspace();

  // Take-to-take distances within each phrase: the phrase's own spread.
  const intra = phraseSpreads(built, builtQueries, phrases.length, unknownPhrase, settings, ws);
  const allIntra = intra.flat();
  // An utterance marked unknown with a take of an enrolled phrase about as close as that
  // phrase's takes typically are to each other is that phrase (said before it was
  // enrolled, or marked by mistake): it must not teach rejection of it. Emptied, the slot
  // stays.
  const otherTakesOfUnknown = new Map<number, number[]>();
  let kept = built.map((_, i) => i);
  if (unknownPhrase !== undefined && allIntra.length > 0) {
    const scale = MISTAKEN_MARK_RATIO * median(allIntra);
    const byBuiltPhrase = templatesByPhrase(built, phrases.length);
    kept = kept.filter((i) => {
      if ((built[i] as Template).phrase !== unknownPhrase) return true;
      const others = closestOtherTakes(built, byBuiltPhrase, i, builtQueries[i] as Prepared, settings, ws);
      otherTakesOfUnknown.set(i, others);
      return !((others[0] ?? Infinity) < scale);
    });
  }
  const templates = kept.map((i) => built[i] as Template);
  const queries = kept.map((i) => builtQueries[i] as Prepared);
  const byPhrase = templatesByPhrase(templates, phrases.length);

  // Each take against the takes of its closest other phrases (found as the decoder's first
  // pass finds them; of each, the three closest by sketch): the mean of the three closest
  // is the take's impostor scale, what a different phrase typically scores against it. A
  // live distance is judged relative to the scale of the template it matched (cohort
  // normalisation per template). An unknown take's other phrases are the enrolled ones,
  // which the guard above has already searched.
  const candidates = impostorCandidates(templates, queries, phrases.length, ws);
  const impostor = kept.map((b, i) =>
    impostorScale(
      otherTakesOfUnknown.get(b) ??
        closestOtherTakes(templates, byPhrase, i, queries[i] as Prepared, settings, ws, candidates[i]?.takes),
    ),
  );

  const knownImpostor = impostor.filter((d) => Number.isFinite(d));
  const globalScale =
    allIntra.length > 0
      ? median(allIntra)
      : knownImpostor.length > 0
        ? SCALE_PRIOR_RATIO * median(knownImpostor)
        : 1;
  // One scale per user: per-phrase spreads from two or three takes proved too noisy to help.
  const scales = Float32Array.from(
    intra.map(
      (list) => (list.reduce((a, b) => a + b, 0) + SCALE_SHRINK * globalScale) / (list.length + SCALE_SHRINK),
    ),
  );
  // A profile of one phrase has no impostors: assume the usual ratio to the take-to-take scale.
  const fallback = knownImpostor.length > 0 ? median(knownImpostor) : globalScale / SCALE_PRIOR_RATIO;
  const templateScales = Float32Array.from(impostor, (d) => (Number.isFinite(d) ? d : fallback));
  const phraseItems = items.filter((item) => item.unknown !== true);
  const threshold =
    options.threshold ??
    thresholdForImported(
      phraseItems.filter((item) => item.keptAsRecorded === true).length / Math.max(1, phraseItems.length),
    );
  const rule: Calibration =
    whitening === undefined
      ? { weights: [...RELATIVE_CALIBRATION.weights], threshold }
      : misfitCalibration(typicalMisfit(templates, queries, byPhrase, unknownPhrase, settings), threshold);
  // Only whitened profiles allow for a loud room and judge a match far beyond repetition
  // more steeply: profiles of one take a phrase, judged on the plain rule, accepted far
  // more unknown words with the allowance (0085). Profiles that match phones keep their
  // own format (15), which has neither.
  const whitenedCepstraOnly = whitening !== undefined && phoneView === undefined;
  const riseDb = whitenedCepstraOnly ? takesRise(takes) : undefined;
  const calibration: Calibration = {
    ...rule,
    ...(riseDb === undefined ? {} : { loudRoom: { riseDb, ...LOUD_ROOM } }),
    ...(whitenedCepstraOnly ? { farBeyondRepetition: { ...FAR_BEYOND_REPETITION } } : {}),
  };
  // The phone format (15) has no place for it.
  const voice = phoneView === undefined ? learnVoicePrint(takes.map((take) => take.frames)) : undefined;
  return {
    version: modelVersionFor(settings),
    settings,
    phrases,
    scales,
    templates,
    step,
    templateScales,
    calibration,
    ...(phoneView === undefined ? {} : { phoneMean: phoneView.mean }),
    ...(whitening === undefined ? {} : { whitening }),
    ...(unknownPhrase === undefined ? {} : { unknownPhrase }),
    ...(voice === undefined ? {} : { voice }),
    minSilence: Math.max(options.minSilence ?? 0.3, Math.min(1.5, longestPause + 0.1)),
    trainedAt: (options.now?.() ?? new Date()).toISOString(),
  };
}

/** How far the user's takes typically rose over their room (`riseOf`), if any take says. */
function takesRise(takes: readonly TakeSpan[]): number | undefined {
  const rises = takes
    .map((take) => riseOf(take.frames.map((f) => f.energyDb)))
    .filter((rise): rise is number => rise !== undefined);
  return rises.length > 0 ? median(rises) : undefined;
}

/** The take's kept analysis when this profile can use it, else the analysis of its audio. */
function analysisOf(item: TrainingItem, settings: ModelSettings): TakeSpan {
  const kept = item.analysis;
  if (kept !== undefined && (!matchesPhones(settings) || kept.frames.every((f) => f.phoneMel !== undefined)))
    return kept;
  if (item.audio === undefined)
    throw new SpeechError(
      'bad_training_data',
      'A take has neither its audio nor an analysis this profile can be trained on.',
    );
  return takeSpan(item.audio, settings);
}

/** The whitened rule for a user whose takes of one phrase misfit each other by `typical`. */
function misfitCalibration(typical: number, threshold: number): Calibration {
  return {
    weights: [...WHITENED_CALIBRATION.weights],
    threshold,
    typicalMisfit: typical,
    beyondRepetition: { ...BEYOND_REPETITION },
  };
}

/**
 * The median misfit of the user's takes aligned with other takes of the same phrase (both
 * ways round, the pairs the whitening aligns): how unevenly this user's repetitions fit
 * each other, which a new repetition's misfit is judged against. Only takes long enough to
 * have a misfit count; 0 without any.
 */
function typicalMisfit(
  templates: readonly Template[],
  queries: readonly Prepared[],
  byPhrase: readonly (readonly number[])[],
  unknownPhrase: number | undefined,
  settings: ModelSettings,
): number {
  const misfits: number[] = [];
  byPhrase.forEach((list, p) => {
    if (p === unknownPhrase) return;
    for (const [x, y] of pairsOf(list.length)) {
      for (const [a, b] of [
        [list[x], list[y]],
        [list[y], list[x]],
      ] as [number, number][]) {
        const w = misfit(queries[a] as Prepared, templates[b] as Template, settings);
        if (w !== undefined) misfits.push(w);
      }
    }
  });
  return misfits.length > 0 ? median(misfits) : 0;
}

function templatesByPhrase(templates: readonly Template[], phraseCount: number): number[][] {
  const byPhrase: number[][] = Array.from({ length: phraseCount }, () => []);
  templates.forEach((t, i) => byPhrase[t.phrase]?.push(i));
  return byPhrase;
}

/** Distances between the takes of each phrase, pair by pair (none for the unknown slot). */
function phraseSpreads(
  templates: readonly Template[],
  queries: readonly Prepared[],
  phraseCount: number,
  unknownPhrase: number | undefined,
  settings: ModelSettings,
  ws: DtwWorkspace,
): number[][] {
  const byPhrase = templatesByPhrase(templates, phraseCount);
  return byPhrase.map((list, p) => {
    const spread: number[] = [];
    if (p === unknownPhrase) return spread;
    for (let a = 0; a < list.length; a++) {
      const query = queries[list[a] as number] as Prepared;
      for (let b = a + 1; b < list.length; b++) {
        const d = align(query, templates[list[b] as number] as Template, settings, ws);
        if (Number.isFinite(d)) spread.push(d);
      }
    }
    return spread;
  });
}

function userPhoneMean(takes: readonly TakeSpan[]): Float32Array {
  return meanCepstrum(phoneCepstra(takes.flatMap((take) => take.frames)));
}

/** An impostor scale: the mean of the closest takes of other phrases (nearest first); NaN without any. */
function impostorScale(closestOther: readonly number[]): number {
  const closest = closestOther.slice(0, IMPOSTORS);
  return closest.length > 0 ? closest.reduce((x, y) => x + y, 0) / closest.length : NaN;
}

/**
 * Distances of template `i` (`query`, as floats) to the takes of other phrases `against`,
 * or to every take of its closest other phrases found by the decoder's own first pass;
 * nearest first.
 */
function closestOtherTakes(
  templates: readonly Template[],
  byPhrase: readonly (readonly number[])[],
  i: number,
  query: Prepared,
  settings: ModelSettings,
  ws: DtwWorkspace,
  against?: readonly number[],
): number[] {
  const own = (templates[i] as Template).phrase;
  const notOwn = (j: number): boolean => j === i || (templates[j] as Template).phrase === own;
  const takes =
    against ??
    prune(templates, byPhrase.length, query, query.sketch, COMPETITORS, ws, notOwn).flatMap(
      (p) => byPhrase[p] ?? [],
    );
  const distances: number[] = [];
  for (const j of takes) {
    const d = align(query, templates[j] as Template, settings, ws);
    if (Number.isFinite(d)) distances.push(d);
  }
  return distances.sort((x, y) => x - y);
}

/** What a take's impostor scale is drawn from (see {@link impostorCandidates}). */
export interface ImpostorCandidates {
  /** The {@link COMPETITORS} closest other phrases, nearest first. */
  phrases: number[];
  /** Of each, its {@link IMPOSTORS} takes closest by sketch (all of them, if no more). */
  takes: number[];
}

/**
 * For every take, the {@link COMPETITORS} closest other phrases by the first pass's sketch
 * distance, as `prune` finds them one take at a time, and of each the takes the impostor
 * scale is aligned against. Sketches all have the same length and the alignment's steps
 * are symmetric, so each pair of takes is aligned once and counts for both: half the work
 * of the first pass run per take, which grows with the square of the takes. Either way
 * round a pair's distance is the same up to float rounding (a query's sketch is its
 * template's 8-bit values as floats). The closest takes a scale averages are taken to be
 * among each phrase's {@link IMPOSTORS} closest by sketch, so a profile that keeps more
 * takes of a phrase (learning from use) aligns each take against no more of them than one
 * of three takes a phrase, which is aligned against all of them as before. The table costs
 * 36 bytes per take and phrase while training (4.3 MB for 200 phrases of three takes).
 */
export function impostorCandidates(
  templates: readonly Template[],
  queries: readonly Prepared[],
  phraseCount: number,
  ws: DtwWorkspace,
): ImpostorCandidates[] {
  const n = templates.length;
  const k = IMPOSTORS;
  // Per take and phrase, the k closest takes by sketch distance, nearest first.
  const nearest = new Float64Array(n * phraseCount * k).fill(Infinity);
  const which = new Int32Array(n * phraseCount * k).fill(-1);
  const offer = (slot: number, d: number, take: number): void => {
    const at = slot * k;
    if (!(d < (nearest[at + k - 1] as number))) return;
    let r = k - 1;
    for (; r > 0 && d < (nearest[at + r - 1] as number); r--) {
      nearest[at + r] = nearest[at + r - 1] as number;
      which[at + r] = which[at + r - 1] as number;
    }
    nearest[at + r] = d;
    which[at + r] = take;
  };
  const sketches = new SketchTable(templates, queries);
  for (let i = 0; i < n; i++) {
    const pi = (templates[i] as Template).phrase;
    for (let j = i + 1; j < n; j++) {
      const t = templates[j] as Template;
      if (t.phrase === pi) continue;
      const d = sketches.distance(i, j, ws);
      offer(i * phraseCount + t.phrase, d, j);
      offer(j * phraseCount + pi, d, i);
    }
  }
  const closest = new Float64Array(phraseCount);
  return templates.map((_, i) => {
    for (let p = 0; p < phraseCount; p++) closest[p] = nearest[(i * phraseCount + p) * k] as number;
    const phrases = closestPhrases(closest, COMPETITORS);
    const takes = phrases.flatMap((p) =>
      Array.from(which.subarray((i * phraseCount + p) * k, (i * phraseCount + p + 1) * k)).filter(
        (j) => j >= 0,
      ),
    );
    return { phrases, takes };
  });
}

/** Re-exported so callers can compute a confidence the way training did. */
export { confidence };
