/** A sequence of feature vectors, row-major. */
export interface Sequence {
  frames: number;
  dim: number;
  data: Float32Array;
  /** How much each frame counts when the sequence is aligned as an utterance (1 each when
   * absent): frames barely over a talking room are as much the room's as the user's. */
  weights?: Float32Array | undefined;
}

/**
 * A stored sequence as 8-bit integers, each value `data[i] * step`: templates are kept so
 * in memory, a quarter of the bytes of 32-bit floats, exactly as the model file holds them.
 */
export interface Quantised {
  frames: number;
  dim: number;
  data: Int8Array;
  step: number;
}

/** Round to the nearest multiple of `step`, clamped to what 8 bits hold. */
export function quantise(seq: Sequence, step: number): Quantised {
  const data = new Int8Array(seq.data.length);
  for (let i = 0; i < data.length; i++)
    data[i] = Math.max(-127, Math.min(127, Math.round((seq.data[i] as number) / step)));
  return { frames: seq.frames, dim: seq.dim, data, step };
}

/** The values a quantised sequence stands for. */
export function dequantise(q: Quantised): Sequence {
  // A plain loop: Float32Array.from with a mapping function is many times slower.
  const data = new Float32Array(q.data.length);
  for (let i = 0; i < data.length; i++) data[i] = (q.data[i] as number) * q.step;
  return { frames: q.frames, dim: q.dim, data };
}

/** Alignment settings. */
export interface DtwOptions {
  /** Sakoe-Chiba band half-width as a share of the longer sequence. */
  band?: number;
  /** Sequences whose lengths differ by more than this factor do not match at all. */
  maxLengthRatio?: number;
  /** Give up as soon as the normalised cost must exceed this; returns Infinity. */
  abandonAbove?: number;
  /** Frames hold two views, the first `split` values and the rest: a frame's distance is
   * the sum of the two Euclidean distances, so neither view drowns the other. */
  split?: number;
  /**
   * Utterance frames the alignment may leave out before the template's start (up to
   * `lead`) and after its end (up to `tail`), each at `cost`; without it every utterance
   * frame is aligned.
   */
  endSkip?: EndSkip | undefined;
  /**
   * Template frames the alignment may leave out at its start (up to `lead`) and its end (up
   * to `tail`), each at `cost`: soft edges of a word the utterance may not hold.
   */
  templateSkip?: EndSkip | undefined;
}

/** See {@link DtwOptions.endSkip}. */
export interface EndSkip {
  cost: number;
  lead: number;
  tail: number;
}

/** Reusable scratch rows so a decoder allocates nothing per alignment. */
export class DtwWorkspace {
  prev = new Float64Array(256);
  curr = new Float64Array(256);
  /** One row's frame distances. */
  dist = new Float64Array(256);

  ensure(size: number): void {
    if (this.prev.length < size) {
      this.prev = new Float64Array(size * 2);
      this.curr = new Float64Array(size * 2);
      this.dist = new Float64Array(size * 2);
    }
  }
}

const shared = new DtwWorkspace();

/** Cells of alignment matrices computed so far in this process (see {@link alignedCells}). */
let cellsComputed = 0;

/**
 * How many cells of alignment matrices {@link dtw} and {@link dtwPath} have computed in
 * this process: alignment is most of training's and matching's work, and unlike a time,
 * this count does not change with what else a shared machine is doing, so a change meant
 * to save work can be judged by it exactly.
 */
export function alignedCells(): number {
  return cellsComputed;
}

/**
 * Symmetric dynamic time warping (diagonal steps weigh double) with Euclidean frame
 * distance, normalised by the summed lengths so scores of long and short phrases compare.
 * `a` is the utterance; `b`, the template, may be quantised. With `endSkip`, the
 * utterance's first and last frames may be left out at a fixed cost each, as a template
 * that begins late or ends early in it. Stops early once every open path is already
 * worse than `abandonAbove`.
 */
