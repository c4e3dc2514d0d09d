import { describe, expect, it } from 'vitest';
import type { Sequence } from './dtw.js';
import { seeded } from '../test/signals.js';
import { learnWhitening, MIN_ALIGNED_FRAMES, whiten } from './whitening.js';

/** Takes of `phrases` phrases, 3 values a frame: dimension 0 varies a lot from take to take,
 * dimension 1 hardly, dimension 2 is a passenger outside the whitened view. */
function takesOf(phrases: number, perPhrase: number, frames = 40): { takes: Sequence[]; phraseOf: number[] } {
  const random = seeded(3);
  const gauss = (): number => Math.sqrt(-2 * Math.log(random() + 1e-12)) * Math.cos(2 * Math.PI * random());
  const takes: Sequence[] = [];
  const phraseOf: number[] = [];
  for (let p = 0; p < phrases; p++) {
    for (let k = 0; k < perPhrase; k++) {
      const data = new Float32Array(frames * 3);
      for (let t = 0; t < frames; t++) {
        data[t * 3] = Math.sin((t + p) / 5) + 1.0 * gauss();
        data[t * 3 + 1] = Math.cos((t * (p + 1)) / 7) + 0.1 * gauss();
        data[t * 3 + 2] = 5;
      }
      takes.push({ frames, dim: 3, data });
      phraseOf.push(p);
    }
  }
  return { takes, phraseOf };
}

describe('within-phrase whitening', () => {
  it('weighs down the directions in which the takes of a phrase vary', () => {
    const { takes, phraseOf } = takesOf(4, 3);
    const w = learnWhitening(takes, phraseOf, { dims: 2, band: 0.2 });
    expect(w).toHaveLength(4);
    const [w00, w01, w10, w11] = Array.from(w ?? []);
    expect(w11).toBeGreaterThan(1.5 * (w00 as number));
    expect(Math.abs(w01 as number)).toBeLessThan(0.2 * (w11 as number));
    expect(w01).toBeCloseTo(w10 as number, 6);
    // Scaled to a mean diagonal of 1: distances keep their usual size.
    expect(((w00 as number) + (w11 as number)) / 2).toBeCloseTo(1, 5);
  });

  it('needs repetitions: one take per phrase, or only the unknown slot, gives none', () => {
    const single = takesOf(20, 1);
    expect(learnWhitening(single.takes, single.phraseOf, { dims: 2, band: 0.2 })).toBeUndefined();
    const marked = takesOf(1, 12);
    expect(
      learnWhitening(marked.takes, marked.phraseOf, { dims: 2, band: 0.2, skipPhrase: 0 }),
    ).toBeUndefined();
    // Just enough aligned frames is enough.
    const few = takesOf(1, 2, MIN_ALIGNED_FRAMES);
    expect(learnWhitening(few.takes, few.phraseOf, { dims: 2, band: 0.2 })).toBeDefined();
  });

  it('maps the leading values of each frame and leaves the rest as they are', () => {
    const seq: Sequence = { frames: 2, dim: 3, data: Float32Array.from([1, 2, 3, 4, 5, 6]) };
    const out = whiten(seq, Float32Array.from([2, 0, 1, 1]));
    expect(Array.from(out.data)).toEqual([2, 3, 3, 8, 9, 6]);
    expect(Array.from(seq.data)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(whiten(seq, undefined)).toBe(seq);
  });
});
