import { SpeechError } from '../errors.js';

/**
 * The context-independent phone codebooks of a Sphinx semi-continuous (PTM) acoustic
 * model: for each phone and each feature stream, a mixture of diagonal Gaussians. The
 * generic path's SoundSwallower package ships one for US English (42 phones x 3 streams x
 * 128 Gaussians of 13 dimensions); the personal path borrows it to turn audio into phone
 * posteriorgrams, a view of speech that keeps what was said and drops much of how the
 * voice sounds (docs/decisions/0055).
 */
export interface GaussianSet {
  codebooks: number;
  streams: number;
  densities: number;
  /** Dimensions of each stream. */
  dims: number[];
  /** Codebook-major, then stream, then density, then dimension. */
  data: Float32Array;
}

const BYTE_ORDER_MAGIC = 0x11223344;

/**
 * Read a Sphinx `means` or `variances` file: a text header ending in `endhdr\n`, a
 * byte-order word, the array's shape, its values as 32-bit floats and an optional checksum.
 */
export function parseGaussianFile(bytes: Uint8Array, name = 'acoustic model'): GaussianSet {
  const bad = (why: string): SpeechError =>
    new SpeechError('bad_model', `The ${name} cannot be read: ${why}.`);
  const marker = 'endhdr\n';
  const headEnd = indexOfAscii(bytes, marker, 4096);
  if (bytes.length < 4 || String.fromCharCode(...bytes.subarray(0, 3)) !== 's3\n' || headEnd < 0)
    throw bad('not a Sphinx parameter file');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let p = headEnd + marker.length;
  const need = (n: number): void => {
    if (p + n > bytes.length) throw bad('the file is cut short');
  };
  need(4);
  const magic = view.getUint32(p, true);
  let little: boolean;
  if (magic === BYTE_ORDER_MAGIC) little = true;
  else if (view.getUint32(p, false) === BYTE_ORDER_MAGIC) little = false;
  else throw bad('unknown byte order');
  p += 4;
  const int = (): number => {
    need(4);
    const v = view.getInt32(p, little);
    p += 4;
    return v;
  };
  const codebooks = int();
  const streams = int();
  const densities = int();
  if (codebooks <= 0 || streams <= 0 || streams > 8 || densities <= 0 || densities > 4096)
    throw bad('bad shape');
  const dims: number[] = [];
  for (let s = 0; s < streams; s++) {
    const d = int();
    if (d <= 0 || d > 256) throw bad('bad shape');
    dims.push(d);
  }
  const total = int();
  const expected = codebooks * densities * dims.reduce((a, b) => a + b, 0);
  if (total !== expected) throw bad('the value count does not match the shape');
  need(total * 4);
  const data = new Float32Array(total);
  for (let i = 0; i < total; i++) data[i] = view.getFloat32(p + 4 * i, little);
  return { codebooks, streams, densities, dims, data };
}

function indexOfAscii(bytes: Uint8Array, text: string, within: number): number {
  const end = Math.min(bytes.length - text.length, within);
  outer: for (let i = 0; i <= end; i++) {
    for (let k = 0; k < text.length; k++) if (bytes[i + k] !== text.charCodeAt(k)) continue outer;
    return i;
  }
  return -1;
}

/** Sphinx floors variances at this value when it loads a model. */
export const VARIANCE_FLOOR = 1e-4;
/** Gaussians each codebook's 128 are merged into at load time: 16, 8, 4 and 1 measured the
 * same on the tuning splits (docs/decisions/0055), and 4 cost a quarter of 16. */
const MERGED_GAUSSIANS = 4;
/** Rounds of k-means that group a codebook's Gaussians before merging. */
const GROUPING_ROUNDS = 8;

/** One codebook and stream's mixture: `count` diagonal Gaussians of `dim` values. */
interface Mixture {
  count: number;
  means: Float32Array;
  /** 1 / (2 variance), per value. */
  precisions: Float32Array;
  /** Per Gaussian: half the log determinant of 2 pi variance, minus the log of its weight. */
  constants: Float32Array;
}

