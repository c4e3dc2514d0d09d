import { describe, expect, it } from 'vitest';
import { alignedCells, dequantise, dtw, dtwPath, halve, quantise, sketch, type Sequence } from './dtw.js';

const seq = (values: number[][]): Sequence => ({
  frames: values.length,
  dim: values[0]?.length ?? 0,
  data: Float32Array.from(values.flat()),
});
const ramp = (n: number, f: (t: number) => number): Sequence =>
  seq(Array.from({ length: n }, (_, i) => [f(i / n), f(i / n) * 0.5]));

/** A word of 30 frames, and the word heard with another voice far from it for 8 frames
 * before it and 5 after. */
function wordAmidAnotherVoice(): { word: Sequence; heard: Sequence } {
  const word = ramp(30, (t) => Math.sin(6 * t));
  const far = (n: number): number[][] => Array.from({ length: n }, () => [9, 9]);
  const heard = seq([
    ...far(8),
    ...Array.from({ length: 30 }, (_, i) => [Math.sin((6 * i) / 30), Math.sin((6 * i) / 30) * 0.5]),
    ...far(5),
  ]);
  return { word, heard };
}

describe('dtw', () => {
  it('is zero for identical sequences and symmetric', () => {
    const a = ramp(30, Math.sin);
    const b = ramp(30, Math.cos);
    expect(dtw(a, a)).toBe(0);
    expect(dtw(a, b)).toBeCloseTo(dtw(b, a), 6);
  });

  it('adds the distances of two views when frames hold both', () => {
    // One frame each: the symmetric path costs twice the frame distance over two frames.
    const a = seq([[0, 0, 0, 0]]);
    const b = seq([[3, 4, 0, 1]]);
    expect(dtw(a, b)).toBeCloseTo(Math.sqrt(26), 6);
    expect(dtw(a, b, { split: 2 })).toBeCloseTo(5 + 1, 6);
  });

  it('forgives a change of tempo but not a change of shape', () => {
    const a = ramp(40, (t) => Math.sin(6 * t));
    const slow = ramp(60, (t) => Math.sin(6 * t));
    const other = ramp(40, (t) => Math.cos(6 * t));
    expect(dtw(a, slow)).toBeLessThan(0.05);
    expect(dtw(a, other)).toBeGreaterThan(10 * dtw(a, slow));
  });

  it('matches a hand-computed alignment (golden value)', () => {
    // a = [0, 1, 2], b = [0, 2]: best path (0,0) diag->(1,1)? cost |1-2| = 1 ... computed by hand below.
    const a = seq([[0], [1], [2]]);
    const b = seq([[0], [2]]);
    // Paths with weights: d(0,0)=0; then (1,0)=1 via up (w1) -> (2,1)=0 via diag (w2): total 1.
    // Or (1,1)=1 via diag (w2 -> 2) then (2,1)=0 via up: total 2. Best 1, normalised by 3+2.
    expect(dtw(a, b, { band: 1 })).toBeCloseTo(1 / 5, 9);
  });

  it('leaves quiet ends out at their cost, up to the frames allowed, and no others', () => {
    const { word, heard } = wordAmidAnotherVoice();
    const wide = { band: 1, maxLengthRatio: 10 };
    const cost = 0.5;
    // Left out, the 13 frames cost 13 * cost over the lengths of both: the word itself aligns exactly.
    expect(dtw(heard, word, { ...wide, endSkip: { cost, lead: 8, tail: 5 } })).toBeCloseTo(
      (13 * cost) / (43 + 30),
      9,
    );
    // Frames it may not leave out are aligned, at their distance.
    const fewer = dtw(heard, word, { ...wide, endSkip: { cost, lead: 4, tail: 5 } });
    expect(fewer).toBeGreaterThan((13 * cost) / (43 + 30) + 0.05);
    expect(fewer).toBeLessThan(dtw(heard, word, wide));
    // Nothing to leave out: the very alignment without it.
    expect(dtw(word, ramp(40, Math.cos), { endSkip: { cost, lead: 0, tail: 0 } })).toBe(
      dtw(word, ramp(40, Math.cos)),
    );
    // Frames that fit better than the cost are kept: leaving them out never costs more.
    expect(dtw(word, word, { endSkip: { cost, lead: 10, tail: 10 } })).toBe(0);
  });

  it("leaves a template's edges out at their cost, up to the frames allowed", () => {
    // The template holds 8 frames before the word and 5 after it that the utterance lacks.
    const { word: heard, heard: template } = wordAmidAnotherVoice();
    const wide = { band: 1, maxLengthRatio: 10 };
    const cost = 0.5;
    const edges = { cost, lead: 8, tail: 5 };
    expect(dtw(heard, template, { ...wide, templateSkip: edges })).toBeCloseTo((13 * cost) / (30 + 43), 9);
    // Fewer allowed: the rest is aligned, at its distance.
    const fewer = dtw(heard, template, { ...wide, templateSkip: { cost, lead: 4, tail: 5 } });
    expect(fewer).toBeGreaterThan((13 * cost) / (30 + 43) + 0.05);
    expect(fewer).toBeLessThan(dtw(heard, template, wide));
    // Edges that fit are kept: a template the utterance matches costs nothing.
    expect(dtw(heard, heard, { templateSkip: edges })).toBe(0);
    // Both at once: the utterance's quiet ends and the template's edges.
    const both = { ...wide, endSkip: { cost, lead: 8, tail: 5 }, templateSkip: edges };
    expect(dtw(template, template, both)).toBe(0);
  });

  it('refuses implausible length ratios and abandons hopeless alignments', () => {
    expect(dtw(ramp(10, Math.sin), ramp(50, Math.sin))).toBe(Infinity);
    const a = ramp(40, (t) => Math.sin(6 * t));
    const other = ramp(40, (t) => 3 + Math.cos(6 * t));
    expect(dtw(a, other, { abandonAbove: 0.01 })).toBe(Infinity);
    expect(Number.isFinite(dtw(a, other))).toBe(true);
  });
});

