import { describe, expect, it } from 'vitest';
import {
  ENCODER_SECONDS_PHRASES_UNDER,
  ENCODER_SECONDS_UNDER,
  encoderDistance,
  encoderOpinion,
  encoderSeconds,
  encoderTemplate,
  encoderView,
  ENCODER_CANDIDATES,
  type EncoderTemplate,
} from './encoder-view.js';
import { alignedCells, type Sequence } from '../model/dtw.js';

/** A view of unit frames pointing along the given axes, one frame each. */
function along(axes: number[], dim = 4): Sequence {
  const data = new Float32Array(axes.length * dim);
  axes.forEach((axis, t) => (data[t * dim + axis] = 1));
  return { frames: axes.length, dim, data };
}

describe('encoderView', () => {
  it("averages frames in pairs, takes out each value's mean and scales frames to unit length", () => {
    // Four frames of two values: pairs (1, 3) and (5, 7) in the first, constant 10 in the second.
    const raw = Float32Array.from([1, 10, 3, 10, 5, 10, 7, 10]);
    const view = encoderView(raw, 4, 2);
    expect(view.frames).toBe(2);
    // Pair means 2 and 6, less their mean 4: -2 and 2; the constant value becomes 0.
    expect([...view.data]).toEqual([-1, 0, 1, 0]);
  });

  it('keeps an odd last frame out, and a single frame whole', () => {
    expect(encoderView(new Float32Array(3 * 2).fill(1), 3, 2).frames).toBe(1);
    expect(encoderView(Float32Array.from([3, 4]), 1, 2).frames).toBe(1);
  });

  it('refuses output whose size does not match its shape', () => {
    expect(() => encoderView(new Float32Array(5), 2, 3)).toThrow(RangeError);
    expect(() => encoderView(new Float32Array(0), 0, 3)).toThrow(RangeError);
  });
});

describe('encoderDistance', () => {
  it('is zero for the same frames however they are stretched in time', () => {
    expect(encoderDistance(along([0, 1, 2]), along([0, 1, 2]))).toBeCloseTo(0);
    expect(encoderDistance(along([0, 0, 1, 1, 2]), along([0, 1, 2]))).toBeCloseTo(0);
  });

  it('grows as the frames turn apart, over both lengths', () => {
    // Unit frames at right angles lie the square root of 2 apart; along the diagonal, the
    // path's cost over both lengths is that distance.
    expect(encoderDistance(along([0, 1, 2]), along([3, 3, 3]))).toBeCloseTo(Math.SQRT2);
    expect(encoderDistance(along([0, 1]), along([0, 2]))).toBeGreaterThan(0);
  });

  it('does not match utterances of lengths three times apart', () => {
    expect(encoderDistance(along([0, 0, 0, 0, 1, 1, 1, 1]), along([0, 1]))).toBe(Infinity);
  });

  it('refuses views of different sizes', () => {
    expect(() => encoderDistance(along([0], 4), along([0], 3))).toThrow(RangeError);
  });
});

describe('encoderOpinion', () => {
  const templates: EncoderTemplate[] = [
    encoderTemplate('water', along([0, 1, 0])),
    encoderTemplate('water', along([0, 1, 1])),
    encoderTemplate('tea', along([2, 3, 2])),
    encoderTemplate('help', along([3, 2, 3])),
  ];

  it('names the phrase of the nearest take, clearly when the others lie far', () => {
    const opinion = encoderOpinion(along([0, 1, 1]), templates);
    expect(opinion?.text).toBe('water');
    expect(opinion?.ratio).toBeCloseTo(0);
    expect(encoderSeconds(opinion, 'water')).toBe(true);
    expect(encoderSeconds(opinion, 'tea')).toBe(false);
  });

  it('does not second a guess it names only as near as the rivals', () => {
    // Frames halfway between "tea"'s axis and "help"'s: as near to one as to the other.
    const between = { frames: 3, dim: 4, data: Float32Array.from([0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1]) };
    between.data.forEach((x, i) => (between.data[i] = x * Math.SQRT1_2));
    const evenly = [
      encoderTemplate('water', along([0, 0, 0])),
      encoderTemplate('tea', along([2, 2, 2])),
      encoderTemplate('help', along([3, 3, 3])),
    ];
    const opinion = encoderOpinion(between, evenly);
    expect(opinion?.ratio).toBeGreaterThan(ENCODER_SECONDS_UNDER);
    expect(encoderSeconds(opinion, opinion?.text ?? '')).toBe(false);
  });

  it('seconds a phrase of several words at a looser cut than a single word', () => {
    const named = (ratio: number, text: string) => ({ text, ratio });
    const looser = (ENCODER_SECONDS_UNDER + ENCODER_SECONDS_PHRASES_UNDER) / 2;
    expect(ENCODER_SECONDS_PHRASES_UNDER).toBeGreaterThan(ENCODER_SECONDS_UNDER);
    expect(encoderSeconds(named(looser, 'Water, please'), 'Water, please')).toBe(true);
    expect(encoderSeconds(named(looser, 'water'), 'water')).toBe(false);
    expect(encoderSeconds(named(ENCODER_SECONDS_PHRASES_UNDER, 'water please'), 'water please')).toBe(false);
  });

  it('has nothing to say without templates, and seconds nothing with one phrase', () => {
    expect(encoderOpinion(along([0]), [])).toBeUndefined();
    expect(encoderSeconds(encoderOpinion(along([0]), []), 'water')).toBe(false);
    const alone = encoderOpinion(along([0, 1, 0]), templates.slice(0, 2));
    expect(alone).toEqual({ text: 'water', ratio: 1 });
    expect(encoderSeconds(alone, 'water')).toBe(false);
  });

  it('judges only against phrases whose takes it could align: none, no opinion', () => {
    // Every take three times shorter than the utterance.
    expect(encoderOpinion(along([0, 0, 0, 1, 1, 1, 1, 1, 1, 0]), templates)).toBeUndefined();
  });

  it('aligns exactly only the phrases its first pass keeps', () => {
    // Ten phrases alike but for their ends, so that no alignment is abandoned early: the
    // first pass must choose which to align.
    const common = Array.from({ length: 36 }, (_, t) => t % 4);
    const many = Array.from({ length: 10 }, (_, p) =>
      encoderTemplate(`phrase ${p}`, along([...common, 4 + (p % 4), 4 + (p % 4), 8 + p, 8 + p], 20)),
    );
    const before = alignedCells();
    const opinion = encoderOpinion(along([...common, 7, 7, 15, 15], 20), many);
    const cells = alignedCells() - before;
    expect(opinion?.text).toBe('phrase 7');
    // Ten sketches of 8 frames within their band, and six exact alignments of 40 x 40
    // frames within theirs (12 frames either side): well under all ten.
    const exact = 40 * (2 * 12 + 1);
    expect(cells).toBeLessThanOrEqual(10 * 8 * 8 + ENCODER_CANDIDATES * exact);
    expect(cells).toBeGreaterThan(ENCODER_CANDIDATES * exact * 0.5);
  });
});
