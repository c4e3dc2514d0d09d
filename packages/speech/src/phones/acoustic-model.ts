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
const VARIANCE_FLOOR = 1e-4;
/** Gaussians kept per codebook and stream: the mixture is the log-sum of its best few. */
const TOP_N = 4;
/** Clusters the Gaussians of each codebook and stream are grouped into at load time. */
const CLUSTERS = 16;
/** Clusters whose Gaussians are scored in full, per codebook, stream and frame. */
const SHORTLIST = 4;

/**
 * A loaded acoustic model's phone codebooks, ready to score; load once per process.
 *
 * Phone log-likelihoods take each codebook's mixture with equal weights (the model's own
 * weights belong to context-dependent states) and the log-sum of its best few Gaussians.
 * Scoring all 16,000 Gaussians a frame would cost most of the real-time budget in
 * JavaScript, so at load time each codebook's Gaussians are grouped by their means, and a
 * frame scores the group centres first and only the members of the closest groups in
 * full: Gaussian selection, as Sphinx does it with its own shortlists.
 */
export class PhoneModel {
  readonly phones: readonly string[];
  readonly codebooks: number;
  readonly streams: number;
  readonly densities: number;
  readonly dims: readonly number[];
  private readonly logDensities: number;
  private readonly means: Float32Array;
  /** 1 / (2 variance), per value. */
  private readonly precisions: Float32Array;
  /** Per Gaussian: half the log determinant of 2 pi variance. */
  private readonly constants: Float32Array;
  /** Start of each codebook and stream's block of Gaussians in `means`. */
  private readonly blocks: Int32Array;
  /** Per block: cluster centres (`CLUSTERS` x dim) and the block's mean precision per dimension. */
  private readonly centres: Float32Array[];
  private readonly centrePrecisions: Float32Array[];
  /** Per block: Gaussians ordered by cluster, and where each cluster's run starts (CLUSTERS + 1 entries). */
  private readonly members: Int32Array[];
  private readonly memberStarts: Int32Array[];

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
    this.densities = means.densities;
    this.dims = means.dims;
    this.logDensities = Math.log(means.densities);
    this.means = means.data;
    this.precisions = new Float32Array(variances.data.length);
    this.constants = new Float32Array(means.codebooks * means.streams * means.densities);
    this.blocks = new Int32Array(means.codebooks * means.streams);
    this.centres = [];
    this.centrePrecisions = [];
    this.members = [];
    this.memberStarts = [];
    let p = 0;
    let g = 0;
    for (let c = 0; c < means.codebooks; c++) {
      for (let s = 0; s < means.streams; s++) {
        const start = p;
        this.blocks[c * means.streams + s] = p;
        const dim = means.dims[s] as number;
        for (let k = 0; k < means.densities; k++, g++) {
          let logDet = 0;
          for (let d = 0; d < dim; d++, p++) {
            const v = Math.max(VARIANCE_FLOOR, variances.data[p] as number);
            this.precisions[p] = 1 / (2 * v);
            logDet += Math.log(2 * Math.PI * v);
          }
          this.constants[g] = 0.5 * logDet;
        }
        this.cluster(start, dim);
      }
    }
  }

  /** Group one block's Gaussians by their means (a few rounds of k-means, deterministic start). */
  private cluster(start: number, dim: number): void {
    const n = this.densities;
    const k = Math.min(CLUSTERS, n);
    const weight = new Float32Array(dim);
    for (let g = 0; g < n; g++)
      for (let d = 0; d < dim; d++)
        weight[d] = (weight[d] as number) + (this.precisions[start + g * dim + d] as number) / n;
    const centres = new Float32Array(k * dim);
    for (let j = 0; j < k; j++)
      centres.set(
        this.means.subarray(
          start + Math.floor((j * n) / k) * dim,
          start + (Math.floor((j * n) / k) + 1) * dim,
        ),
        j * dim,
      );
    const owner = new Int32Array(n);
    for (let round = 0; round < 8; round++) {
      for (let g = 0; g < n; g++) owner[g] = nearest(centres, k, weight, this.means, start + g * dim, dim);
      const sums = new Float64Array(k * dim);
      const counts = new Int32Array(k);
      for (let g = 0; g < n; g++) {
        const j = owner[g] as number;
        counts[j] = (counts[j] as number) + 1;
        for (let d = 0; d < dim; d++)
          sums[j * dim + d] = (sums[j * dim + d] as number) + (this.means[start + g * dim + d] as number);
      }
      for (let j = 0; j < k; j++)
        if ((counts[j] as number) > 0)
          for (let d = 0; d < dim; d++)
            centres[j * dim + d] = (sums[j * dim + d] as number) / (counts[j] as number);
    }
    const order = Array.from({ length: n }, (_, g) => g).sort(
      (a, b) => (owner[a] as number) - (owner[b] as number) || a - b,
    );
    const starts = new Int32Array(k + 1);
    for (let g = 0; g < n; g++)
      starts[(owner[g] as number) + 1] = (starts[(owner[g] as number) + 1] as number) + 1;
    for (let j = 0; j < k; j++) starts[j + 1] = (starts[j + 1] as number) + (starts[j] as number);
    this.centres.push(centres);
    this.centrePrecisions.push(weight);
    this.members.push(Int32Array.from(order));
    this.memberStarts.push(starts);
  }

  /** Number of values in one feature frame. */
  get frameDim(): number {
    return this.dims.reduce((a, b) => a + b, 0);
  }

  /**
   * Log-likelihood of each phone for one frame of cepstra, deltas and delta-deltas.
   * `exhaustive` scores every Gaussian (for tests of the selection).
   */
  score(frame: Float32Array, out = new Float64Array(this.codebooks), exhaustive = false): Float64Array {
    const best = new Float64Array(TOP_N);
    const centreDistance = new Float64Array(CLUSTERS);
    const chosen = new Int32Array(SHORTLIST);
    for (let c = 0; c < this.codebooks; c++) {
      let total = 0;
      let offset = 0;
      for (let s = 0; s < this.streams; s++) {
        const dim = this.dims[s] as number;
        const b = c * this.streams + s;
        best.fill(Infinity);
        if (exhaustive) {
          for (let g = 0; g < this.densities; g++) keep(best, this.distance(b, g, frame, offset, dim));
        } else {
          const centres = this.centres[b] as Float32Array;
          const k = centres.length / dim;
          const weight = this.centrePrecisions[b] as Float32Array;
          for (let j = 0; j < k; j++)
            centreDistance[j] = weighted(centres, j * dim, weight, frame, offset, dim);
          shortlist(centreDistance, k, chosen);
          const members = this.members[b] as Int32Array;
          const starts = this.memberStarts[b] as Int32Array;
          for (const j of chosen) {
            if (j < 0) continue;
            for (let m = starts[j] as number; m < (starts[j + 1] as number); m++)
              keep(best, this.distance(b, members[m] as number, frame, offset, dim));
          }
        }
        // log sum over the kept Gaussians of exp(-distance), shifted by the best.
        const top = best[0] as number;
        let sum = 0;
        for (let k = 0; k < TOP_N; k++)
          if (Number.isFinite(best[k])) sum += Math.exp(top - (best[k] as number));
        total += -top + Math.log(sum) - this.logDensities;
        offset += dim;
      }
      out[c] = total;
    }
    return out;
  }

  /** Negative log density of Gaussian `g` of block `b` at the stream's part of `frame`. */
  distance(b: number, g: number, frame: Float32Array, offset: number, dim: number): number {
    const base = (this.blocks[b] as number) + g * dim;
    let d = this.constants[b * this.densities + g] as number;
    const mu = this.means;
    const pr = this.precisions;
    for (let k = 0; k < dim; k++) {
      const x = (frame[offset + k] as number) - (mu[base + k] as number);
      d += x * x * (pr[base + k] as number);
    }
    return d;
  }
}

