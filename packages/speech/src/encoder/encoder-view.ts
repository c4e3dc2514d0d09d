import { normaliseColumns } from '../features/features.js';
import { spokenSamples } from '../generic/second-opinion.js';
import {
  dequantise,
  dtw,
  DtwWorkspace,
  halve,
  quantise,
  sketch,
  type DtwOptions,
  type Quantised,
  type Sequence,
} from '../model/dtw.js';
import { spokenSpan } from '../model/features-of-take.js';
import { wordsIn } from '../model/profile.js';
import type { Seconds } from '../units.js';

/**
 * A speech model's encoder as a view of an utterance (docs/decisions/0144): the frames a
 * recogniser trained on far more speech than one person records makes of the audio,
 * projected onto fewer values (`projection.ts`, 0145) and matched take against take as the
 * profile's cepstra are. Used as a third opinion on the profile's rejected finals.
 */

/** A speech model's encoder: the view it makes of an utterance of 16 kHz samples (see
 * `encoderView`). */
export interface SpeechEncoder {
  view(audio: Float32Array): Promise<Sequence>;
}

/** Silence added before and after an utterance before it is encoded: the model hears
 * words cut close at their edges badly (FSDD's digits: 91 % named first without it, 98.7 %
 * with it). */
export const ENCODER_PADDING_SECONDS = 0.3;

/** A rejected final is accepted as the profile ranked it when the encoder names the same
 * phrase first with its distance under this share of the mean of the next two phrases'.
 * On projected views (docs/decisions/0145) no tuning set lets an unknown item more through
 * at 0.6; at 0.62 four of FSDD's unknown digits come through. */
export const ENCODER_SECONDS_UNDER = 0.6;

/** The same for a phrase of several words: phrases lie further apart than single words,
 * and no tuning set lets an unknown phrase more through up to 0.65 (the six-phrase users
 * accept 4-5 more of 1,952 at 0.7). */
export const ENCODER_SECONDS_PHRASES_UNDER = 0.65;

/**
 * The samples of an utterance from `start` to `end` seconds of `audio` that the encoder
 * hears: the end-pointer's span with a little more at each edge, as the generic path hears
 * it. An enrolled take and an utterance of a live stream are heard alike, cut where the
 * end-pointer finds the words (a take's leading and trailing room are not the phrase).
 */
export function encoderHears(audio: Float32Array, start: Seconds, end: Seconds): Float32Array {
  const [from, to] = spokenSamples(start, end);
  return audio.subarray(Math.max(0, from), Math.min(audio.length, to));
}

/** The samples of a recorded take that the encoder hears: its words, as {@link encoderHears}. */
export function encoderHearsTake(audio: Float32Array): Float32Array {
  const { start, end } = spokenSpan(audio);
  return encoderHears(audio, start, end);
}

/**
 * The encoder's raw output (`frames` x `dim`, row-major) as matched: consecutive frames
 * averaged in pairs (about 20 a second, as the profile matches), each value's mean over the
 * utterance taken out (the speaker's and the room's constant part), each frame scaled to
 * unit length so that the distance between frames is one minus their cosine.
 */
export function encoderView(raw: Float32Array, frames: number, dim: number): Sequence {
  if (frames < 1 || raw.length !== frames * dim) throw new RangeError('encoder output of the wrong size');
  const view = halve({ frames, dim, data: raw });
  normaliseColumns(view.data, view.frames, dim, 0); // the mean out, the spread kept
  scaleToUnitLength(view.data, view.frames, dim);
  return view;
}

/** Scale each of `frames` frames of `data` (row-major) to unit length, in place. */
export function scaleToUnitLength(data: Float32Array, frames: number, dim: number): void {
  for (let t = 0; t < frames; t++) {
    let norm = 0;
    for (let c = 0; c < dim; c++) norm += (data[t * dim + c] as number) ** 2;
    const scale = 1 / (Math.sqrt(norm) + 1e-9);
    for (let c = 0; c < dim; c++) data[t * dim + c] = (data[t * dim + c] as number) * scale;
  }
}

/**
 * How two views are aligned: the profile's own alignment (symmetric steps, Euclidean frame
 * distances, which between unit frames rank as their cosines do), banded as the profile's
 * cepstra are, and no match between utterances of lengths three times apart.
 */
const ALIGNMENT: DtwOptions = { band: 0.3, maxLengthRatio: 3 };

/** Frames of a view's sketch, the first pass's fixed-size summary of it. */
const SKETCH_SEGMENTS = 8;

