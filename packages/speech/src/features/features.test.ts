import { describe, expect, it } from 'vitest';
import { narrowBand } from '../eval/channels.js';
import { noise, withNoise, word } from '../test/signals.js';
import {
  analyse,
  createFrontEnd,
  normaliseColumns,
  rangeFloor,
  SpectralAnalyser,
  utteranceFeatures,
} from './features.js';
import { Fft } from './fft.js';

describe('Fft', () => {
  it('puts a pure cosine in its bin', () => {
    const fft = new Fft(64);
    const re = Float64Array.from({ length: 64 }, (_, i) => Math.cos((2 * Math.PI * 5 * i) / 64));
    const im = new Float64Array(64);
    fft.transform(re, im);
    expect(re[5]).toBeCloseTo(32, 6);
    expect(re[59]).toBeCloseTo(32, 6);
    expect(Math.abs(re[6] ?? 1)).toBeLessThan(1e-9);
  });

  it('equals the direct transform of complex input at every size', () => {
    for (const n of [2, 4, 8, 32, 256]) {
      const x = Array.from({ length: n }, (_, i) => [Math.sin(i * 1.3) + 0.2, Math.cos(i * 0.7) * 0.5]);
      const re = Float64Array.from(x, ([r]) => r ?? 0);
      const im = Float64Array.from(x, ([, i]) => i ?? 0);
      new Fft(n).transform(re, im);
      for (let k = 0; k < n; k++) {
        let sr = 0;
        let si = 0;
        x.forEach(([r = 0, i = 0], t) => {
          const angle = (-2 * Math.PI * k * t) / n;
          sr += r * Math.cos(angle) - i * Math.sin(angle);
          si += r * Math.sin(angle) + i * Math.cos(angle);
        });
        expect(re[k]).toBeCloseTo(sr, 9);
        expect(im[k]).toBeCloseTo(si, 9);
      }
    }
  });
});

describe('SpectralAnalyser', () => {
  const fe = createFrontEnd();
  const signal = word(0.5, [120, 160], [500, 1500]);

  it('gives the same frames whatever the chunk size (streaming equals batch)', () => {
    const batch = analyse(signal, fe);
    const streamed = new SpectralAnalyser(fe);
    const frames = [];
    for (let i = 0; i < signal.length; i += 317) frames.push(...streamed.push(signal.subarray(i, i + 317)));
    expect(frames).toHaveLength(batch.length);
    expect(frames.length).toBe(Math.floor((signal.length - fe.frameSamples) / fe.hopSamples) + 1);
    for (let t = 0; t < batch.length; t++) {
      expect(frames[t]?.energyDb).toBeCloseTo(batch[t]?.energyDb ?? 0, 4);
      expect(Array.from(frames[t]?.logMel ?? [])).toEqual(Array.from(batch[t]?.logMel ?? []));
    }
  });

  it('reports speech louder than room noise', () => {
    const loud = analyse(signal, fe);
    const quiet = analyse(noise(0.5), fe);
    const mid = loud[Math.floor(loud.length / 2)]?.energyDb ?? -200;
    expect(mid).toBeGreaterThan((quiet[10]?.energyDb ?? 0) + 30);
  });
});

describe('utteranceFeatures', () => {
  it('normalises cepstra per utterance and appends deltas', () => {
    const fe = createFrontEnd();
    const f = utteranceFeatures(analyse(word(0.8, [100, 180], [400, 2000]), fe), fe, { decimation: 2 });
    expect(f.dim).toBe(2 * fe.cepstra);
    expect(f.frames).toBe(Math.floor(analyse(word(0.8, [100, 180], [400, 2000]), fe).length / 2));
    for (const c of [0, 3, 10]) {
      let mean = 0;
      let sq = 0;
      for (let t = 0; t < f.frames; t++) {
        const v = f.data[t * f.dim + c] ?? 0;
        mean += v;
        sq += v * v;
      }
      expect(Math.abs(mean / f.frames)).toBeLessThan(1e-4);
      expect(sq / f.frames).toBeGreaterThan(0.8);
      expect(sq / f.frames).toBeLessThanOrEqual(1.0001);
    }
  });

  it('keeps the first cepstra and their deltas when asked for fewer, and widens only the deltas', () => {
    const fe = createFrontEnd();
    const frames = analyse(word(0.8, [100, 180], [400, 2000]), fe);
    const full = utteranceFeatures(frames, fe, { variancePower: 0.75 });
    const fewer = utteranceFeatures(frames, fe, { variancePower: 0.75, cepstra: 16 });
    expect(fewer.dim).toBe(32);
    // Frame by frame: cepstra 0-15 of the full frame, then its deltas 0-15.
    for (let t = 0; t < fewer.frames; t++) {
      expect(Array.from(fewer.data.subarray(t * 32, t * 32 + 16))).toEqual(
        Array.from(full.data.subarray(t * 40, t * 40 + 16)),
      );
      expect(Array.from(fewer.data.subarray(t * 32 + 16, t * 32 + 32))).toEqual(
        Array.from(full.data.subarray(t * 40 + 20, t * 40 + 36)),
      );
    }
    // Asking for more than the front end has gives what it has.
    expect(utteranceFeatures(frames, fe, { cepstra: 30 }).dim).toBe(2 * fe.cepstra);
    // A wider delta window leaves the cepstra as they are and smooths the deltas.
    const wide = utteranceFeatures(frames, fe, { variancePower: 0.75, cepstra: 16, deltaWindow: 3 });
    const roughness = (f: { frames: number; data: Float32Array }): number => {
      let sum = 0;
      for (let t = 1; t < f.frames; t++)
        sum += Math.abs((f.data[t * 32 + 17] ?? 0) - (f.data[(t - 1) * 32 + 17] ?? 0));
      return sum;
    };
    for (let t = 0; t < wide.frames; t++)
      expect(Array.from(wide.data.subarray(t * 32, t * 32 + 16))).toEqual(
        Array.from(fewer.data.subarray(t * 32, t * 32 + 16)),
      );
    expect(roughness(wide)).toBeLessThan(roughness(fewer));
  });

  it('barely changes with the recording level (within 6 dB)', () => {
    const fe = createFrontEnd();
    const s = word(0.6, [110, 140], [700, 1200]);
    const a = utteranceFeatures(analyse(s, fe), fe);
    const b = utteranceFeatures(
      analyse(
        s.map((x) => x * 0.5),
        fe,
      ),
      fe,
    );
    let sum = 0;
    for (let i = 0; i < a.data.length; i++) sum += Math.abs((a.data[i] ?? 0) - (b.data[i] ?? 0));
    expect(sum / a.data.length).toBeLessThan(0.05);
  });
});

