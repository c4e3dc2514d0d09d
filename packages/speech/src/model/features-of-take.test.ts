import { describe, expect, it } from 'vitest';
import { analyse, frameLevels, utteranceFeatures, type SpectralFrame } from '../features/features.js';
import { take } from '../test/phrases.js';
import { findSegments } from '../vad/endpointer.js';
import { quietEnds, roomWeights, spanFeatures, takeFeatures, withoutPauses } from './features-of-take.js';
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

describe('withoutPauses', () => {
  // Frames at given levels: a word, a pause, a word; only the level matters here.
  const frames = (levels: number[]): SpectralFrame[] =>
    levels.map((energyDb) => ({ logMel: new Float32Array(1), energyDb }));
  const runs = (...parts: [number, number][]): number[] =>
    parts.flatMap(([db, n]) => Array<number>(n).fill(db));

  it('cuts a pause to its edges and keeps every sound around it', () => {
    const input = frames(runs([-60, 4], [-20, 15], [-60, 30], [-20, 15], [-60, 4]));
    const kept = withoutPauses(input, 3);
    // 20 ms at each end of every quiet run of 80 ms or more: the two pads and the pause.
    expect(kept.map((f) => f.energyDb)).toEqual(runs([-60, 4], [-20, 15], [-60, 4], [-20, 15], [-60, 4]));
  });

  it('keeps quiet runs shorter than a pause, and sounds within the floor margin of loud ones', () => {
    const short = frames(runs([-60, 4], [-20, 15], [-60, 7], [-20, 15], [-60, 4]));
    expect(withoutPauses(short, 3)).toHaveLength(short.length);
    // A weak consonant 5 dB over the floor is not a pause at a 3 dB margin.
    const weak = frames(runs([-60, 4], [-20, 15], [-55, 20], [-20, 15], [-60, 4]));
    expect(withoutPauses(weak, 3)).toHaveLength(weak.length);
  });

  it('leaves utterances too short, or too quiet, to cut', () => {
    const tiny = frames(runs([-20, 5], [-60, 10], [-20, 4]));
    expect(withoutPauses(tiny, 3)).toHaveLength(tiny.length);
    const noise = frames(runs([-60, 40], [-20, 4]));
    expect(withoutPauses(noise, 3)).toHaveLength(noise.length);
  });

  it('counts the matching frames at each end quieter than the speech by the margin', () => {
    // Another voice 20 dB under the speech for 6 analysis frames before it and 9 after
    // (3 and 4 matching frames at two analysis frames each: the one half loud is not quiet).
    const heard = frames(runs([-40, 6], [-20, 40], [-40, 9]));
    expect(quietEnds(heard, 2, 12)).toEqual({ lead: 3, tail: 4 });
    // Within the margin of the speech it is speech, and the word's own quiet sounds are too.
    expect(quietEnds(heard, 2, 25)).toEqual({ lead: 0, tail: 0 });
    expect(quietEnds(frames(runs([-40, 30])), 2, 12)).toEqual({ lead: 0, tail: 0 });
    expect(quietEnds([], 2, 12)).toEqual({ lead: 0, tail: 0 });
  });

  it('is what whitened profiles match on, live and in training alike', () => {
    const settings = { ...DEFAULT_SETTINGS, pauseFloor: 3 };
    const input = analyse(take(3, 4), defaultFrontEnd());
    const cut = spanFeatures(input, settings);
    expect(cut.frames).toBe(spanFeatures(withoutPauses(input, 3), DEFAULT_SETTINGS).frames);
    expect(cut.frames).toBeLessThan(spanFeatures(input, DEFAULT_SETTINGS).frames);
  });
});

describe('roomWeights', () => {
  const frames = (levels: number[]): SpectralFrame[] =>
    levels.map((energyDb) => ({ logMel: new Float32Array(1), energyDb }));

  it("weighs a frame by its rise over a talking room, from half at the room's level to full", () => {
    // 0, 3, 9, 15 and 25 dB over a room at -40 dB.
    const w = roomWeights(frames([-40, -37, -31, -25, -15]), -40, 1, 5);
    expect(Array.from(w)).toEqual([0.5, 0.5, 0.5, 1, 1]);
    expect(roomWeights(frames([-28]), -40, 1, 1)[0]).toBeCloseTo(0.75, 6);
  });

  it('gives a matching frame the mean of its analysis frames, as features decimate them', () => {
    const w = roomWeights(frames([-40, -20, -20, -20, -40]), -40, 2, 2);
    expect(Array.from(w)).toEqual([0.75, 1]);
  });

  it('weighs the live features of an utterance when a talking room is known', () => {
    const span = takeFeatures(take(1, 2), DEFAULT_SETTINGS).frames;
    expect(spanFeatures(span, DEFAULT_SETTINGS).weights).toBeUndefined();
    const weighed = spanFeatures(span, DEFAULT_SETTINGS, undefined, -200);
    expect(weighed.weights).toHaveLength(weighed.frames);
    expect(Array.from(weighed.weights ?? []).every((x) => x === 1)).toBe(true);
  });
});
