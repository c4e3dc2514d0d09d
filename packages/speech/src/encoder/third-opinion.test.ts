import { describe, expect, it } from 'vitest';
import type { Sequence } from '../model/dtw.js';
import { encoderTemplate } from './encoder-view.js';
import { encoderLoadedOnce } from './onnx-encoder.js';
import {
  ENCODER_MIN_PHRASES,
  encoderHearsAgain,
  encoderJudgesAmong,
  withEncoderOpinion,
} from './third-opinion.js';

/** A view of `frames` unit frames of 8 values, all along `axis`. */
function along(axis: number, frames = 5): Sequence {
  const data = new Float32Array(frames * 8);
  for (let t = 0; t < frames; t++) data[t * 8 + axis] = 1;
  return { frames, dim: 8, data };
}

/** Two takes of each of six phrases, each phrase along its own axis. */
const templates = ['water', 'tea', 'help', 'yes', 'no', 'bed'].flatMap((text, axis) =>
  [0, 1].map(() => encoderTemplate(text, along(axis))),
);

const rejected = {
  text: null,
  confidence: 0.3,
  rejected: true,
  alternatives: [
    { text: 'tea', confidence: 0.3 },
    { text: 'water', confidence: 0.1 },
  ],
};

describe('the encoder’s third opinion', () => {
  it('is asked only of rejections with a first guess', () => {
    expect(encoderHearsAgain(rejected, templates)).toBe(true);
    expect(encoderHearsAgain({ ...rejected, alternatives: [] }, templates)).toBe(false);
    expect(encoderHearsAgain({ ...rejected, text: 'tea', rejected: false }, templates)).toBe(false);
  });

  it(`is not asked among fewer than ${ENCODER_MIN_PHRASES} phrases, where an unknown one can lie clearly nearest`, () => {
    const few = templates.filter((template) => ['water', 'tea', 'help'].includes(template.text));
    expect(encoderHearsAgain(rejected, few)).toBe(false);
    expect(withEncoderOpinion(rejected, along(1), few)).toBe(rejected);
  });

  it('counts different phrases, not takes, for whether views are worth making', () => {
    const six = ['water', 'tea', 'help', 'yes', 'no', 'toilet'];
    expect(encoderJudgesAmong(six)).toBe(true);
    expect(encoderJudgesAmong([...six.slice(0, 5), ...six.slice(0, 5)])).toBe(false);
  });

  it('accepts the first guess it names too, as seconded', () => {
    expect(withEncoderOpinion(rejected, along(1), templates)).toEqual({
      ...rejected,
      text: 'tea',
      rejected: false,
      seconded: true,
    });
  });

  it('takes back a doubt the generic path raised when it names the same phrase', () => {
    const doubted = { ...rejected, doubted: true as const };
    expect(withEncoderOpinion(doubted, along(1), templates)).toEqual({
      ...rejected,
      text: 'tea',
      rejected: false,
      seconded: true,
    });
  });

  it('leaves a rejection it names otherwise, and one it names without a clear lead', () => {
    expect(withEncoderOpinion(rejected, along(0), templates)).toBe(rejected);
    // Frames between "tea" and "help": nearest "tea", barely.
    const between: Sequence = { frames: 5, dim: 8, data: new Float32Array(40) };
    for (let t = 0; t < 5; t++) between.data.set([0, 0.75, 0.66], t * 8);
    expect(withEncoderOpinion(rejected, between, templates)).toBe(rejected);
  });

  it('leaves what is not a rejection as it was', () => {
    const accepted = { ...rejected, text: 'water', rejected: false };
    expect(withEncoderOpinion(accepted, along(1), templates)).toBe(accepted);
  });
});

describe('encoderLoadedOnce', () => {
  it('loads once, and again only after a load that failed', async () => {
    const encoder = { view: () => Promise.resolve(along(0)) };
    let calls = 0;
    const load = encoderLoadedOnce(() =>
      ++calls === 1 ? Promise.reject(new Error('offline')) : Promise.resolve(encoder),
    );
    await expect(load()).rejects.toThrow('offline');
    expect(await load()).toBe(encoder);
    expect(await load()).toBe(encoder);
    expect(calls).toBe(2);
  });
});
