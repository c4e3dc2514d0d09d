import { describe, expect, it } from 'vitest';
import { SpeechError } from '../errors.js';
import { decodeVoiceMeans, encodeVoiceMeans, fromHalf, meansFingerprint, toHalf } from './voice-means.js';

describe('half precision', () => {
  it('rounds values to the nearest half-precision float', () => {
    expect(toHalf(1)).toBe(0x3c00);
    expect(toHalf(-2)).toBe(0xc000);
    expect(toHalf(0.1)).toBe(0x2e66);
    expect(toHalf(65504)).toBe(0x7bff);
    // Past the largest half, infinity; below the smallest subnormal's half, zero.
    expect(toHalf(65520)).toBe(0x7c00);
    expect(toHalf(2 ** -24)).toBe(0x0001);
    expect(toHalf(2 ** -26)).toBe(0);
    expect(toHalf(-0)).toBe(0x8000);
    // Ties go to the even mantissa: 1 + 2^-11 lies halfway between 1 and 1 + 2^-10.
    expect(toHalf(1 + 2 ** -11)).toBe(0x3c00);
    expect(toHalf(1 + 3 * 2 ** -11)).toBe(0x3c02);
  });

  it('reads back every finite half exactly', () => {
    const misread: number[] = [];
    for (let bits = 0; bits < 0x10000; bits++) {
      if ((bits & 0x7c00) === 0x7c00) continue; // infinities and NaN
      if (toHalf(fromHalf(bits)) !== bits) misread.push(bits);
    }
    expect(misread).toEqual([]);
    expect(fromHalf(0x7c00)).toBe(Infinity);
    expect(Number.isNaN(fromHalf(0x7e00))).toBe(true);
  });
});

describe('voice means', () => {
  const width = 13;
  const gaussians = 40;
  const means = Float32Array.from({ length: gaussians * width }, (_, i) => Math.sin(i) * 30);

  /** Every third Gaussian moved by up to ±80 (silence moves that far). */
  const adapted = Float32Array.from(means, (m, i) =>
    Math.floor(i / width) % 3 === 0 ? m + Math.cos(i * 7) * 80 : m,
  );

  it('keeps only the Gaussians that moved, within half-precision rounding of where they went', () => {
    const bytes = encodeVoiceMeans(means, adapted, width);
    const moved = Math.ceil(gaussians / 3);
    expect(bytes.length).toBe(16 + Math.ceil(gaussians / 8) + moved * width * 2);
    const back = decodeVoiceMeans(means, bytes);
    for (let i = 0; i < means.length; i++) {
      const difference = (adapted[i] as number) - (means[i] as number);
      expect(Math.abs((back[i] as number) - (adapted[i] as number))).toBeLessThanOrEqual(
        Math.abs(difference) * 2 ** -11 + 1e-5,
      );
      // Those that did not move come back exactly as they were.
      if (difference === 0) expect(back[i]).toBe(means[i]);
    }
  });

  it('holds nothing but its header and map when nothing moved', () => {
    const bytes = encodeVoiceMeans(means, means.slice(), width);
    expect(bytes.length).toBe(16 + Math.ceil(gaussians / 8));
    expect(decodeVoiceMeans(means, bytes)).toEqual(means);
  });

  it('reads the same from a view into a larger buffer', () => {
    const bytes = encodeVoiceMeans(means, adapted, width);
    const padded = new Uint8Array(bytes.length + 5);
    padded.set(bytes, 3);
    expect(decodeVoiceMeans(means, padded.subarray(3, 3 + bytes.length))).toEqual(
      decodeVoiceMeans(means, bytes),
    );
  });

  it('refuses means of another model, a cut file and what is not one', () => {
    const bytes = encodeVoiceMeans(means, adapted, width);
    const other = means.map((m) => m + 1);
    expect(meansFingerprint(other)).not.toBe(meansFingerprint(means));
    const refusals: [Float32Array, Uint8Array, RegExp][] = [
      [other, bytes, /another model/],
      [means.subarray(width), bytes, /another model/],
      [means, bytes.subarray(0, bytes.length - 1), /cut short/],
      [means, new Uint8Array(bytes.length + 2).fill(0), /not an adapted means file/],
      [means, new Uint8Array(3), /not an adapted means file/],
    ];
    for (const [model, file, why] of refusals) {
      expect(() => decodeVoiceMeans(model, file)).toThrow(SpeechError);
      expect(() => decodeVoiceMeans(model, file)).toThrow(why);
    }
  });

  it('refuses adapted means of another shape', () => {
    expect(() => encodeVoiceMeans(means, adapted.subarray(1), width)).toThrow(/shape/);
    expect(() => encodeVoiceMeans(means, adapted, 7)).toThrow(/shape/);
  });
});
