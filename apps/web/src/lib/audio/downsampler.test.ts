import { describe, expect, it } from 'vitest';
import { Downsampler, floatToInt16, measureLevel } from './downsampler';

function tone(frequency: number, rate: number, seconds: number, amplitude = 0.5) {
  const samples = new Float32Array(Math.round(rate * seconds));
  for (let i = 0; i < samples.length; i += 1)
    samples[i] = amplitude * Math.sin((2 * Math.PI * frequency * i) / rate);
  return samples;
}

/** Amplitude of one frequency in a signal, by correlation with a sine and a cosine. */
function amplitudeAt(samples: Float32Array, frequency: number, rate: number) {
  let re = 0;
  let im = 0;
  for (let i = 0; i < samples.length; i += 1) {
    re += (samples[i] as number) * Math.cos((2 * Math.PI * frequency * i) / rate);
    im += (samples[i] as number) * Math.sin((2 * Math.PI * frequency * i) / rate);
  }
  return (2 * Math.hypot(re, im)) / samples.length;
}

function runInChunks(downsampler: Downsampler, input: Float32Array, chunk: number) {
  const parts: Float32Array[] = [];
  for (let start = 0; start < input.length; start += chunk)
    parts.push(downsampler.process(input.subarray(start, start + chunk)));
  parts.push(downsampler.flush());
  const out = new Float32Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

describe('Downsampler', () => {
  it.each([48_000, 44_100])('turns %i Hz into 16 kHz with the right length', (rate) => {
    const out = runInChunks(new Downsampler(rate), tone(440, rate, 1), 128);
    expect(Math.abs(out.length - 16_000)).toBeLessThanOrEqual(2);
  });

  it('keeps speech-band tones at their level', () => {
    const out = runInChunks(new Downsampler(48_000), tone(1000, 48_000, 1), 128);
    // Skip the edges, where the filter sees silence.
    expect(amplitudeAt(out.subarray(200, 15_800), 1000, 16_000)).toBeCloseTo(0.5, 1);
  });

  it('removes tones above the new Nyquist frequency instead of folding them into speech', () => {
    // 12 kHz at 48 kHz would alias to 4 kHz by plain decimation.
    const out = runInChunks(new Downsampler(48_000), tone(12_000, 48_000, 1), 128);
    expect(amplitudeAt(out.subarray(200, 15_800), 4000, 16_000)).toBeLessThan(0.01);
  });

  it('gives the same samples whatever the chunk size', () => {
    const input = tone(700, 44_100, 0.5);
    const a = runInChunks(new Downsampler(44_100), input, 128);
    const b = runInChunks(new Downsampler(44_100), input, 4096);
    expect(a.length).toBe(b.length);
    for (let i = 0; i < a.length; i += 1) expect(a[i]).toBeCloseTo(b[i] as number, 5);
  });

  it('passes 16 kHz through unchanged and refuses upsampling', () => {
    const input = tone(300, 16_000, 0.1);
    expect(new Downsampler(16_000).process(input)).toEqual(input);
    expect(() => new Downsampler(8_000)).toThrow(RangeError);
  });
});

describe('floatToInt16 and measureLevel', () => {
  it('clips and scales', () => {
    expect(Array.from(floatToInt16(Float32Array.from([0, 1, -1, 2, -2, 0.5])))).toEqual([
      0, 32767, -32768, 32767, -32768, 16384,
    ]);
  });

  it('measures rms and peak', () => {
    const level = measureLevel(tone(100, 16_000, 1, 0.5));
    expect(level.peak).toBeCloseTo(0.5, 2);
    expect(level.rms).toBeCloseTo(0.5 / Math.SQRT2, 2);
    expect(measureLevel(new Float32Array(0))).toEqual({ rms: 0, peak: 0 });
  });
});
