import { describe, expect, it } from 'vitest';
import { defaultFrontEnd } from '../model/profile.js';
import { narrowBand } from '../eval/channels.js';
import { noise } from '../test/signals.js';
import { SAMPLE_RATE } from '../units.js';
import { fillsEveryBand } from './bandwidth.js';
import { analyse, type SpectralFrame } from './features.js';

const framesOf = (audio: Float32Array): SpectralFrame[] => analyse(audio, defaultFrontEnd());

/** A signal muffled by `dbPerOctave` above 1 kHz (one-pole low-passes, 6 dB an octave each). */
function sloped(audio: Float32Array, dbPerOctave: number): Float32Array {
  let out = audio;
  const a = Math.exp((-2 * Math.PI * 1000) / SAMPLE_RATE);
  for (let pass = 0; pass < dbPerOctave / 6; pass++) {
    const next = new Float32Array(out.length);
    let y = 0;
    for (let i = 0; i < out.length; i++) next[i] = y = (1 - a) * (out[i] as number) + a * y;
    out = next;
  }
  return out;
}

describe('fillsEveryBand', () => {
  it('is true of full-band audio, loud, quiet or muffled', () => {
    expect(fillsEveryBand([framesOf(noise(1, 0.3))])).toBe(true);
    expect(fillsEveryBand([framesOf(noise(1, 0.003))])).toBe(true);
    // 12 dB an octave above 1 kHz (the synthetic speakers' low-pass) is a slope, not a cliff.
    expect(fillsEveryBand([framesOf(sloped(noise(1, 0.3), 12))])).toBe(true);
  });

  it('is false of audio recorded at 8 kHz', () => {
    expect(fillsEveryBand([framesOf(narrowBand(noise(1, 0.3)))])).toBe(false);
  });

  it('judges all takes together, the loud frames deciding', () => {
    const narrow = [1, 2, 3, 4, 5, 6].map((seed) => framesOf(narrowBand(noise(0.5, 0.3, seed))));
    // A quiet full-band take among band-limited ones leaves them band-limited...
    expect(fillsEveryBand([...narrow, framesOf(noise(0.5, 0.003, 9))])).toBe(false);
    // ...as many loud full-band ones do not.
    const full = [1, 2, 3, 4, 5, 6].map((seed) => framesOf(noise(0.5, 0.3, seed + 20)));
    expect(fillsEveryBand([...narrow, ...full])).toBe(true);
  });

  it('is true without frames: nothing says otherwise', () => {
    expect(fillsEveryBand([])).toBe(true);
    expect(fillsEveryBand([[]])).toBe(true);
  });
});