function weighted(
  centres: Float32Array,
  at: number,
  weight: Float32Array,
  frame: Float32Array,
  offset: number,
  dim: number,
): number {
  let d = 0;
  for (let k = 0; k < dim; k++) {
    const x = (frame[offset + k] as number) - (centres[at + k] as number);
    d += x * x * (weight[k] as number);
  }
  return d;
}

function nearest(
  centres: Float32Array,
  k: number,
  weight: Float32Array,
  values: Float32Array,
  at: number,
  dim: number,
): number {
  let best = 0;
  let bestD = Infinity;
  for (let j = 0; j < k; j++) {
    const d = weighted(values, at, weight, centres, j * dim, dim);
    if (d < bestD) {
      bestD = d;
      best = j;
    }
  }
  return best;
}

/** The `chosen.length` smallest of the first `k` distances, as indexes (-1 when fewer). */
function shortlist(distances: Float64Array, k: number, chosen: Int32Array): void {
  chosen.fill(-1);
  for (let j = 0; j < k; j++) {
    const d = distances[j] as number;
    let i = chosen.length - 1;
    if ((chosen[i] as number) >= 0 && d >= (distances[chosen[i] as number] as number)) continue;
    while (i > 0 && ((chosen[i - 1] as number) < 0 || d < (distances[chosen[i - 1] as number] as number))) {
      chosen[i] = chosen[i - 1] as number;
      i--;
    }
    chosen[i] = j;
  }
}

/** Keep the smallest distances, sorted, in `best`. */
function keep(best: Float64Array, d: number): void {
  let k = best.length - 1;
  if (!(d < (best[k] as number))) return;
  while (k > 0 && (best[k - 1] as number) > d) {
    best[k] = best[k - 1] as number;
    k--;
  }
  best[k] = d;
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
