import { describe, expect, it } from 'vitest';
import { parseSamples } from './audio-payload.js';

describe('parseSamples', () => {
  it('reads little-endian 16-bit PCM and integer arrays alike', () => {
    const pcm = new Int16Array([0, 16384, -32768, 32767]);
    const fromBinary = parseSamples(new Uint8Array(pcm.buffer), 10);
    const fromArray = parseSamples([0, 16384, -32768, 32767], 10);
    expect(Array.from(fromBinary ?? [])).toEqual([0, 0.5, -1, 32767 / 32768]);
    expect(fromArray).toEqual(fromBinary);
    expect(parseSamples(Buffer.from(pcm.buffer), 10)).toEqual(fromBinary);
  });

  it('refuses empty, odd-sized, oversized and non-numeric payloads', () => {
    expect(parseSamples(new Uint8Array(0), 10)).toBeUndefined();
    expect(parseSamples(new Uint8Array(3), 10)).toBeUndefined();
    expect(parseSamples(new Uint8Array(22), 10)).toBeUndefined();
    expect(parseSamples([1, 'two'], 10)).toBeUndefined();
    expect(parseSamples('audio', 10)).toBeUndefined();
    expect(parseSamples({ samples: [1] }, 10)).toBeUndefined();
  });
});