/** How many phrases the first pass keeps for exact alignment: the first guess and enough
 * rivals to judge how clear it is. */
export const ENCODER_CANDIDATES = 6;

const workspace = new DtwWorkspace();

/** Distance of two views: the cost of their alignment over both lengths. */
export function encoderDistance(a: Sequence, b: Sequence, abandonAbove?: number): number {
  if (a.dim !== b.dim) throw new RangeError('views of different sizes');
  return dtw(a, b, abandonAbove === undefined ? ALIGNMENT : { ...ALIGNMENT, abandonAbove }, workspace);
}

/** Step of a kept view's values: its frames are of unit length, so each value is within
 * ±1, and 8 bits decide FSDD's tuning sets exactly as floats do (docs/decisions/0145). */
export const KEPT_VIEW_STEP = 1 / 127;

/** One enrolled take as the encoder sees it, kept as 8-bit values, with its sketch for the
 * first pass. */
export interface EncoderTemplate {
  text: string;
  view: Quantised;
  sketch: Quantised;
}

/** A view as it is kept: 8-bit values. */
export function keptView(view: Sequence): Quantised {
  return quantise(view, KEPT_VIEW_STEP);
}

const isKept = (view: Sequence | Quantised): view is Quantised => view.data instanceof Int8Array;

/** A take's view kept as a template of `text` (`view` as floats, or as kept). */
export function encoderTemplate(text: string, view: Sequence | Quantised): EncoderTemplate {
  const floats = isKept(view) ? dequantise(view) : view;
  return {
    text,
    view: isKept(view) ? view : keptView(view),
    sketch: keptView(sketch(floats, SKETCH_SEGMENTS)),
  };
}

/** What the encoder names: the phrase of the nearest take, and how clearly (its distance
 * over the mean of the next two phrases' nearest takes, or the next one's if there is only
 * one more). With a single phrase there is nothing to be clear against: 1. */
export interface EncoderOpinion {
  text: string;
  ratio: number;
}

/**
 * The encoder's opinion of an utterance's view. A first pass ranks phrases by their takes'
 * sketches; the takes of the nearest {@link ENCODER_CANDIDATES} are aligned exactly, each
 * abandoned once it cannot be among the three nearest phrases (all the ratio reads).
 */
export function encoderOpinion(
  query: Sequence,
  templates: readonly EncoderTemplate[],
): EncoderOpinion | undefined {
  const querySketch = sketch(query, SKETCH_SEGMENTS);
  const firstPass = new Map<string, number>();
  for (const template of templates) {
    // A tight band, as the profile's first pass aligns its sketches.
    const d = dtw(querySketch, dequantise(template.sketch), { band: 0.25 }, workspace);
    if (d < (firstPass.get(template.text) ?? Infinity)) firstPass.set(template.text, d);
  }
  const candidates = new Set(
    [...firstPass]
      .sort((x, y) => x[1] - y[1])
      .slice(0, ENCODER_CANDIDATES)
      .map(([text]) => text),
  );
  const nearest = new Map<string, number>();
  /** The third nearest phrase's distance so far: nothing further counts. */
  const third = (): number => [...nearest.values()].sort((x, y) => x - y)[2] ?? Infinity;
  for (const template of templates) {
    if (!candidates.has(template.text)) continue;
    const own = nearest.get(template.text) ?? Infinity;
    const d = encoderDistance(query, dequantise(template.view), Math.min(own, third()));
    if (d < own) nearest.set(template.text, d);
  }
  const ranked = [...nearest].filter(([, d]) => Number.isFinite(d)).sort((x, y) => x[1] - y[1]);
  const first = ranked[0];
  if (first === undefined) return undefined;
  const rivals = ranked.slice(1, 3).map(([, d]) => d);
  if (rivals.length === 0) return { text: first[0], ratio: 1 };
  const rival = rivals.reduce((sum, d) => sum + d, 0) / rivals.length;
  return { text: first[0], ratio: first[1] / rival };
}

/** Whether the encoder seconds the profile's first guess of a rejected final. */
export function encoderSeconds(opinion: EncoderOpinion | undefined, firstGuess: string): boolean {
  if (opinion === undefined || opinion.text !== firstGuess) return false;
  return opinion.ratio < (wordsIn(firstGuess) > 1 ? ENCODER_SECONDS_PHRASES_UNDER : ENCODER_SECONDS_UNDER);
}
