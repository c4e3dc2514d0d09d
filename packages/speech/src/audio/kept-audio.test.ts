import { describe, expect, it } from 'vitest';
import { GENERIC_CONTEXT_SECONDS, WORD_EDGE_SECONDS } from '../generic/second-opinion.js';
import { encoderHears } from '../encoder/encoder-view.js';
import { KeptAudio } from './kept-audio.js';

/** `seconds` of audio whose samples count on from `first`: a cut shows where it came from. */
const counting = (first: number, seconds: number) =>
  Float32Array.from({ length: seconds * 16_000 }, (_, i) => first + i);

describe('KeptAudio', () => {
  it('cuts the audio between two stream times, across the chunks it came in', () => {
    const kept = new KeptAudio(25);
    kept.push(counting(0, 1));
    kept.push(counting(16_000, 1));
    const cut = kept.slice(0.9, 1.1);
    expect(cut).toHaveLength(3200);
    expect([cut[0], cut.at(-1)]).toEqual([14_400, 17_599]);
    // Beyond what was heard: as far as it goes.
    expect(kept.slice(1.9, 3)).toHaveLength(1600);
  });

  it('keeps only its last seconds, and still cuts by stream time', () => {
    const kept = new KeptAudio(2);
    for (let second = 0; second < 5; second++) kept.push(counting(second * 16_000, 1));
    expect(kept.slice(0, 1)).toHaveLength(0);
    const cut = kept.slice(3.5, 4);
    expect([cut[0], cut.length]).toEqual([56_000, 8000]);
  });

  it('gives stream samples by position, silence for those dropped or not heard yet', () => {
    const kept = new KeptAudio(2);
    for (let second = 0; second < 3; second++) kept.push(counting(second * 16_000 + 1, 1));
    expect(kept.heard).toBe(48_000);
    // Across two kept chunks.
    const cut = kept.between(31_990, 32_010);
    expect([cut[0], cut.at(-1), cut.length]).toEqual([31_991, 32_010, 20]);
    // The first second is dropped, the fourth not heard yet.
    expect([...kept.between(15_998, 16_002)]).toEqual([0, 0, 16_001, 16_002]);
    expect([...kept.between(47_998, 48_002)]).toEqual([47_999, 48_000, 0, 0]);
  });

  it('gives the generic path an utterance and its edges with silence around, not the stream (0120)', () => {
    const kept = new KeptAudio(25);
    kept.push(counting(1, 2));
    const margin = GENERIC_CONTEXT_SECONDS * 16_000;
    const edge = WORD_EDGE_SECONDS * 16_000;
    const words = 8000 + 2 * edge;
    const around = kept.around(1, 1.5);
    expect(around.length).toBe(words + 2 * margin);
    const edges = [margin - 1, margin, margin + words - 1, margin + words].map((i) => around[i]);
    expect(edges).toEqual([0, 16_001 - edge, 24_000 + edge, 0]);
    expect(kept.around(0, 0.5)[0]).toBe(0);
    expect(kept.around(0, 0.5)[margin + edge]).toBe(1);
  });

  it('gives the speech encoder an utterance and its edges, as it cuts them from a whole recording', () => {
    const kept = new KeptAudio(25);
    const stream = counting(1, 2);
    kept.push(stream.subarray(0, 12_000));
    kept.push(stream.subarray(12_000));
    const edge = WORD_EDGE_SECONDS * 16_000;
    const heard = kept.heardByEncoder(1, 1.5);
    expect(heard.length).toBe(8000 + 2 * edge);
    expect([heard[0], heard.at(-1)]).toEqual([16_001 - edge, 24_000 + edge]);
    expect([...heard]).toEqual([...encoderHears(stream, 1, 1.5)]);
  });

  it('gives an utterance still being spoken up to where it is asked, silence before its start', () => {
    const kept = new KeptAudio(25);
    kept.push(counting(1, 2));
    const edge = WORD_EDGE_SECONDS * 16_000;
    expect([...kept.spoken(16_000 - edge - 2, 16_000 - edge + 2, 1)]).toEqual([
      0,
      0,
      16_001 - edge,
      16_002 - edge,
    ]);
    expect([...kept.spoken(24_000 + edge - 2, 24_000 + edge + 2, 1, 1.5)]).toEqual([
      23_999 + edge,
      24_000 + edge,
      0,
      0,
    ]);
  });
});