/** Banded symmetric DTW one cell at a time over a whole matrix: what `dtw` must equal. */
function plainDtw(a: Sequence, b: Sequence, share: number, step = 1, split = a.dim): number {
  const w = a.weights;
  let meanWeight = 1;
  if (w !== undefined) {
    meanWeight = 0;
    for (let i = 0; i < a.frames; i++) meanWeight += w[i] as number;
    meanWeight /= a.frames;
  }
  const n = a.frames;
  const m = b.frames;
  const band = Math.max(2, Math.ceil(share * Math.max(n, m)), Math.abs(n - m) + 1);
  const cost = Array.from({ length: n + 1 }, () => new Float64Array(m + 1).fill(Infinity));
  (cost[0] as Float64Array)[0] = 0;
  const part = (i: number, j: number, from: number, to: number): number => {
    let s = 0;
    for (let k = from; k < to; k++) {
      const diff = (a.data[i * a.dim + k] as number) - step * (b.data[j * b.dim + k] as number);
      s += diff * diff;
    }
    return Math.sqrt(s);
  };
  for (let i = 1; i <= n; i++) {
    const row = cost[i] as Float64Array;
    const above = cost[i - 1] as Float64Array;
    for (let j = 1; j <= m; j++) {
      const centre = (i * m) / n;
      if (j < Math.floor(centre - band) || j > Math.ceil(centre + band)) continue;
      let d = part(i - 1, j - 1, 0, split);
      if (split < a.dim) d += part(i - 1, j - 1, split, a.dim);
      if (w !== undefined) d *= w[i - 1] as number;
      const diag = (above[j - 1] as number) + 2 * d;
      const up = (above[j] as number) + d;
      const left = (row[j - 1] as number) + d;
      row[j] = Math.min(diag, up, left);
    }
  }
  return ((cost[n] as Float64Array)[m] as number) / ((n + m) * meanWeight);
}

describe('dtw against a plain alignment', () => {
  it('gives bit for bit the same cost, whatever the lengths, views and quantisation', () => {
    let seed = 7;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648 - 0.5;
    };
    const noise = (frames: number, dim: number): Sequence =>
      seq(Array.from({ length: frames }, () => Array.from({ length: dim }, random)));
    for (const [n, m, dim, share, split] of [
      [12, 12, 32, 0.25, 32],
      [13, 9, 5, 0.3, 5],
      [40, 57, 7, 0.3, 3],
      [3, 2, 1, 1, 1],
      [25, 31, 9, 0.1, 9],
    ] as const) {
      const a = noise(n, dim);
      const b = noise(m, dim);
      expect(dtw(a, b, { band: share, split })).toBe(plainDtw(a, b, share, 1, split));
      const q = quantise(b, 1 / 200);
      expect(dtw(a, q, { band: share, split })).toBe(
        plainDtw(a, q as unknown as Sequence, share, q.step, split),
      );
      // Frames weighed as a talking room weighs them (docs/decisions/0086).
      const weighed = { ...a, weights: Float32Array.from({ length: n }, () => 0.75 + random() / 2) };
      expect(dtw(weighed, q, { band: share, split })).toBe(
        plainDtw(weighed, q as unknown as Sequence, share, q.step, split),
      );
    }
  });
});

