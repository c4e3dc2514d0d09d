import { describe, expect, it } from 'vitest';
import { SecondMoments, principalDirections } from './principal-directions.js';

describe('SecondMoments', () => {
  it('averages the products of the values of every frame added', () => {
    const moments = new SecondMoments(2);
    moments.add(Float32Array.from([1, 2, 3, 4]), 2);
    // (1*1 + 3*3) / 2, (1*2 + 3*4) / 2, (2*2 + 4*4) / 2, symmetric.
    expect([...moments.matrix()]).toEqual([5, 7, 7, 10]);
  });

  it('refuses frames of another size, and a matrix of no frames', () => {
    const moments = new SecondMoments(3);
    expect(() => moments.add(new Float32Array(4), 2)).toThrow(RangeError);
    expect(() => moments.matrix()).toThrow(RangeError);
  });
});

describe('principalDirections', () => {
  it('finds the eigenvalues and unit eigenvectors of a symmetric matrix, largest first', () => {
    // Eigenvalues 3 (along (1, 1)) and 1 (along (1, -1)).
    const { values, vectors } = principalDirections(Float64Array.from([2, 1, 1, 2]), 2);
    expect(values[0]).toBeCloseTo(3);
    expect(values[1]).toBeCloseTo(1);
    const [first] = vectors as [Float64Array];
    expect(Math.abs(first[0] as number)).toBeCloseTo(Math.SQRT1_2);
    expect(first[0]).toBeCloseTo(first[1] as number);
  });

  it('finds the direction frames spread along', () => {
    // Frames along (3, 4, 0) and a little along the third axis.
    const moments = new SecondMoments(3);
    const frames: number[] = [];
    for (let t = -5; t <= 5; t++) frames.push(0.6 * t, 0.8 * t, 0.1 * (t % 2));
    moments.add(Float32Array.from(frames), 11);
    const { values, vectors } = principalDirections(moments.matrix(), 3);
    const first = vectors[0] as Float64Array;
    expect(Math.abs((first[0] as number) * 0.6 + (first[1] as number) * 0.8)).toBeCloseTo(1, 3);
    expect(values[0]).toBeGreaterThan(100 * (values[1] as number));
    // Every direction is of unit length and at right angles to the others.
    for (const [i, a] of vectors.entries())
      for (const [j, b] of vectors.entries()) {
        const dot = a.reduce((sum, x, k) => sum + x * (b[k] as number), 0);
        expect(dot).toBeCloseTo(i === j ? 1 : 0, 6);
      }
  });

  it('refuses a matrix of another size', () => {
    expect(() => principalDirections(new Float64Array(5), 2)).toThrow(RangeError);
  });
});