export function dtw(
  a: Sequence,
  b: Sequence | Quantised,
  options: DtwOptions = {},
  ws: DtwWorkspace = shared,
): number {
  const n = a.frames;
  const m = b.frames;
  if (n === 0 || m === 0) return Infinity;
  const ratio = n > m ? n / m : m / n;
  if (ratio > (options.maxLengthRatio ?? 3)) return Infinity;
  const dim = a.dim;
  const split = Math.min(dim, options.split ?? dim);
  const band = bandHalfWidth(n, m, options.band ?? 0.3);
  // Weighted frames count as a share of the whole; the cost is then per mean frame weight,
  // so weighted and unweighted utterances score on one scale.
  const weights = a.weights;
  const meanWeight = weights === undefined ? 1 : meanOf(weights, n);
  const limit = (options.abandonAbove ?? Infinity) * (n + m) * meanWeight;
  ws.ensure(m + 1);
  const dist = ws.dist;
  let prev = ws.prev;
  let curr = ws.curr;
  prev.fill(Infinity, 0, m + 1);
  prev[0] = 0;
  // Template frames left out before the utterance's first frame: the path starts later in it.
  const edges = options.templateSkip;
  if (edges !== undefined) for (let j = 1; j <= Math.min(edges.lead, m - 1); j++) prev[j] = edges.cost * j;
  const ad = a.data;
  const bd = b.data;
  const step = 'step' in b ? b.step : 1;
  const slope = m / n;
  // Cells outside the band are never written; only the edges next to it are reset, so a
  // row costs the band's width rather than the template's length.
  const reach = Math.ceil(slope) + 1;
  /** Row `i`'s first cell within the band. */
  const rowStart = (i: number): number => Math.max(1, Math.floor(i * slope - band));
  const skip = options.endSkip;
  let bestEnd = Infinity;
  // Weight of the utterance's frames so far, and of all of it: what leaving frames out costs.
  let weightSoFar = 0;
  const weightInAll = meanWeight * n;
  for (let i = 1; i <= n; i++) {
    const lo = rowStart(i);
    const hi = Math.min(m, Math.ceil(i * slope + band));
    const w = weights === undefined ? 1 : (weights[i - 1] as number);
    weightSoFar += w;
    // Column 0 is the template not yet begun: reachable only by leaving out quiet lead.
    const unbegun = skip !== undefined && lo === 1 && i <= skip.lead ? skip.cost * weightSoFar : Infinity;
    curr[lo - 1] = unbegun;
    cellsComputed += hi - lo + 1;
    const ai = (i - 1) * dim;
    frameDistances(ad, ai, bd, step, dim, lo, hi, 0, split, dist, false);
    if (split < dim) frameDistances(ad, ai, bd, step, dim, lo, hi, split, dim, dist, true);
    if (w !== 1) for (let j = lo; j <= hi; j++) dist[j] = (dist[j] as number) * w;
    let rowMin = unbegun;
    for (let j = lo; j <= hi; j++) {
      const d = dist[j] as number;
      const diag = (prev[j - 1] as number) + 2 * d;
      const up = (prev[j] as number) + d;
      const left = (curr[j - 1] as number) + d;
      const best = diag < up ? (diag < left ? diag : left) : up < left ? up : left;
      curr[j] = best;
      if (best < rowMin) rowMin = best;
    }
    curr.fill(Infinity, hi + 1, Math.min(m, hi + reach) + 1);
    if (skip !== undefined && hi === m && n - i <= skip.tail) {
      const ended = throughEnd(curr, m, lo, edges) + skip.cost * (weightInAll - weightSoFar);
      if (ended < bestEnd) bestEnd = ended;
    }
    if (rowMin > limit) {
      if (bestEnd <= limit) break;
      return Infinity;
    }
    const t = prev;
    prev = curr;
    curr = t;
  }
  ws.prev = prev;
  ws.curr = curr;
  if (skip !== undefined) return bestEnd / ((n + m) * meanWeight);
  return throughEnd(prev, m, rowStart(n), edges) / ((n + m) * meanWeight);
}

