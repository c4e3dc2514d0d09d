import { SpeechError } from '../errors.js';
import { parseGaussianFile } from '../phones/acoustic-model.js';
import { meansFileWith } from './voice-adaptation.js';

/**
 * The compact form of the generic engine's means adapted to one person's voice, kept beside
 * their profile and downloaded by their browser: which Gaussians moved, and how far, as
 * half-precision differences from the model's own means. A person's takes move about half
 * of the model's Gaussians, so this is a fifth to a third of the engine's means file.
 *
 * Layout (little-endian): "PVM1"; the {@link meansFingerprint} of the model's own means; the
 * number of Gaussians; the values per Gaussian; a bit per Gaussian, set where it moved; and
 * for each moved Gaussian its values' differences as IEEE half-precision floats.
 */
const MAGIC = [0x50, 0x56, 0x4d, 0x31]; // "PVM1"
const HEADER_BYTES = 4 + 4 + 4 + 4;

/** A 32-bit FNV-1a hash of the model's means: adapted means only fit the model they moved. */
export function meansFingerprint(means: Float32Array): number {
  const bytes = new Uint8Array(means.buffer, means.byteOffset, means.byteLength);
  let hash = 0x811c9dc5;
  for (const byte of bytes) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash;
}

/**
 * `adapted` in compact form against the model's own `means` (`width` values per Gaussian).
 * A Gaussian whose values all stayed within half-precision rounding of their own is left as it is.
 */
export function encodeVoiceMeans(means: Float32Array, adapted: Float32Array, width: number): Uint8Array {
  if (adapted.length !== means.length || width <= 0 || means.length % width !== 0)
    throw new SpeechError('bad_request', 'Adapted means must have the model means’ shape.');
  const gaussians = means.length / width;
  const moved: number[] = [];
  const halves = new Uint16Array(means.length);
  for (let g = 0; g < gaussians; g++) {
    let any = false;
    for (let i = g * width; i < (g + 1) * width; i++) {
      halves[i] = toHalf((adapted[i] as number) - (means[i] as number));
      // Both zeros (0x0000, 0x8000) mean it did not move.
      if (((halves[i] as number) & 0x7fff) !== 0) any = true;
    }
    if (any) moved.push(g);
  }
  const bitmapBytes = Math.ceil(gaussians / 8);
  const out = new Uint8Array(HEADER_BYTES + bitmapBytes + moved.length * width * 2);
  const view = new DataView(out.buffer);
  MAGIC.forEach((byte, i) => view.setUint8(i, byte));
  view.setUint32(4, meansFingerprint(means), true);
  view.setUint32(8, gaussians, true);
  view.setUint32(12, width, true);
  let at = HEADER_BYTES + bitmapBytes;
  for (const g of moved) {
    out[HEADER_BYTES + (g >> 3)] = (out[HEADER_BYTES + (g >> 3)] as number) | (1 << (g & 7));
    for (let i = g * width; i < (g + 1) * width; i++, at += 2) view.setUint16(at, halves[i] as number, true);
  }
  return out;
}

/** The adapted means `bytes` ({@link encodeVoiceMeans}) hold, against the model's own `means`. */
export function decodeVoiceMeans(means: Float32Array, bytes: Uint8Array): Float32Array {
  const bad = (why: string): SpeechError =>
    new SpeechError('bad_model', `These adapted means cannot be read: ${why}.`);
  if (bytes.length < HEADER_BYTES || MAGIC.some((byte, i) => bytes[i] !== byte))
    throw bad('not an adapted means file');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const gaussians = view.getUint32(8, true);
  const width = view.getUint32(12, true);
  if (gaussians * width !== means.length || view.getUint32(4, true) !== meansFingerprint(means))
    throw bad('they were adapted from another model');
  const bitmapBytes = Math.ceil(gaussians / 8);
  let movedCount = 0;
  for (let b = 0; b < bitmapBytes && HEADER_BYTES + b < bytes.length; b++)
    movedCount += popCount(bytes[HEADER_BYTES + b] as number);
  if (bytes.length !== HEADER_BYTES + bitmapBytes + movedCount * width * 2)
    throw bad('the file is cut short');
  const out = Float32Array.from(means);
  let at = HEADER_BYTES + bitmapBytes;
  for (let g = 0; g < gaussians; g++) {
    if (((bytes[HEADER_BYTES + (g >> 3)] as number) & (1 << (g & 7))) === 0) continue;
    for (let i = g * width; i < (g + 1) * width; i++, at += 2)
      out[i] = (means[i] as number) + fromHalf(view.getUint16(at, true));
  }
  return out;
}

function popCount(byte: number): number {
  let count = 0;
  for (let b = byte; b !== 0; b &= b - 1) count++;
  return count;
}

const scratch = new DataView(new ArrayBuffer(4));

/** The IEEE half-precision float nearest `value` (ties to even), as its 16 bits. */
export function toHalf(value: number): number {
  scratch.setFloat32(0, value);
  const bits = scratch.getUint32(0);
  const sign = (bits >>> 16) & 0x8000;
  const exponent = (bits >>> 23) & 0xff;
  const mantissa = bits & 0x7fffff;
  if (exponent === 0xff) return sign | 0x7c00 | (mantissa === 0 ? 0 : 0x200);
  const e = exponent - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    // Subnormal in half precision (or zero): shift the full mantissa down, rounding to even.
    if (e < -10) return sign;
    const full = mantissa | 0x800000;
    const shift = 14 - e;
    const half = full >>> shift;
    const rest = full & ((1 << shift) - 1);
    const midway = 1 << (shift - 1);
    return sign | (half + (rest > midway || (rest === midway && (half & 1) === 1) ? 1 : 0));
  }
  const half = (e << 10) | (mantissa >>> 13);
  const rest = mantissa & 0x1fff;
  // A carry out of the mantissa rightly steps the exponent up (to infinity at the top).
  return sign | (half + (rest > 0x1000 || (rest === 0x1000 && (half & 1) === 1) ? 1 : 0));
}

/** The value of a half-precision float's 16 bits. */
export function fromHalf(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >>> 10) & 0x1f;
  const mantissa = bits & 0x3ff;
  if (exponent === 0) return sign * mantissa * 2 ** -24;
  if (exponent === 0x1f) return mantissa === 0 ? sign * Infinity : NaN;
  return sign * (1 + mantissa / 1024) * 2 ** (exponent - 15);
}

/**
 * The engine's means file for a person's adapted means (`voice`, compact), made from the
 * model's own means file; a `bad_model` error when they were adapted from another model.
 */
export function adaptedMeansFile(ownFile: Uint8Array, voice: Uint8Array): Uint8Array {
  const own = parseGaussianFile(ownFile, 'acoustic model means');
  return meansFileWith(ownFile, decodeVoiceMeans(own.data, voice));
}
