import { describe, expect, it } from 'vitest';
import { analyse, createFrontEnd } from '../features/features.js';
import { concat, noise, word } from '../test/signals.js';
import { Endpointer, findSegments, silencesBetween } from './endpointer.js';

const fe = createFrontEnd();
const energies = (x: Float32Array): number[] => analyse(x, fe).map((f) => f.energyDb);
const seconds = (frames: number): number => frames * 0.01;

describe('Endpointer', () => {
  it('finds one utterance in silence with start and end within 0.1 s', () => {
    const x = concat(noise(0.6), word(0.7, [120, 150], [600, 1400]), noise(0.8));
    const [seg, ...rest] = findSegments(energies(x));
    expect(rest).toHaveLength(0);
    expect(Math.abs(seconds(seg?.startFrame ?? 0) - 0.6)).toBeLessThan(0.1);
    expect(Math.abs(seconds(seg?.endFrame ?? 0) - 1.3)).toBeLessThan(0.15);
  });

  it('bridges pauses shorter than the minimum silence and splits at longer ones', () => {
    const w = word(0.4, [120, 150], [600, 1400]);
    const short = concat(noise(0.5), w, noise(0.2, 0.001, 3), w, noise(0.8, 0.001, 4));
    const long = concat(noise(0.5), w, noise(0.6, 0.001, 3), w, noise(0.8, 0.001, 4));
    expect(findSegments(energies(short), { minSilence: 0.3 })).toHaveLength(1);
    expect(findSegments(energies(long), { minSilence: 0.3 })).toHaveLength(2);
    expect(findSegments(energies(long), { minSilence: 0.8 })).toHaveLength(1);
  });

  it('measures the silence between segments as a live end-pointer waits it out', () => {
    const w = word(0.4, [120, 150], [600, 1400]);
    const x = energies(concat(noise(0.5), w, noise(0.6, 0.001, 3), w, noise(0.8, 0.001, 4)));
    const segments = findSegments(x, { minSilence: 0.12 });
    const [silence, ...more] = silencesBetween(segments, { minSilence: 0.12 }).map(seconds);
    expect(more).toHaveLength(0);
    // The padded segments' gap is 0.16 s shorter; the silence itself is what splits or not.
    expect(silence).toBeCloseTo(0.6, 1);
    expect(findSegments(x, { minSilence: (silence ?? 0) + 0.02 })).toHaveLength(1);
    expect(findSegments(x, { minSilence: (silence ?? 0) - 0.02 })).toHaveLength(2);
  });

  it('ends an utterance exactly minSilence after the last speech frame', () => {
    const x = concat(noise(0.5), word(0.5, [120, 150], [600, 1400]), noise(2));
    const e = energies(x);
    for (const minSilence of [0.3, 0.6]) {
      const ep = new Endpointer({ minSilence });
      let endAt = -1;
      let last = -1;
      e.forEach((v, i) => {
        const ev = ep.process(v);
        if (ev?.type === 'end') {
          endAt = i;
          last = ev.endFrame;
        }
      });
      // The end fires minSilence after the last loud frame (the segment keeps 80 ms padding).
      expect(seconds(endAt - (last - 8))).toBeCloseTo(minSilence, 1);
    }
  });

  it('drops clicks too short to be speech', () => {
    const x = concat(noise(0.5), word(0.07, [150, 150], [800, 800]), noise(1));
    const ep = new Endpointer();
    const events = energies(x)
      .map((v) => ep.process(v))
      .filter((v) => v !== undefined);
    expect(events.map((e) => e.type)).toEqual(['start', 'cancel']);
  });

  it('adapts to a noisy room and still finds the speech', () => {
    const x = concat(noise(1.5, 0.02), word(0.6, [120, 150], [600, 1400], 1, 0.5), noise(1, 0.02, 9));
    const segments = findSegments(energies(x));
    const inside = segments.filter((s) => seconds(s.endFrame) > 1.5 && seconds(s.startFrame) < 2.1);
    expect(inside).toHaveLength(1);
  });

  it('starts immediately on audio that opens mid-word and closes at the end of the stream', () => {
    const x = word(0.5, [120, 150], [600, 1400]);
    const segments = findSegments(energies(x));
    expect(segments).toHaveLength(1);
    expect(segments[0]?.startFrame).toBe(0);
  });
});
