import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SpeechError } from '../errors.js';
import { decodeWav, encodeWavPcm16 } from './wav.js';

function header(
  format: number,
  channels: number,
  rate: number,
  bits: number,
  dataBytes: number,
  declared = dataBytes,
): DataView {
  const buf = new ArrayBuffer(44 + dataBytes);
  const v = new DataView(buf);
  const w = (o: number, s: string): void => {
    for (let i = 0; i < 4; i++) v.setUint8(o + i, s.charCodeAt(i));
  };
  w(0, 'RIFF');
  v.setUint32(4, 36 + dataBytes, true);
  w(8, 'WAVE');
  w(12, 'fmt ');
  v.setUint32(16, 16, true);
  v.setUint16(20, format, true);
  v.setUint16(22, channels, true);
  v.setUint32(24, rate, true);
  v.setUint32(28, (rate * channels * bits) / 8, true);
  v.setUint16(32, (channels * bits) / 8, true);
  v.setUint16(34, bits, true);
  w(36, 'data');
  v.setUint32(40, declared, true);
  return v;
}

const codeOf = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (e) {
    return e instanceof SpeechError ? e.code : 'other';
  }
  return undefined;
};

describe('decodeWav', () => {
  it('round-trips 16-bit PCM within one quantisation step', () => {
    const samples = Float32Array.from({ length: 800 }, (_, i) => Math.sin(i / 10) * 0.8);
    const decoded = decodeWav(encodeWavPcm16(samples, 8000));
    expect(decoded.sampleRate).toBe(8000);
    expect(decoded.channels).toHaveLength(1);
    const ch = decoded.channels[0] ?? new Float32Array();
    for (let i = 0; i < samples.length; i++)
      expect(Math.abs((ch[i] ?? 0) - (samples[i] ?? 0))).toBeLessThan(1.5 / 32768);
  });

  it('decodes interleaved stereo IEEE float 32-bit', () => {
    const v = header(3, 2, 44100, 32, 4 * 2 * 3);
    const values = [0.5, -0.5, 0.25, -0.25, 1, -1];
    values.forEach((x, i) => v.setFloat32(44 + i * 4, x, true));
    const d = decodeWav(new Uint8Array(v.buffer));
    expect(d.sampleRate).toBe(44100);
    expect(Array.from(d.channels[0] ?? [])).toEqual([0.5, 0.25, 1]);
    expect(Array.from(d.channels[1] ?? [])).toEqual([-0.5, -0.25, -1]);
  });

  it('expands every mu-law and A-law code as sox does, channel by channel', () => {
    // The 16-bit values sox gives each of the 256 codes (`sox -e mu-law` / `-e a-law`):
    // an independent expansion of G.711 to check ours against.
    const expanded = JSON.parse(
      readFileSync(new URL('../test/fixtures/g711-expanded-by-sox.json', import.meta.url), 'utf8'),
    ) as Record<'mulaw' | 'alaw', number[]>;
    for (const [format, reference] of [
      [7, expanded.mulaw],
      [6, expanded.alaw],
    ] as const) {
      // Stereo, every code once in the left channel and in reverse order in the right.
      const v = header(format, 2, 8000, 8, 512);
      for (let code = 0; code < 256; code++) {
        v.setUint8(44 + code * 2, code);
        v.setUint8(44 + code * 2 + 1, 255 - code);
      }
      const d = decodeWav(new Uint8Array(v.buffer));
      expect(d.sampleRate).toBe(8000);
      expect(Array.from(d.channels[0] ?? [], (x) => x * 32768)).toEqual(reference);
      expect(Array.from(d.channels[1] ?? [], (x) => x * 32768)).toEqual([...reference].reverse());
    }
    // Companded samples are 8 bits: another width is not G.711.
    const wide = header(7, 1, 8000, 16, 100);
    expect(codeOf(() => decodeWav(new Uint8Array(wide.buffer)))).toBe('unsupported_audio');
  });

  it('rejects empty, non-audio, truncated and unsupported input with a code', () => {
    expect(codeOf(() => decodeWav(new Uint8Array()))).toBe('empty_audio');
    expect(codeOf(() => decodeWav(new TextEncoder().encode('{"json": "not audio at all"}')))).toBe(
      'not_audio',
    );
    const truncated = header(1, 1, 16000, 16, 100, 1000);
    expect(codeOf(() => decodeWav(new Uint8Array(truncated.buffer)))).toBe('truncated_audio');
    const noData = header(1, 1, 16000, 16, 0);
    expect(codeOf(() => decodeWav(new Uint8Array(noData.buffer)))).toBe('empty_audio');
    const adpcm = header(2, 1, 16000, 4, 100);
    expect(codeOf(() => decodeWav(new Uint8Array(adpcm.buffer)))).toBe('unsupported_audio');
    const headerOnly = new Uint8Array(header(1, 1, 16000, 16, 0).buffer).slice(0, 30);
    expect(codeOf(() => decodeWav(headerOnly))).toBe('truncated_audio');
  });
});