/** The cost of a row's path through the template's last frame `m`, or to a tail left out
 * (`DtwOptions.templateSkip`); `lo` is the row's first cell. */
function throughEnd(row: Float64Array, m: number, lo: number, edges: EndSkip | undefined): number {
  let best = row[m] as number;
  if (edges === undefined) return best;
  for (let j = Math.max(lo, m - edges.tail); j < m; j++) {
    const c = (row[j] as number) + edges.cost * (m - j);
    if (c < best) best = c;
  }
  return best;
}

function meanOf(values: Float32Array, n: number): number {
  let sum = 0;
  for (let i = 0; i < n; i++) sum += values[i] as number;
  return sum / n;
}

/**
 * Euclidean distances over values `from`..`to` of frame `ai` (an offset) of `ad` to frames
 * `lo`..`hi` (1-based) of `bd` (times `step`), written into `out[lo..hi]`, or added to it.
 * Four frames of `bd` at a time, sharing each read of `ad`: every sum still adds its terms
 * in order, so the results are bit for bit those of one frame at a time, but four
 * independent sums keep the processor busy where one waits on each addition (about twice
 * as fast in Node).
 */
function frameDistances(
  ad: Float32Array,
  ai: number,
  bd: Float32Array | Int8Array,
  step: number,
  dim: number,
  lo: number,
  hi: number,
  from: number,
  to: number,
  out: Float64Array,
  add: boolean,
): void {
  let j = lo;
  for (; j + 3 <= hi; j += 4) {
    const b0 = (j - 1) * dim;
    const b1 = b0 + dim;
    const b2 = b1 + dim;
    const b3 = b2 + dim;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    for (let k = from; k < to; k++) {
      const x = ad[ai + k] as number;
      const d0 = x - step * (bd[b0 + k] as number);
      s0 += d0 * d0;
      const d1 = x - step * (bd[b1 + k] as number);
      s1 += d1 * d1;
      const d2 = x - step * (bd[b2 + k] as number);
      s2 += d2 * d2;
      const d3 = x - step * (bd[b3 + k] as number);
      s3 += d3 * d3;
    }
    if (add) {
      out[j] = (out[j] as number) + Math.sqrt(s0);
      out[j + 1] = (out[j + 1] as number) + Math.sqrt(s1);
      out[j + 2] = (out[j + 2] as number) + Math.sqrt(s2);
      out[j + 3] = (out[j + 3] as number) + Math.sqrt(s3);
    } else {
      out[j] = Math.sqrt(s0);
      out[j + 1] = Math.sqrt(s1);
      out[j + 2] = Math.sqrt(s2);
      out[j + 3] = Math.sqrt(s3);
    }
  }
  for (; j <= hi; j++) {
    const bj = (j - 1) * dim;
    let s = 0;
    for (let k = from; k < to; k++) {
      const diff = (ad[ai + k] as number) - step * (bd[bj + k] as number);
      s += diff * diff;
    }
    out[j] = add ? (out[j] as number) + Math.sqrt(s) : Math.sqrt(s);
  }
}

/**
 * {@link dtw} of two sequences of `frames` frames each, held as 64-bit floats (a quantised
 * template's values times its step): the same cost to the last bit, with what two sketches
 * of one size share worked out once. Training's first pass aligns the sketches of every
 * pair of takes this way.
 */