describe('weighed frames', () => {
  const a = ramp(30, (t) => Math.sin(6 * t));
  const b = ramp(36, (t) => Math.sin(6 * t + 0.4));
  const weighed = (w: (i: number) => number): Sequence => ({
    ...a,
    weights: Float32Array.from({ length: a.frames }, (_, i) => w(i)),
  });

  it('score as before when they all weigh the same', () => {
    expect(
      dtw(
        weighed(() => 1),
        b,
      ),
    ).toBe(dtw(a, b));
    expect(
      dtw(
        weighed(() => 0.5),
        b,
      ),
    ).toBeCloseTo(dtw(a, b), 9);
  });

  it('count the frames that differ less when those weigh less', () => {
    // The last third of `a` set far off: weighed at half, the mismatch counts less.
    const off = { ...a, data: Float32Array.from(a.data, (x, k) => (k >= 40 ? x + 2 : x)) };
    const halfOff = { ...off, weights: Float32Array.from({ length: 30 }, (_, i) => (i >= 20 ? 0.5 : 1)) };
    expect(dtw(halfOff, b)).toBeLessThan(dtw(off, b));
    expect(dtw(halfOff, b)).toBeGreaterThan(dtw(a, b));
  });

  it('leave quiet ends out at their cost times their weight', () => {
    const { word, heard } = wordAmidAnotherVoice();
    const weights = Float32Array.from({ length: 43 }, (_, i) => (i < 8 || i >= 38 ? 0.5 : 1));
    const cost = 0.5;
    const meanWeight = (13 * 0.5 + 30) / 43;
    const options = { band: 1, maxLengthRatio: 10, endSkip: { cost, lead: 8, tail: 5 } };
    expect(dtw({ ...heard, weights }, word, options)).toBeCloseTo(
      (13 * 0.5 * cost) / ((43 + 30) * meanWeight),
      9,
    );
  });

  it('are pooled when halved', () => {
    const h = halve({ ...seq([[0], [2], [4], [6], [8]]), weights: Float32Array.from([1, 0.5, 0.5, 0.5, 1]) });
    expect(Array.from(h.weights ?? [])).toEqual([0.75, 0.5]);
    expect(halve(seq([[0], [2]])).weights).toBeUndefined();
  });
});

describe('alignment work', () => {
  it('counts the cells every alignment computes, fewer when one is abandoned', () => {
    const counted = (align: () => unknown): number => {
      const before = alignedCells();
      align();
      return alignedCells() - before;
    };
    const a = ramp(4, Math.sin);
    const b = ramp(4, Math.cos);
    // A band as wide as the sequences: every cell of the 4 x 4 matrix, both ways of aligning.
    expect(counted(() => dtw(a, b, { band: 1 }))).toBe(16);
    expect(counted(() => dtwPath(a, b, 2, 1))).toBe(16);
    // The default band leaves out the far corners of a longer alignment.
    const long = ramp(40, Math.sin);
    expect(counted(() => dtw(long, long))).toBeLessThan(40 * 40);
    // Given up after the first row, whose cheapest cell already costs too much.
    const far = ramp(4, (t) => 5 + Math.cos(t));
    expect(counted(() => dtw(a, far, { band: 1, abandonAbove: 0.01 }))).toBe(4);
  });
});

describe('quantised templates', () => {
  it('round to the nearest step and clamp to 8 bits', () => {
    const q = quantise(seq([[0.26], [-0.74], [100], [-100]]), 0.5);
    expect(Array.from(q.data)).toEqual([1, -1, 127, -127]);
    expect(Array.from(dequantise(q).data)).toEqual([0.5, -0.5, 63.5, -63.5]);
  });

  it('align exactly as the values they stand for', () => {
    const a = ramp(40, (t) => Math.sin(6 * t));
    const b = quantise(
      ramp(50, (t) => Math.cos(5 * t)),
      1 / 127,
    );
    expect(dtw(a, b, { split: 1 })).toBeCloseTo(dtw(a, dequantise(b), { split: 1 }), 5);
    expect(dtw(a, b)).toBeGreaterThan(0);
  });
});

describe('sketch and halve', () => {
  it('average frames into fixed slices and half rate', () => {
    const a = seq([[0], [2], [4], [6], [8], [10]]);
    expect(Array.from(sketch(a, 3).data)).toEqual([1, 5, 9]);
    expect(Array.from(halve(a).data)).toEqual([1, 5, 9]);
    expect(halve(seq([[1]])).frames).toBe(1);
  });
});