/**
 * A loaded acoustic model's phone codebooks, ready to score; load once per process.
 *
 * A phone's log-likelihood sums, over the three feature streams, the log of its codebook's
 * mixture with equal weights (the model's own weights belong to context-dependent states).
 * Scoring all 16,000 Gaussians a frame costs 0.95 ms in JavaScript, most of the real-time
 * budget, so at load time each codebook's 128 Gaussians are grouped by their means and
 * every group is merged into one Gaussian of the same mean and variance (moment matching),
 * weighted by its size: 4 per codebook, 32 times less work. Template matching needs the
 * phone posteriors to be consistent rather than sharp, and on the tuning splits this is as
 * accurate as a shortlist over all 128 (docs/decisions/0055).
 */
export class PhoneModel {
  readonly phones: readonly string[];
  readonly codebooks: number;
  readonly streams: number;
  readonly dims: readonly number[];
  /** Per codebook and stream, as trained and as merged. */
  private readonly full: Mixture[] = [];
  private readonly merged: Mixture[] = [];

  constructor(phones: readonly string[], means: GaussianSet, variances: GaussianSet) {
    const sameShape =
      means.codebooks === variances.codebooks &&
      means.streams === variances.streams &&
      means.densities === variances.densities &&
      means.dims.every((d, i) => d === variances.dims[i]);
    if (!sameShape)
      throw new SpeechError('bad_model', 'The acoustic model means and variances do not match.');
    if (phones.length !== means.codebooks)
      throw new SpeechError(
        'bad_model',
        `The acoustic model has ${means.codebooks} codebooks for ${phones.length} phones.`,
      );
    this.phones = phones;
    this.codebooks = means.codebooks;
    this.streams = means.streams;
    this.dims = means.dims;
    const n = means.densities;
    let p = 0;
    for (let c = 0; c < means.codebooks; c++) {
      for (let s = 0; s < means.streams; s++) {
        const dim = means.dims[s] as number;
        const size = n * dim;
        const variance = Float32Array.from(variances.data.subarray(p, p + size), (v) =>
          Math.max(VARIANCE_FLOOR, v),
        );
        const mixture = mixtureOf(
          means.data.slice(p, p + size),
          variance,
          new Float32Array(n).fill(1 / n),
          dim,
        );
        this.full.push(mixture);
        this.merged.push(merge(mixture, variance, dim));
        p += size;
      }
    }
  }

  /**
   * Log-likelihood of each phone for one frame of cepstra, deltas and delta-deltas, from
   * the merged codebooks, or from the codebooks as trained with `exact`.
   */
  score(frame: Float32Array, out = new Float64Array(this.codebooks), exact = false): Float64Array {
    const mixtures = exact ? this.full : this.merged;
    const scratch = new Float64Array(exact ? (this.full[0]?.count ?? 0) : MERGED_GAUSSIANS);
    for (let c = 0; c < this.codebooks; c++) {
      let total = 0;
      let offset = 0;
      for (let s = 0; s < this.streams; s++) {
        const dim = this.dims[s] as number;
        total += logMixture(mixtures[c * this.streams + s] as Mixture, frame, offset, dim, scratch);
        offset += dim;
      }
      out[c] = total;
    }
    return out;
  }
}

function mixtureOf(
  means: Float32Array,
  variances: Float32Array,
  weights: Float32Array,
  dim: number,
): Mixture {
  const count = weights.length;
  const precisions = Float32Array.from(variances, (v) => 1 / (2 * v));
  const constants = new Float32Array(count);
  for (let g = 0; g < count; g++) {
    let logDet = 0;
    for (let d = 0; d < dim; d++) logDet += Math.log(2 * Math.PI * (variances[g * dim + d] as number));
    constants[g] = 0.5 * logDet - Math.log(weights[g] as number);
  }
  return { count, means, precisions, constants };
}

/** Log density of a mixture at the `dim` values of `frame` from `offset`. */
function logMixture(
  m: Mixture,
  frame: Float32Array,
  offset: number,
  dim: number,
  scratch: Float64Array,
): number {
  let best = Infinity;
  for (let g = 0, base = 0; g < m.count; g++) {
    let d = m.constants[g] as number;
    for (let k = 0; k < dim; k++, base++) {
      const x = (frame[offset + k] as number) - (m.means[base] as number);
      d += x * x * (m.precisions[base] as number);
    }
    scratch[g] = d;
    if (d < best) best = d;
  }
  let sum = 0;
  for (let g = 0; g < m.count; g++) sum += Math.exp(best - (scratch[g] as number));
  return -best + Math.log(sum);
}