export function equalLengthDtw(
  a: Float64Array,
  b: Float64Array,
  frames: number,
  dim: number,
  share: number,
  ws: DtwWorkspace = shared,
): number {
  const band = bandHalfWidth(frames, frames, share);
  ws.ensure(frames + 1);
  const dist = ws.dist;
  let prev = ws.prev;
  let curr = ws.curr;
  prev.fill(Infinity, 0, frames + 1);
  prev[0] = 0;
  for (let i = 1; i <= frames; i++) {
    const lo = Math.max(1, i - band);
    const hi = Math.min(frames, i + band);
    cellsComputed += hi - lo + 1;
    sketchRowDistances(a, (i - 1) * dim, b, dim, lo, hi, dist);
    curr[lo - 1] = Infinity;
    for (let j = lo; j <= hi; j++) {
      const d = dist[j] as number;
      const diag = (prev[j - 1] as number) + 2 * d;
      const up = (prev[j] as number) + d;
      const left = (curr[j - 1] as number) + d;
      curr[j] = diag < up ? (diag < left ? diag : left) : up < left ? up : left;
    }
    if (hi < frames) curr[hi + 1] = Infinity;
    const t = prev;
    prev = curr;
    curr = t;
  }
  ws.prev = prev;
  ws.curr = curr;
  return (prev[frames] as number) / (2 * frames);
}

/**
 * {@link frameDistances} over whole frames of 64-bit floats. A routine of its own: one
 * that also reads these arrays measured 30 % slower for every alignment, as each read
 * must then check which kind of array it has.
 */
function sketchRowDistances(
  ad: Float64Array,
  ai: number,
  bd: Float64Array,
  dim: number,
  lo: number,
  hi: number,
  out: Float64Array,
): void {
  let j = lo;
  for (; j + 3 <= hi; j += 4) {
    const b0 = (j - 1) * dim;
    const b1 = b0 + dim;
    const b2 = b1 + dim;
    const b3 = b2 + dim;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    for (let k = 0; k < dim; k++) {
      const x = ad[ai + k] as number;
      const d0 = x - (bd[b0 + k] as number);
      s0 += d0 * d0;
      const d1 = x - (bd[b1 + k] as number);
      s1 += d1 * d1;
      const d2 = x - (bd[b2 + k] as number);
      s2 += d2 * d2;
      const d3 = x - (bd[b3 + k] as number);
      s3 += d3 * d3;
    }
    out[j] = Math.sqrt(s0);
    out[j + 1] = Math.sqrt(s1);
    out[j + 2] = Math.sqrt(s2);
    out[j + 3] = Math.sqrt(s3);
  }
  for (; j <= hi; j++) {
    const bj = (j - 1) * dim;
    let s = 0;
    for (let k = 0; k < dim; k++) {
      const diff = (ad[ai + k] as number) - (bd[bj + k] as number);
      s += diff * diff;
    }
    out[j] = Math.sqrt(s);
  }
}

/** Half-width in frames of the Sakoe-Chiba band, `share` of the longer sequence, and wide
 * enough for the diagonal to reach the corner. */
function bandHalfWidth(n: number, m: number, share: number): number {
  return Math.max(2, Math.ceil(share * Math.max(n, m)), Math.abs(n - m) + 1);
}

/** Scratch for {@link dtwPath}'s banded matrices (costs, frame distances), grown as needed. */
let pathCosts = new Float64Array(4096);
let pathDistances = new Float64Array(4096);
let pathRow = new Float64Array(256);

/**
 * The frame pairs {@link dtw} aligns (same steps and band, comparing the first `dims`
 * values of each frame; `b` may be quantised), for callers that need the path rather than
 * its cost. Returns [frame of a, frame of b, their distance] from the end backwards; empty
 * when nothing aligns. Only the band is stored, so memory grows with its width, not with
 * the product of the lengths.
 */
