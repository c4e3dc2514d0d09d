// The speech encoder as the package installs it, on real recorded digits.
import { describe, expect, it } from 'vitest';
import {
  encoderDistance,
  encoderHearsTake,
  encoderOpinion,
  encoderSeconds,
  encoderTemplate,
  type EncoderTemplate,
} from '../encoder/encoder-view.js';
import { PROJECTED_VALUES } from '../encoder/projection.js';
import { fsddRecording, haveFsdd } from '../test/fsdd.node.js';
import { loadSpeechEncoder } from './encoder.node.js';

describe.skipIf(!haveFsdd)('loadSpeechEncoder', () => {
  it('views an utterance about 20 frames a second, projected to 64 values each of unit length', async () => {
    const encoder = await loadSpeechEncoder();
    const audio = fsddRecording(3, 'george', 0);
    const view = await encoder.view(audio);
    expect(view.dim).toBe(PROJECTED_VALUES);
    const first = view.data.subarray(0, view.dim);
    expect(Math.hypot(...first)).toBeCloseTo(1, 5);
    // The take and its 0.6 s of added silence, at about 20.8 frames a second.
    const seconds = audio.length / 16_000 + 0.6;
    expect(view.frames).toBeGreaterThanOrEqual(Math.floor(seconds * 20.8) - 2);
    expect(view.frames).toBeLessThanOrEqual(Math.ceil(seconds * 20.8) + 2);
    expect(view.data.every(Number.isFinite)).toBe(true);
    // Unprojected, as the projection is made from: the encoder's own 288 values.
    expect((await (await loadSpeechEncoder(null)).view(audio)).dim).toBe(288);
  });

  it('puts takes of one digit nearer each other than takes of another, and names a later take', async () => {
    const encoder = await loadSpeechEncoder();
    const templates: EncoderTemplate[] = [];
    const views = [];
    for (const [digit, text] of [
      [3, 'three'],
      [7, 'seven'],
      [9, 'nine'],
    ] as const)
      for (const take of [0, 1, 2]) {
        // The words of each take, as training hears them.
        const view = await encoder.view(encoderHearsTake(fsddRecording(digit, 'george', take)));
        views.push(view);
        templates.push(encoderTemplate(text, view));
      }
    const [three0, three1, , seven0] = views;
    if (three0 === undefined || three1 === undefined || seven0 === undefined)
      throw new Error('views missing');
    expect(encoderDistance(three0, three1)).toBeLessThan(encoderDistance(three0, seven0));

    const later = await encoder.view(fsddRecording(7, 'george', 6));
    const opinion = encoderOpinion(later, templates);
    expect(opinion?.text).toBe('seven');
    expect(encoderSeconds(opinion, 'seven')).toBe(true);
  });
});