describe('a floor under the quietest bands', () => {
  const fe = createFrontEnd();
  // A vowel-like word in a room whose noise reaches every band.
  const speech = (): Float32Array => withNoise(word(0.6, [120, 150], [700, 1800]), 0.02, 3);
  const distance = (a: { data: Float32Array }, b: { data: Float32Array }): number =>
    Math.sqrt(a.data.reduce((sum, v, i) => sum + (v - (b.data[i] as number)) ** 2, 0));

  it('sits the given range under the loudest energy of the frames', () => {
    const frames = analyse(speech(), fe);
    const peak = Math.max(...frames.flatMap((f) => Array.from(f.logMel)));
    expect(rangeFloor(frames, 60)).toBeCloseTo(peak - 60 / (10 / Math.LN10), 6);
  });

  it('leaves audio whose every band lies within the range as it is', () => {
    const frames = analyse(noise(0.6, 0.3), fe);
    expect(utteranceFeatures(frames, fe, { dynamicRange: 60 }).data).toEqual(
      utteranceFeatures(frames, fe).data,
    );
  });

  it('brings the same audio through an 8 kHz channel closer to it', () => {
    const full = analyse(speech(), fe);
    const narrow = analyse(narrowBand(speech()), fe);
    const floored = { dynamicRange: 60 };
    const apart = distance(utteranceFeatures(full, fe), utteranceFeatures(narrow, fe));
    const closer = distance(utteranceFeatures(full, fe, floored), utteranceFeatures(narrow, fe, floored));
    expect(closer).toBeLessThan(0.8 * apart);
  });
});

describe('normaliseColumns', () => {
  it("removes each column's mean and divides out its spread to the given power", () => {
    // Two columns: spread 4 around 10, and spread 0.5 around -3.
    const rows = 400;
    const data = new Float32Array(rows * 2);
    for (let t = 0; t < rows; t++) {
      const sign = t % 2 === 0 ? 1 : -1;
      data[t * 2] = 10 + 4 * sign;
      data[t * 2 + 1] = -3 + 0.5 * sign;
    }
    const spreadOf = (d: Float32Array, c: number) => {
      let mean = 0;
      let square = 0;
      for (let t = 0; t < rows; t++) mean += (d[t * 2 + c] as number) / rows;
      for (let t = 0; t < rows; t++) square += ((d[t * 2 + c] as number) - mean) ** 2 / rows;
      return { mean, spread: Math.sqrt(square) };
    };
    const unit = data.slice();
    normaliseColumns(unit, rows, 2);
    const partial = data.slice();
    normaliseColumns(partial, rows, 2, 0.75);
    for (const c of [0, 1]) {
      expect(spreadOf(unit, c).mean).toBeCloseTo(0, 5);
      // (a small floor under the variance keeps silence from blowing up)
      expect(spreadOf(unit, c).spread).toBeCloseTo(1, 2);
      expect(spreadOf(partial, c).mean).toBeCloseTo(0, 5);
    }
    // Three quarters divided out leaves spread^0.25: the wider column stays wider.
    expect(spreadOf(partial, 0).spread).toBeCloseTo(4 ** 0.25, 3);
    expect(spreadOf(partial, 1).spread).toBeCloseTo(0.5 ** 0.25, 2);
  });
});

describe('RealPowerSpectrum', () => {
  it('equals the power of a full complex FFT', async () => {
    const { RealPowerSpectrum } = await import('./fft.js');
    const n = 512;
    const x = Float64Array.from(
      { length: n },
      (_, i) => Math.sin(i * 0.37) + 0.3 * Math.cos(i * 1.91) + (i % 7) * 0.01,
    );
    const out = new Float64Array(n / 2 + 1);
    new RealPowerSpectrum(n).compute(x, out);
    const re = x.slice();
    const im = new Float64Array(n);
    new Fft(n).transform(re, im);
    for (let k = 0; k <= n / 2; k++) expect(out[k]).toBeCloseTo((re[k] ?? 0) ** 2 + (im[k] ?? 0) ** 2, 6);
  });
});
