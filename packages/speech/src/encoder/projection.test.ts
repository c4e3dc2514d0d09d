import { describe, expect, it } from 'vitest';
import {
  builtProjection,
  decodeProjection,
  encodeProjection,
  project,
  PROJECTED_VALUES,
} from './projection.js';

describe('project', () => {
  it('maps each frame through the directions and scales it to unit length', () => {
    // Directions: the first value alone, and the sum of the second and third.
    const projection = { from: 3, to: 2, matrix: Float32Array.from([1, 0, 0, 1, 0, 1]) };
    const view = project({ frames: 2, dim: 3, data: Float32Array.from([3, 2, 2, 0, 0, 5]) }, projection);
    expect(view.dim).toBe(2);
    expect(view.frames).toBe(2);
    // (3, 4) and (0, 5), each over its length.
    expect([...view.data].map((x) => Number(x.toFixed(6)))).toEqual([0.6, 0.8, 0, 1]);
  });

  it('refuses a view of another size', () => {
    const projection = { from: 3, to: 1, matrix: new Float32Array(3) };
    expect(() => project({ frames: 1, dim: 2, data: new Float32Array(2) }, projection)).toThrow(RangeError);
  });
});

describe('encodeProjection and decodeProjection', () => {
  it('keep each direction to within half a percent of its largest value', () => {
    const matrix = Float32Array.from({ length: 12 }, (_, i) => Math.sin(i + 1) * (i % 3 === 0 ? 0.01 : 1));
    const decoded = decodeProjection(encodeProjection({ from: 4, to: 3, matrix }), 4, 3);
    for (let k = 0; k < 3; k++) {
      const column = [0, 1, 2, 3].map((i) => matrix[i * 3 + k] as number);
      const largest = Math.max(...column.map(Math.abs));
      column.forEach((x, i) =>
        expect(Math.abs((decoded.matrix[i * 3 + k] as number) - x)).toBeLessThan(largest / 200),
      );
    }
  });

  it('refuses text of another size', () => {
    const text = encodeProjection({ from: 4, to: 3, matrix: new Float32Array(12) });
    expect(() => decodeProjection(text, 5, 3)).toThrow(RangeError);
  });

  it("holds the product's projection: 64 directions of the encoder's 288 values, each of unit length", () => {
    const { from, to, matrix } = builtProjection();
    expect([from, to]).toEqual([288, PROJECTED_VALUES]);
    for (let k = 0; k < to; k++) {
      let norm = 0;
      for (let i = 0; i < from; i++) norm += (matrix[i * to + k] as number) ** 2;
      expect(Math.sqrt(norm)).toBeCloseTo(1, 2);
    }
  });
});
