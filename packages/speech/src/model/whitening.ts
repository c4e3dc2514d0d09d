import { dtwPath, type Sequence } from './dtw.js';

/**
 * Within-phrase whitening (docs/decisions/0057): a linear map of the cepstral view,
 * learned from the user's own takes, under which the frames of two takes of one phrase lie
 * equally close in every direction. Directions in which the user's takes of a phrase
 * vary (their voice from take to take, the room, the microphone's band) count for less
 * than the directions that tell phrases apart, so the Euclidean frame distance of the
 * alignment becomes a Mahalanobis distance over what this user's repetitions share.
 */

/** Share of the estimate replaced by its mean variance: three takes of each phrase give a
 * noisy covariance, and a fully whitened one would magnify its smallest, least certain
 * directions. Chosen on the tuning splits. */
export const WHITENING_SHRINK = 0.3;
/** Aligned frame pairs needed before the estimate is trusted; below it (one take per
 * phrase) profiles match on the features as they are. */
export const MIN_ALIGNED_FRAMES = 200;
/** Pairs of takes aligned per phrase: bounds training cost when a phrase has many takes. */
const PAIRS_PER_PHRASE = 6;

/** What the whitening is learned over and how takes are aligned. */
export interface WhiteningOptions {
  /** Leading values of each frame to whiten: the cepstral view. */
  dims: number;
  /** Sakoe-Chiba band of the alignments: the profile's, as in decoding. */
  band: number;
  /** The slot of utterances marked unknown: not repetitions of one phrase, left out. */
  skipPhrase?: number | undefined;
}

/**
 * Learn the whitening from takes and the phrase of each. Returns a row-major `dims` x
 * `dims` matrix, or undefined when the takes hold too few repetitions to estimate it.
 */
export function learnWhitening(
  takes: readonly Sequence[],
  phraseOf: readonly number[],
  { dims, band, skipPhrase }: WhiteningOptions,
): Float32Array | undefined {
  const byPhrase = new Map<number, number[]>();
  takes.forEach((_, i) => {
    const p = phraseOf[i] as number;
    if (p === skipPhrase) return;
    const list = byPhrase.get(p) ?? [];
    list.push(i);
    byPhrase.set(p, list);
  });
  const scatter = new Float64Array(dims * dims);
  const diff = new Float64Array(dims);
  let count = 0;
  for (const members of byPhrase.values()) {
    for (const [x, y] of pairsOf(members.length)) {
      const a = takes[members[x] as number] as Sequence;
      const b = takes[members[y] as number] as Sequence;
      for (const [i, j] of dtwPath(a, b, dims, band)) {
        for (let k = 0; k < dims; k++)
          diff[k] = (a.data[i * a.dim + k] as number) - (b.data[j * b.dim + k] as number);
        for (let r = 0; r < dims; r++) {
          const dr = diff[r] as number;
          for (let c = r; c < dims; c++)
            scatter[r * dims + c] = (scatter[r * dims + c] as number) + dr * (diff[c] as number);
        }
        count++;
      }
    }
  }
  if (count < MIN_ALIGNED_FRAMES) return undefined;
  // The difference of two frames has twice the variance of one frame about the phrase.
  let meanVariance = 0;
  for (let r = 0; r < dims; r++) {
    for (let c = r; c < dims; c++) {
      const v = (scatter[r * dims + c] as number) / (2 * count);
      scatter[r * dims + c] = v;
      scatter[c * dims + r] = v;
    }
    meanVariance += (scatter[r * dims + r] as number) / dims;
  }
  for (let k = 0; k < dims * dims; k++) scatter[k] = (1 - WHITENING_SHRINK) * (scatter[k] as number);
  for (let r = 0; r < dims; r++)
    scatter[r * dims + r] = (scatter[r * dims + r] as number) + WHITENING_SHRINK * meanVariance;
  return inverseSquareRoot(scatter, dims);
}

/** Apply a whitening to the first `dims` values of every frame; the rest (the phone view)
 * stays as it is. Undefined leaves the features unchanged. */
export function whiten<S extends Sequence>(features: S, whitening: Float32Array | undefined): S {
  if (whitening === undefined) return features;
  const dims = Math.round(Math.sqrt(whitening.length));
  const { frames, dim, data } = features;
  const out = Float32Array.from(data);
  for (let t = 0; t < frames; t++) {
    const at = t * dim;
    for (let r = 0; r < dims; r++) {
      let acc = 0;
      for (let c = 0; c < dims; c++) acc += (whitening[r * dims + c] as number) * (data[at + c] as number);
      out[at + r] = acc;
    }
  }
  return { ...features, data: out };
}

/** Which pairs of `n` takes of one phrase training aligns: every pair, or neighbours in
 * recording order when there are too many. */
export function pairsOf(n: number): [number, number][] {
  const all: [number, number][] = [];
  for (let x = 0; x < n; x++) for (let y = x + 1; y < n; y++) all.push([x, y]);
  if (all.length <= PAIRS_PER_PHRASE) return all;
  const ring: [number, number][] = [];
  for (let x = 0; x < n && ring.length < PAIRS_PER_PHRASE; x++) ring.push([x, (x + 1) % n]);
  return ring;
}

/**
 * `S^(-1/2)` of a symmetric positive definite matrix by Jacobi rotations, scaled so its
 * mean diagonal is 1 (distances keep their usual size; only their shape changes).
 */
function inverseSquareRoot(matrix: Float64Array, dims: number): Float32Array {
  const a = Float64Array.from(matrix);
  const v = new Float64Array(dims * dims);
  for (let k = 0; k < dims; k++) v[k * dims + k] = 1;
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < dims; p++) for (let q = p + 1; q < dims; q++) off += (a[p * dims + q] as number) ** 2;
    if (off < 1e-20) break;
    for (let p = 0; p < dims; p++) {
      for (let q = p + 1; q < dims; q++) {
        const apq = a[p * dims + q] as number;
        if (Math.abs(apq) < 1e-300) continue;
        const theta = ((a[q * dims + q] as number) - (a[p * dims + p] as number)) / (2 * apq);
        const t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        rotate(a, dims, p, q, c, s, true);
        rotate(a, dims, p, q, c, s, false);
        rotate(v, dims, p, q, c, s, true);
      }
    }
  }
  const out = new Float32Array(dims * dims);
  let trace = 0;
  for (let r = 0; r < dims; r++) {
    for (let c = 0; c < dims; c++) {
      let acc = 0;
      for (let k = 0; k < dims; k++)
        acc +=
          ((v[r * dims + k] as number) * (v[c * dims + k] as number)) /
          Math.sqrt(Math.max(a[k * dims + k] as number, 1e-9));
      out[r * dims + c] = acc;
    }
    trace += out[r * dims + r] as number;
  }
  const scale = dims / trace;
  for (let k = 0; k < out.length; k++) out[k] = (out[k] as number) * scale;
  return out;
}

/** Apply a Jacobi rotation of (p, q) to the columns (`columns`) or rows of a matrix. */
function rotate(
  m: Float64Array,
  dims: number,
  p: number,
  q: number,
  c: number,
  s: number,
  columns: boolean,
): void {
  for (let k = 0; k < dims; k++) {
    const ip = columns ? k * dims + p : p * dims + k;
    const iq = columns ? k * dims + q : q * dims + k;
    const xp = m[ip] as number;
    const xq = m[iq] as number;
    m[ip] = c * xp - s * xq;
    m[iq] = s * xp + c * xq;
  }
}
