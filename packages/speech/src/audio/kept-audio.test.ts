import { describe, expect, it } from 'vitest';
import { GENERIC_CONTEXT_SECONDS } from '../generic/second-opinion.js';
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

  it('gives the generic path an utterance with the stream around it, or silence where none is kept', () => {
    const kept = new KeptAudio(25);
    kept.push(counting(1, 2));
    const margin = GENERIC_CONTEXT_SECONDS * 16_000;
    const around = kept.around(1, 1.5);
    expect([around[0], around.length]).toEqual([16_001 - margin, 8000 + 2 * margin]);
    expect(kept.around(0, 0.5)[0]).toBe(0);
    expect(kept.around(0, 0.5)[margin]).toBe(1);
  });
});
