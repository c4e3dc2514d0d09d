import { normaliseColumns } from '../features/features.js';
import type { Sequence } from '../model/dtw.js';

/**
 * A speech model's encoder as a view of an utterance (docs/decisions/0144): the frames a
 * recogniser trained on far more speech than one person records makes of the audio,
 * matched take against take as the profile's cepstra are. Used as a third opinion on the
 * profile's rejected finals.
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
 * phrase first with its distance under this share of the mean of the next two phrases'. */
export const ENCODER_SECONDS_UNDER = 0.45;

/**
 * The encoder's raw output (`frames` x `dim`, row-major) as matched: consecutive frames
 * averaged in pairs (about 20 a second, as the profile matches), each value's mean over the
 * utterance taken out (the speaker's and the room's constant part), each frame scaled to
 * unit length so that the distance between frames is one minus their cosine.
 */
export function encoderView(raw: Float32Array, frames: number, dim: number): Sequence {
  if (frames < 1 || raw.length !== frames * dim) throw new RangeError('encoder output of the wrong size');
  const n = Math.max(1, Math.floor(frames / 2));
  const data = new Float32Array(n * dim);
  for (let t = 0; t < n; t++) {
    const a = Math.min(frames - 1, 2 * t);
    const b = Math.min(frames - 1, 2 * t + 1);
    for (let c = 0; c < dim; c++)
      data[t * dim + c] = ((raw[a * dim + c] as number) + (raw[b * dim + c] as number)) / 2;
  }
  normaliseColumns(data, n, dim, 0); // the mean out, the spread kept
  for (let t = 0; t < n; t++) {
    let norm = 0;
    for (let c = 0; c < dim; c++) norm += (data[t * dim + c] as number) ** 2;
    const scale = 1 / (Math.sqrt(norm) + 1e-9);
    for (let c = 0; c < dim; c++) data[t * dim + c] = (data[t * dim + c] as number) * scale;
  }
  return { frames: n, dim, data };
}

/**
 * Dynamic time warping of two views under the cosine distance, unbanded (utterances are a
 * few dozen frames here), its path's cost over both lengths so that long and short
 * phrases compare.
 */
export function encoderDistance(a: Sequence, b: Sequence): number {
  if (a.dim !== b.dim) throw new RangeError('views of different sizes');
  const n = a.frames;
  const m = b.frames;
  const dim = a.dim;
  let previous = new Float64Array(m + 1).fill(Infinity);
  let current = new Float64Array(m + 1);
  previous[0] = 0;
  for (let i = 1; i <= n; i++) {
    current.fill(Infinity);
    const ai = (i - 1) * dim;
    for (let j = 1; j <= m; j++) {
      const bj = (j - 1) * dim;
      let dot = 0;
      for (let c = 0; c < dim; c++) dot += (a.data[ai + c] as number) * (b.data[bj + c] as number);
      const best = Math.min(previous[j] as number, current[j - 1] as number, previous[j - 1] as number);
      current[j] = 1 - dot + best;
    }
    [previous, current] = [current, previous];
  }
  return (previous[m] as number) / (n + m);
}

/** One enrolled take as the encoder sees it. */
export interface EncoderTemplate {
  text: string;
  view: Sequence;
}

/** What the encoder names: the phrase of the nearest take, and how clearly (its distance
 * over the mean of the next two phrases' nearest takes, or the next one's if there is only
 * one more). With a single phrase there is nothing to be clear against: 1. */
export interface EncoderOpinion {
  text: string;
  ratio: number;
}

export function encoderOpinion(
  query: Sequence,
  templates: readonly EncoderTemplate[],
): EncoderOpinion | undefined {
  const nearest = new Map<string, number>();
  for (const template of templates) {
    const d = encoderDistance(query, template.view);
    if (d < (nearest.get(template.text) ?? Infinity)) nearest.set(template.text, d);
  }
  const ranked = [...nearest].sort((x, y) => x[1] - y[1]);
  const first = ranked[0];
  if (first === undefined) return undefined;
  const rivals = ranked.slice(1, 3).map(([, d]) => d);
  if (rivals.length === 0) return { text: first[0], ratio: 1 };
  const rival = rivals.reduce((sum, d) => sum + d, 0) / rivals.length;
  return { text: first[0], ratio: first[1] / rival };
}

/** Whether the encoder seconds the profile's first guess of a rejected final. */
export function encoderSeconds(opinion: EncoderOpinion | undefined, firstGuess: string): boolean {
  return opinion !== undefined && opinion.text === firstGuess && opinion.ratio < ENCODER_SECONDS_UNDER;
}
