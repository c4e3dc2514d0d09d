import { describe, expect, it } from 'vitest';
import { ROOM_HELD, roomAround } from '../audio/as-recorded.js';
import { rng } from '../seeded.js';
import { activeLevel, cutClose, enrolledAsImported, inNoise } from './channels.js';

const tone = (seconds: number, amplitude: number): Float32Array =>
  Float32Array.from(
    { length: Math.round(seconds * 16_000) },
    (_, i) => amplitude * Math.sin((2 * Math.PI * 440 * i) / 16_000),
  );

describe('activeLevel', () => {
  it('measures the speech, not the silence around it', () => {
    const speech = tone(0.5, 0.5);
    const padded = new Float32Array(speech.length * 4);
    padded.set(speech, speech.length);
    // A sine of amplitude 0.5 has a power of 0.125, with or without a second and a half of silence.
    expect(activeLevel(padded)).toBeCloseTo(0.125, 3);
    expect(activeLevel(speech)).toBeCloseTo(0.125, 3);
  });
});

describe('inNoise', () => {
  it('adds the noise at the asked level under the speech, looping it from the offset', () => {
    const speech = tone(1, 0.2);
    const noise = Float32Array.from({ length: 4000 }, (_, i) => (i % 2 === 0 ? 1 : -1));
    const noisy = inNoise(speech, noise, 10, 1);
    const added = noisy.map((x, i) => x - (speech[i] as number));
    const power = added.reduce((a, x) => a + x * x, 0) / added.length;
    expect(10 * Math.log10(activeLevel(speech) / power)).toBeCloseTo(10, 6);
    // Offset 1 starts on the noise's second sample (-1), and it loops past its end.
    expect(Math.sign(added[0] as number)).toBe(-1);
    expect(added[4000]).toBeCloseTo(added[0] as number, 9);
  });

  it('refuses an empty noise', () => {
    expect(() => inNoise(tone(0.1, 0.1), new Float32Array(0), 10)).toThrow(RangeError);
  });
});

describe('cutClose and enrolledAsImported', () => {
  it('trims the room around a phrase, which keptAsImported then keeps as the app records one', () => {
    const random = rng(3);
    const room = (seconds: number) =>
      Float32Array.from({ length: Math.round(seconds * 16_000) }, () => (random() * 2 - 1) * 0.002);
    const word = tone(0.5, 0.3).map((x, i, all) => x * Math.sin((Math.PI * i) / all.length));
    const memo = new Float32Array([...room(0.4), ...word, ...room(0.6)]);
    const trimmed = cutClose(memo);
    // The word is left, with no more of the room than its own quiet ends.
    expect(trimmed.length).toBeLessThanOrEqual(word.length);
    expect(trimmed.length).toBeGreaterThan(0.5 * word.length);
    const left = roomAround(trimmed);
    expect(Math.max(left.before, left.after)).toBeLessThan(ROOM_HELD.seconds);

    const [asIs, kept] = enrolledAsImported([
      { text: 'memo', speaker: 's', audio: memo },
      { text: 'clip', speaker: 's', audio: trimmed },
    ]);
    expect(asIs).toEqual({ text: 'memo', speaker: 's', audio: memo, keptAsRecorded: false });
    expect(kept?.keptAsRecorded).toBe(true);
    expect(kept?.audio.length).toBeGreaterThan(trimmed.length + 0.7 * 16_000);
  });
});