export function dtwPath(
  a: Sequence,
  b: Sequence | Quantised,
  dims: number,
  band: number,
): [number, number, number][] {
  const n = a.frames;
  const m = b.frames;
  const path: [number, number, number][] = [];
  if (n === 0 || m === 0) return path;
  const half = bandHalfWidth(n, m, band);
  // Row i holds columns lo[i]..hi[i] from offset off[i]; row 0 is the start cell alone.
  const lo = new Int32Array(n + 1);
  const hi = new Int32Array(n + 1);
  const off = new Int32Array(n + 1);
  let size = 1;
  for (let i = 1; i <= n; i++) {
    const centre = (i * m) / n;
    lo[i] = Math.max(1, Math.floor(centre - half));
    hi[i] = Math.min(m, Math.ceil(centre + half));
    off[i] = size;
    size += (hi[i] as number) - (lo[i] as number) + 1;
  }
  if (pathCosts.length < size) {
    pathCosts = new Float64Array(2 * size);
    pathDistances = new Float64Array(2 * size);
  }
  const cost = pathCosts;
  const local = pathDistances;
  /** Where cell (i, j) is stored, or -1 outside the band. */
  const cell = (i: number, j: number): number =>
    j < (lo[i] as number) || j > (hi[i] as number) ? -1 : (off[i] as number) + j - (lo[i] as number);
  const costAt = (i: number, j: number): number => {
    const c = cell(i, j);
    return c < 0 ? Infinity : (cost[c] as number);
  };
  cost[0] = 0;
  cellsComputed += size - 1;
  const ad = a.data;
  const bd = b.data;
  const step = 'step' in b ? b.step : 1;
  if (pathRow.length < m + 1) pathRow = new Float64Array(2 * (m + 1));
  const row = pathRow;
  for (let i = 1; i <= n; i++) {
    let left = Infinity;
    frameDistances(
      ad,
      (i - 1) * a.dim,
      bd,
      step,
      b.dim,
      lo[i] as number,
      hi[i] as number,
      0,
      dims,
      row,
      false,
    );
    for (let j = lo[i] as number; j <= (hi[i] as number); j++) {
      const d = row[j] as number;
      const c = cell(i, j);
      local[c] = d;
      left = Math.min(costAt(i - 1, j - 1) + 2 * d, costAt(i - 1, j) + d, left + d);
      cost[c] = left;
    }
  }
  if (!Number.isFinite(costAt(n, m))) return path;
  let i = n;
  let j = m;
  while (i > 0 && j > 0) {
    const here = cell(i, j);
    const d = local[here] as number;
    path.push([i - 1, j - 1, d]);
    if (cost[here] === costAt(i - 1, j - 1) + 2 * d) {
      i--;
      j--;
    } else if (cost[here] === costAt(i - 1, j) + d) i--;
    else j--;
  }
  return path;
}

/** Average frames into `segments` equal slices: a fixed-size sketch for the first pass. */
export function sketch(seq: Sequence, segments: number): Sequence {
  const dim = seq.dim;
  const data = new Float32Array(segments * dim);
  for (let s = 0; s < segments; s++) {
    const from = Math.floor((s * seq.frames) / segments);
    const to = Math.max(from + 1, Math.floor(((s + 1) * seq.frames) / segments));
    const count = Math.min(to, seq.frames) - from;
    for (let t = from; t < Math.min(to, seq.frames); t++) {
      for (let k = 0; k < dim; k++)
        data[s * dim + k] = (data[s * dim + k] as number) + (seq.data[t * dim + k] as number);
    }
    if (count > 0) for (let k = 0; k < dim; k++) data[s * dim + k] = (data[s * dim + k] as number) / count;
  }
  return { frames: segments, dim, data };
}

/** Average consecutive pairs of frames: the same utterance at half the frame rate. */
export function halve(seq: Sequence): Sequence {
  const dim = seq.dim;
  const frames = Math.max(1, seq.frames >> 1);
  const data = new Float32Array(frames * dim);
  for (let t = 0; t < frames; t++) {
    const a = 2 * t;
    const b = Math.min(seq.frames - 1, a + 1);
    for (let k = 0; k < dim; k++)
      data[t * dim + k] = 0.5 * ((seq.data[a * dim + k] as number) + (seq.data[b * dim + k] as number));
  }
  const w = seq.weights;
  if (w === undefined) return { frames, dim, data };
  const weights = new Float32Array(frames);
  for (let t = 0; t < frames; t++)
    weights[t] = 0.5 * ((w[2 * t] as number) + (w[Math.min(seq.frames - 1, 2 * t + 1)] as number));
  return { frames, dim, data, weights };
}
