import { describe, expect, it } from 'vitest';
import { analyse, frameLevels, utteranceFeatures } from '../features/features.js';
import { take } from '../test/phrases.js';
import { findSegments } from '../vad/endpointer.js';
import { takeFeatures } from './features-of-take.js';
import { DEFAULT_SETTINGS, defaultFrontEnd } from './profile.js';

describe('takeFeatures', () => {
  const fe = defaultFrontEnd();
  const audio = take(3, 4);

  it('computes levels identical to the full analysis', () => {
    const full = analyse(audio, fe).map((f) => f.energyDb);
    expect(Array.from(frameLevels(audio, fe))).toEqual(full);
  });

  it('analyses only the spoken span and matches trimming a full analysis exactly', () => {
    const frames = analyse(audio, fe);
    const segments = findSegments(
      frames.map((f) => f.energyDb),
      { minSilence: 0.12 },
    );
    const from = segments[0]?.startFrame ?? 0;
    const to = segments[segments.length - 1]?.endFrame ?? frames.length;
    expect(from).toBeGreaterThan(10);
    const expected = utteranceFeatures(frames.slice(from, to), fe, {
      decimation: DEFAULT_SETTINGS.decimation,
      variancePower: DEFAULT_SETTINGS.variancePower,
    });
    const got = takeFeatures(audio, DEFAULT_SETTINGS).features;
    expect(got.frames).toBe(expected.frames);
    let maxDiff = 0;
    for (let i = 0; i < got.data.length; i++)
      maxDiff = Math.max(maxDiff, Math.abs((got.data[i] ?? 0) - (expected.data[i] ?? 0)));
    expect(maxDiff).toBeLessThan(1e-5);
  });

  it('copes with audio shorter than one frame', () => {
    expect(takeFeatures(new Float32Array(100), DEFAULT_SETTINGS).features.frames).toBe(1);
  });
});