/** Group a mixture's Gaussians by their means (k-means from an even spread) and merge each group. */
function merge(m: Mixture, variances: Float32Array, dim: number): Mixture {
  const n = m.count;
  const k = Math.min(MERGED_GAUSSIANS, n);
  // Distances between means are weighed by the mixture's average precision.
  const weight = new Float32Array(dim);
  for (let i = 0; i < n * dim; i++)
    weight[i % dim] = (weight[i % dim] as number) + (m.precisions[i] as number) / n;
  const centres = new Float32Array(k * dim);
  for (let j = 0; j < k; j++) {
    const g = Math.floor((j * n) / k);
    centres.set(m.means.subarray(g * dim, (g + 1) * dim), j * dim);
  }
  const owner = new Int32Array(n);
  for (let round = 0; round < GROUPING_ROUNDS; round++) {
    for (let g = 0; g < n; g++) {
      let bestD = Infinity;
      for (let j = 0; j < k; j++) {
        let d = 0;
        for (let q = 0; q < dim; q++)
          d +=
            ((m.means[g * dim + q] as number) - (centres[j * dim + q] as number)) ** 2 *
            (weight[q] as number);
        if (d < bestD) {
          bestD = d;
          owner[g] = j;
        }
      }
    }
    const sums = new Float64Array(k * dim);
    const counts = new Int32Array(k);
    for (let g = 0; g < n; g++) {
      const j = owner[g] as number;
      counts[j] = (counts[j] as number) + 1;
      for (let q = 0; q < dim; q++)
        sums[j * dim + q] = (sums[j * dim + q] as number) + (m.means[g * dim + q] as number);
    }
    for (let j = 0; j < k; j++)
      if ((counts[j] as number) > 0)
        for (let q = 0; q < dim; q++)
          centres[j * dim + q] = (sums[j * dim + q] as number) / (counts[j] as number);
  }
  // Moment matching: the merged Gaussian has its group's mean and total variance.
  const groups = Array.from({ length: k }, (_, j) =>
    Array.from(owner.keys()).filter((g) => owner[g] === j),
  ).filter((g) => g.length > 0);
  const means = new Float32Array(groups.length * dim);
  const merged = new Float32Array(groups.length * dim);
  groups.forEach((members, j) => {
    for (let q = 0; q < dim; q++) {
      let m1 = 0;
      let m2 = 0;
      for (const g of members) {
        const mu = m.means[g * dim + q] as number;
        m1 += mu / members.length;
        m2 += ((variances[g * dim + q] as number) + mu * mu) / members.length;
      }
      means[j * dim + q] = m1;
      merged[j * dim + q] = Math.max(VARIANCE_FLOOR, m2 - m1 * m1);
    }
  });
  return mixtureOf(
    means,
    merged,
    Float32Array.from(groups, (g) => g.length / n),
    dim,
  );
}

/**
 * The context-independent phones of a Sphinx binary `mdef` file, in codebook order. */
export function parseMdefPhones(bytes: Uint8Array): string[] {
  const bad = (why: string): SpeechError =>
    new SpeechError('bad_model', `The phone list cannot be read: ${why}.`);
  if (bytes.length < 12 || String.fromCharCode(...bytes.subarray(0, 4)) !== 'BMDF')
    throw bad('not a binary model definition');
  // "BMDF", a version word whose byte order tells the file's, the length of a text
  // description, the description, ten counts (the phone count first), the phone names.
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const little = view.getInt32(4, true) === 1;
  if (!little && view.getInt32(4, false) !== 1) throw bad('unknown version');
  let p = 12 + view.getInt32(8, little);
  if (p < 12 || p + 40 > bytes.length) throw bad('the file is cut short');
  const count = view.getInt32(p, little);
  if (count <= 0 || count > 1000) throw bad('bad phone count');
  p += 40;
  const phones: string[] = [];
  while (phones.length < count) {
    let end = p;
    while (end < bytes.length && bytes[end] !== 0) end++;
    if (end >= bytes.length) throw bad('the file is cut short');
    phones.push(String.fromCharCode(...bytes.subarray(p, end)));
    p = end + 1;
  }
  return phones;
}
