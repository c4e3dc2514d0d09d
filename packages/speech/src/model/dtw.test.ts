import { describe, expect, it } from 'vitest';
import { alignedCells, dequantise, dtw, dtwPath, halve, quantise, sketch, type Sequence } from './dtw.js';

const seq = (values: number[][]): Sequence => ({
  frames: values.length,
  dim: values[0]?.length ?? 0,
  data: Float32Array.from(values.flat()),
});
const ramp = (n: number, f: (t: number) => number): Sequence =>
  seq(Array.from({ length: n }, (_, i) => [f(i / n), f(i / n) * 0.5]));

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

  it('refuses implausible length ratios and abandons hopeless alignments', () => {
    expect(dtw(ramp(10, Math.sin), ramp(50, Math.sin))).toBe(Infinity);
    const a = ramp(40, (t) => Math.sin(6 * t));
    const other = ramp(40, (t) => 3 + Math.cos(6 * t));
    expect(dtw(a, other, { abandonAbove: 0.01 })).toBe(Infinity);
    expect(Number.isFinite(dtw(a, other))).toBe(true);
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
