import { describe, expect, it, vi } from 'vitest';
import type { Sequence } from '../model/dtw.js';
import { encoderTemplate } from './encoder-view.js';
import { EncoderViewAhead, viewOfFinal } from './view-ahead.js';

const view: Sequence = { frames: 1, dim: 2, data: new Float32Array([1, 0]) };
const templates = ['water', 'tea', 'help', 'yes', 'no', 'bed'].map((text) => encoderTemplate(text, view));
const rejected = {
  text: null,
  confidence: 0.3,
  rejected: true,
  alternatives: [{ text: 'tea', confidence: 0.3 }],
};
const accepted = { ...rejected, text: 'tea', rejected: false };

function aheadOf() {
  const encoder = vi.fn((audio: Float32Array) => Promise.resolve({ ...view, frames: audio.length }));
  const audio = vi.fn((start: number, end: number) => new Float32Array(Math.round((end - start) * 10)));
  return { ahead: new EncoderViewAhead(encoder), encoder, audio };
}

describe('EncoderViewAhead', () => {
  it('begins viewing an expected final the encoder will hear, once, and gives it to that final alone', async () => {
    const { ahead, encoder, audio } = aheadOf();
    ahead.follow({ start: 1, end: 1.5, result: rejected }, templates, audio);
    ahead.follow({ start: 1, end: 1.5, result: rejected }, templates, audio);
    expect(encoder).toHaveBeenCalledTimes(1);
    expect(audio).toHaveBeenCalledWith(1, 1.5);
    expect(await ahead.viewOf(1, 1.5)).toMatchObject({ frames: 5 });
    // A final joined to what followed has a span of its own.
    expect(ahead.viewOf(0.2, 1.5)).toBeUndefined();
    // Speech went on: the final now expected is viewed instead.
    ahead.follow({ start: 1, end: 2, result: rejected }, templates, audio);
    expect(encoder).toHaveBeenCalledTimes(2);
    expect(ahead.viewOf(1, 1.5)).toBeUndefined();
    expect(await ahead.viewOf(1, 2)).toMatchObject({ frames: 10 });
  });

  it('views nothing the encoder will not hear: no final expected, an acceptance, too few phrases, no audio', () => {
    const { ahead, encoder, audio } = aheadOf();
    ahead.follow(undefined, templates, audio);
    ahead.follow({ start: 1, end: 1.5, result: accepted }, templates, audio);
    ahead.follow({ start: 1, end: 1.5, result: rejected }, templates.slice(0, 5), audio);
    ahead.follow({ start: 1, end: 1.5, result: rejected }, undefined, audio);
    ahead.follow({ start: 1, end: 1, result: rejected }, templates, audio);
    expect(encoder).not.toHaveBeenCalled();
    expect(ahead.viewOf(1, 1.5)).toBeUndefined();
  });

  it('leaves a failed view to the final that asks for it', async () => {
    const ahead = new EncoderViewAhead(() => Promise.reject(new Error('the encoder stopped')));
    ahead.follow({ start: 1, end: 1.5, result: rejected }, templates, () => new Float32Array(5));
    await expect(ahead.viewOf(1, 1.5)).rejects.toThrow('the encoder stopped');
  });

  it("gives a final the view begun ahead of it, else begins one of the final's audio, if it has any", async () => {
    const begun = Promise.resolve(view);
    const encoder = vi.fn((samples: Float32Array) => Promise.resolve({ ...view, frames: samples.length }));
    const audio = vi.fn(() => new Float32Array(4));
    expect(viewOfFinal(begun, audio, encoder)).toBe(begun);
    expect(audio).not.toHaveBeenCalled();
    expect(await viewOfFinal(undefined, audio, encoder)).toMatchObject({ frames: 4 });
    expect(viewOfFinal(undefined, () => new Float32Array(0), encoder)).toBeUndefined();
    expect(encoder).toHaveBeenCalledTimes(1);
  });
});
