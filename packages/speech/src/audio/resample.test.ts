import { describe, expect, it } from 'vitest';
import { resample } from './resample.js';

const tone = (freq: number, rate: number, seconds: number): Float32Array =>
  Float32Array.from({ length: Math.round(rate * seconds) }, (_, i) =>
    Math.sin((2 * Math.PI * freq * i) / rate),
  );

const rms = (x: Float32Array, from = 0, to = x.length): number => {
  let s = 0;
  for (let i = from; i < to; i++) s += (x[i] ?? 0) ** 2;
  return Math.sqrt(s / (to - from));
};

describe('resample', () => {
  it('upsamples 8 kHz to 16 kHz preserving a 1 kHz tone (golden sine within 1 %)', () => {
    const out = resample(tone(1000, 8000, 0.5), 8000, 16000);
    expect(out.length).toBe(8000);
    const ideal = tone(1000, 16000, 0.5);
    let err = 0;
    for (let i = 200; i < out.length - 200; i++)
      err = Math.max(err, Math.abs((out[i] ?? 0) - (ideal[i] ?? 0)));
    expect(err).toBeLessThan(0.01);
  });

  it('keeps in-band tones and removes what would alias when downsampling 44.1 kHz', () => {
    const pass = resample(tone(3000, 44100, 0.5), 44100, 16000);
    const stop = resample(tone(11000, 44100, 0.5), 44100, 16000);
    expect(rms(pass, 500, pass.length - 500)).toBeCloseTo(Math.SQRT1_2, 1);
    expect(rms(stop, 500, stop.length - 500)).toBeLessThan(0.01);
  });

  it('handles rates with no small common divisor', () => {
    const out = resample(tone(500, 22050, 0.2), 22050, 16000);
    expect(out.length).toBe(Math.round(0.2 * 22050 * (16000 / 22050)));
    expect(rms(out, 200, out.length - 200)).toBeCloseTo(Math.SQRT1_2, 1);
  });
});
