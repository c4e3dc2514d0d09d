import { describe, expect, it } from 'vitest';
import { narrowBand } from '../eval/channels.js';
import { analyse } from '../features/features.js';
import { fsddRecording, haveFsdd } from '../test/fsdd.node.js';
import { take } from '../test/phrases.js';
import { defaultFrontEnd } from './profile.js';
import {
  frameDistortion,
  learnVoicePrint,
  VOICE_CEPSTRA,
  voiceBands,
  voiceDistortion,
} from './voice-print.js';

const frames = (audio: Float32Array) => analyse(audio, defaultFrontEnd());
const recording = (digit: number, speaker: string, n: number) => frames(fsddRecording(digit, speaker, n));

describe('voice print', () => {
  it('reads the shape under 3.8 kHz, the bands every channel carries', () => {
    const fe = defaultFrontEnd();
    const bands = voiceBands(fe);
    expect(bands).toBeGreaterThan(16);
    expect(bands).toBeLessThan(fe.melBands);
    const top = fe.filters[bands - 1];
    expect(top).toBeDefined();
    expect(
      ((top?.start ?? 0) + (top?.weights.length ?? 0)) * (fe.sampleRate / fe.fftSize),
    ).toBeLessThanOrEqual(3800);
  });

  it('needs two takes to hold one out for its scale', () => {
    expect(learnVoicePrint([frames(take(0, 0))])).toBeUndefined();
    const print = learnVoicePrint([frames(take(0, 0)), frames(take(1, 0))]);
    expect(print?.codebook.length).toBeGreaterThan(0);
    expect((print?.codebook.length ?? 1) % VOICE_CEPSTRA).toBe(0);
    expect(print?.scale).toBeGreaterThan(0);
  });

  it('is the same print however often it is learnt', () => {
    const takes = [0, 1, 2].flatMap((p) => [0, 1].map((t) => frames(take(p, t))));
    expect(learnVoicePrint(takes)).toEqual(learnVoicePrint(takes));
  });

  it('scores silence and a single frame without failing', () => {
    const print = learnVoicePrint([0, 1, 2].map((t) => frames(take(0, t))));
    expect(print).toBeDefined();
    if (print === undefined) return;
    expect(voiceDistortion(print, [])).toBeUndefined();
    const one = frames(take(0, 3))[30];
    expect(one).toBeDefined();
    if (one !== undefined) expect(frameDistortion(print, one)).toBeGreaterThanOrEqual(0);
  });

  describe.skipIf(!haveFsdd)('on real voices (FSDD)', () => {
    const speakers = ['george', 'jackson', 'lucas', 'nicolas', 'theo', 'yweweler'];
    it("tells a person's held-out digits from the same digits in other voices, through any channel", () => {
      for (const speaker of speakers) {
        const print = learnVoicePrint(
          [0, 1, 2, 3, 4, 5, 6, 7].flatMap((d) => [0, 1, 2].map((n) => recording(d, speaker, n))),
        );
        expect(print).toBeDefined();
        if (print === undefined) return;
        const theirs = [0, 3, 6, 9].map((d) => voiceDistortion(print, recording(d, speaker, 20)) ?? Infinity);
        const others = speakers
          .filter((s) => s !== speaker)
          .flatMap((s) => [0, 3, 6, 9].map((d) => voiceDistortion(print, recording(d, s, 20)) ?? 0));
        // FSDD is recorded at 8 kHz: through a narrow channel its digits read as they were.
        const narrow = [0, 3, 6, 9].map(
          (d) => voiceDistortion(print, frames(narrowBand(fsddRecording(d, speaker, 20)))) ?? Infinity,
        );
        const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
        expect(mean(theirs)).toBeLessThan(1.5);
        expect(mean(others)).toBeGreaterThan(mean(theirs) + 0.15);
        expect(Math.abs(mean(narrow) - mean(theirs))).toBeLessThan(0.15);
      }
    });
  });
});
