import { SpeechError } from '../errors.js';
import { PHONE_BANDS, type FeatureMatrix, type SpectralFrame } from '../features/features.js';
import type { PhoneModel } from './acoustic-model.js';

const CEPSTRA = 13;
const LIFTER = 22;
/** Softens the phone log-likelihoods before they become posteriors; chosen on the tuning splits. */
const TEMPERATURE = 3;

let dctMatrix: Float32Array | undefined;
/**
 * The bundled acoustic model's cepstra from `bands` log-mel values (its `transform` dct: an
 * orthonormal DCT-II), with its lifter folded in: 13 rows of `bands`.
 */
export function modelCepstralBasis(bands: number): Float32Array {
  if (dctMatrix?.length === CEPSTRA * bands) return dctMatrix;
  const m = new Float32Array(CEPSTRA * bands);
  for (let c = 0; c < CEPSTRA; c++) {
    const norm = Math.sqrt((c === 0 ? 1 : 2) / bands);
    const lift = 1 + (LIFTER / 2) * Math.sin((Math.PI * c) / LIFTER);
    for (let b = 0; b < bands; b++)
      m[c * bands + b] = lift * norm * Math.cos((Math.PI * c * (b + 0.5)) / bands);
  }
  dctMatrix = m;
  return m;
}

/**
 * Liftered cepstra of the phone filters of each frame, one row of 13 per frame: the
 * analysis the bundled acoustic model was trained on (its `feat_params.json`: 20 mel
 * filters from 130 to 3700 Hz, 13 cepstra, lifter 22, `1s_c_d_dd`). Its frames are 25.6 ms
 * where ours are 25; filter areas and the log's base only add a constant per cepstrum,
 * which mean removal takes away.
 */
export function phoneCepstra(frames: readonly SpectralFrame[]): Float32Array {
  const bands = PHONE_BANDS;
  const m = modelCepstralBasis(bands);
  const out = new Float32Array(frames.length * CEPSTRA);
  frames.forEach((f, t) => {
    const mel = f.phoneMel;
    if (mel === undefined)
      throw new SpeechError('bad_request', 'These frames were analysed without the phone bands.');
    for (let c = 0; c < CEPSTRA; c++) {
      let acc = 0;
      for (let b = 0; b < bands; b++) acc += (m[c * bands + b] as number) * (mel[b] as number);
      out[t * CEPSTRA + c] = acc;
    }
  });
  return out;
}

/** Mean cepstrum of rows of 13. */
export function meanCepstrum(cepstra: Float32Array): Float32Array {
  const n = cepstra.length / CEPSTRA;
  const mean = new Float32Array(CEPSTRA);
  for (let t = 0; t < n; t++)
    for (let c = 0; c < CEPSTRA; c++)
      mean[c] = (mean[c] as number) + (cepstra[t * CEPSTRA + c] as number) / n;
  return mean;
}

/** Rows already scored, by absolute frame index: a live stream scores each frame once. */
export interface PosteriorCache {
  /** Absolute index of the first cepstral row passed in. */
  origin: number;
  rows: Map<number, Float32Array>;
}

/**
 * Phone posteriorgram of an utterance: per frame, the square roots of the 42 phone
 * posteriors (so Euclidean distance between frames is a Hellinger-like distance between
 * distributions), one frame in every `decimation` to match the cepstral view's rate.
 * `mean` is the cepstral mean to remove: the profile's, learned from the user's takes, so
 * a frame scores the same whatever utterance it falls in and a live stream can keep the
 * rows it scored in `cache` (rows near the span's edges, whose deltas see the edge, are
 * not kept). `exact` scores the codebooks as trained rather than merged (for checks).
 */
export function posteriorgram(
  cepstra: Float32Array,
  model: PhoneModel,
  options: { decimation?: number; mean?: Float32Array; cache?: PosteriorCache; exact?: boolean } = {},
): FeatureMatrix {
  const n = cepstra.length / CEPSTRA;
  const phones = model.phones.length;
  if (n === 0) return { frames: 1, dim: phones, data: new Float32Array(phones) };
  const decimation = Math.max(1, options.decimation ?? 2);
  const mean = options.mean ?? meanCepstrum(cepstra);
  const at = (t: number, k: number): number =>
    (cepstra[Math.min(n - 1, Math.max(0, t)) * CEPSTRA + k] as number) - (mean[k] as number);
  const outFrames = Math.max(1, Math.floor(n / decimation));
  const data = new Float32Array(outFrames * phones);
  const frame = new Float32Array(3 * CEPSTRA);
  const ll = new Float64Array(phones);
  const cache = options.cache;
  // One scored frame per output row (the cost is in the Gaussians): the posteriorgram is
  // sampled at the matching frame rate rather than averaged down to it.
  for (let row = 0; row < outFrames; row++) {
    const t = Math.min(n - 1, row * decimation + (decimation >> 1));
    const inside = t >= 3 && t + 3 < n;
    const cached = inside ? cache?.rows.get(cache.origin + t) : undefined;
    if (cached !== undefined) {
      data.set(cached, row * phones);
      continue;
    }
    for (let k = 0; k < CEPSTRA; k++) {
      frame[k] = at(t, k);
      frame[CEPSTRA + k] = at(t + 2, k) - at(t - 2, k);
      frame[2 * CEPSTRA + k] = at(t + 3, k) - at(t - 1, k) - (at(t + 1, k) - at(t - 3, k));
    }
    model.score(frame, ll, options.exact);
    let top = -Infinity;
    for (let p = 0; p < phones; p++) top = Math.max(top, (ll[p] as number) / TEMPERATURE);
    let sum = 0;
    for (let p = 0; p < phones; p++) sum += Math.exp((ll[p] as number) / TEMPERATURE - top);
    for (let p = 0; p < phones; p++)
      data[row * phones + p] = Math.sqrt(Math.exp((ll[p] as number) / TEMPERATURE - top) / sum);
    if (inside && cache !== undefined)
      cache.rows.set(cache.origin + t, data.slice(row * phones, (row + 1) * phones));
  }
  return { frames: outFrames, dim: phones, data };
}

/** Append a weighted posteriorgram to cepstral features frame by frame: one vector, one alignment. */
export function joinViews(cepstral: FeatureMatrix, phones: FeatureMatrix, weight: number): FeatureMatrix {
  const frames = Math.min(cepstral.frames, phones.frames);
  const dim = cepstral.dim + phones.dim;
  const data = new Float32Array(frames * dim);
  for (let t = 0; t < frames; t++) {
    data.set(cepstral.data.subarray(t * cepstral.dim, (t + 1) * cepstral.dim), t * dim);
    for (let k = 0; k < phones.dim; k++)
      data[t * dim + cepstral.dim + k] = weight * (phones.data[t * phones.dim + k] as number);
  }
  return { frames, dim, data };
}
