import type { Sequence } from '../model/dtw.js';
import { scaleToUnitLength } from './encoder-view.js';
import { PROJECTION_FROM, PROJECTION_TEXT } from './projection.generated.js';

/**
 * A fixed linear map from the encoder's frames to fewer values (docs/decisions/0145): the
 * principal directions of its frames over speech of many voices, so that a take's view
 * is small enough to keep in a profile and quick to align.
 */
export interface EncoderProjection {
  /** Values in a frame before, and after. */
  from: number;
  to: number;
  /** `from` x `to`, row-major: column k is the k-th direction. */
  matrix: Float32Array;
}

/** Values a projected frame holds: 64 of the encoder's 288 keep 92 % of its frames' variance,
 * and name phrases as well as all of them (docs/decisions/0145). */
export const PROJECTED_VALUES = 64;

/** A view's frames projected, each scaled to unit length again. */
export function project(view: Sequence, projection: EncoderProjection): Sequence {
  const { from, to, matrix } = projection;
  if (view.dim !== from) throw new RangeError(`a view of ${view.dim} values, the projection takes ${from}`);
  const data = new Float32Array(view.frames * to);
  for (let t = 0; t < view.frames; t++) {
    const row = t * from;
    const out = t * to;
    for (let i = 0; i < from; i++) {
      const x = view.data[row + i] as number;
      if (x === 0) continue;
      const m = i * to;
      for (let k = 0; k < to; k++) data[out + k] = (data[out + k] as number) + x * (matrix[m + k] as number);
    }
  }
  scaleToUnitLength(data, view.frames, to);
  return { frames: view.frames, dim: to, data };
}

/**
 * A projection as text, to keep in source: each direction as 8-bit values times a step of
 * its own (the steps first, as 32-bit floats), in base64. Directions are unit vectors, so
 * 8 bits keep each to about half a percent.
 */
export function encodeProjection(projection: EncoderProjection): string {
  const { from, to, matrix } = projection;
  const bytes = new Uint8Array(4 * to + from * to);
  const steps = new Float32Array(to);
  for (let k = 0; k < to; k++) {
    let largest = 0;
    for (let i = 0; i < from; i++) largest = Math.max(largest, Math.abs(matrix[i * to + k] as number));
    steps[k] = largest / 127 || 1;
  }
  const header = new DataView(bytes.buffer);
  steps.forEach((step, k) => header.setFloat32(4 * k, step, true));
  const values = new Int8Array(bytes.buffer, 4 * to);
  for (let i = 0; i < from; i++)
    for (let k = 0; k < to; k++)
      values[i * to + k] = Math.round((matrix[i * to + k] as number) / (steps[k] as number));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export function decodeProjection(text: string, from: number, to: number): EncoderProjection {
  const binary = atob(text);
  if (binary.length !== 4 * to + from * to) throw new RangeError('a projection of another size');
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  const header = new DataView(bytes.buffer);
  const steps = Array.from({ length: to }, (_, k) => header.getFloat32(4 * k, true));
  const values = new Int8Array(bytes.buffer, 4 * to);
  const matrix = new Float32Array(from * to);
  for (let i = 0; i < from; i++)
    for (let k = 0; k < to; k++) matrix[i * to + k] = (values[i * to + k] as number) * (steps[k] as number);
  return { from, to, matrix };
}

let built: EncoderProjection | undefined;

/** The projection the product uses (`npm run speech:projection` makes it), decoded once. */
export function builtProjection(): EncoderProjection {
  built ??= decodeProjection(PROJECTION_TEXT, PROJECTION_FROM, PROJECTED_VALUES);
  return built;
}
