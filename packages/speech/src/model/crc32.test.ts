import { describe, expect, it } from 'vitest';
import { crc32 } from './crc32.js';

describe('crc32', () => {
  it('gives the standard check values', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array(0))).toBe(0);
    expect(crc32(new TextEncoder().encode('The quick brown fox jumps over the lazy dog'))).toBe(0x414fa339);
  });

  it('changes with any one bit of the input', () => {
    const bytes = new Uint8Array(64).map((_, i) => (i * 37) & 0xff);
    const sums = new Set([crc32(bytes)]);
    for (let bit = 0; bit < bytes.length * 8; bit++) {
      const flipped = bytes.slice();
      flipped[bit >> 3] = (flipped[bit >> 3] as number) ^ (1 << (bit & 7));
      sums.add(crc32(flipped));
    }
    expect(sums.size).toBe(1 + bytes.length * 8);
  });
});
