import { describe, expect, it } from 'vitest';
import { rng } from '../seeded.js';
import {
  asRecorded,
  cutOff,
  floorRmsOf,
  importedAsRecorded,
  keptAsImported,
  RECORDED_LEAD,
  RECORDED_TAIL,
  ROOM_HELD,
  roomAround,
} from './as-recorded.js';

const tone = (seconds: number, amplitude: number): Float32Array =>
  Float32Array.from(
    { length: Math.round(seconds * 16_000) },
    (_, i) => amplitude * Math.sin((2 * Math.PI * 440 * i) / 16_000),
  );

/** White noise of RMS `rms`. */
const room = (seconds: number, rms: number, random: () => number): Float32Array =>
  Float32Array.from({ length: Math.round(seconds * 16_000) }, () => (random() * 2 - 1) * rms * Math.sqrt(3));

const rmsOf = (x: Float32Array): number => Math.sqrt(x.reduce((n, v) => n + v * v, 0) / x.length);

describe('floorRmsOf and asRecorded', () => {
  it("finds a recording's own floor, and puts the room around a close-cut word at it", () => {
    const random = rng(7);
    const take = new Float32Array([
      ...room(0.1, 0.001, random),
      ...tone(0.5, 0.3),
      ...room(0.1, 0.001, random),
    ]);
    expect(floorRmsOf(take)).toBeGreaterThan(0.0008);
    expect(floorRmsOf(take)).toBeLessThan(0.0012);
    // Cut close, the word alone: its floor is its own quietest sound.
    const word = tone(0.5, 0.3);
    expect(floorRmsOf(word)).toBeGreaterThan(0.2);
    const recorded = asRecorded(word, 0.001, rng(3));
    expect(recorded.length).toBe(Math.round(0.3 * 16_000) + word.length + Math.round(0.5 * 16_000));
    expect(floorRmsOf(recorded)).toBeGreaterThan(0.0008);
    expect(floorRmsOf(recorded)).toBeLessThan(0.0012);
  });
});

describe('importedAsRecorded', () => {
  it('puts a room at the take’s own floor before, under and after it, the same every time', () => {
    const random = rng(11);
    // A word cut close: loud from its first sample, with a quieter stretch inside it.
    const take = new Float32Array([...tone(0.3, 0.3), ...room(0.1, 0.002, random), ...tone(0.3, 0.2)]);
    const kept = importedAsRecorded(take);
    const lead = Math.round(RECORDED_LEAD * 16_000);
    const tail = Math.round(RECORDED_TAIL * 16_000);
    expect(kept.length).toBe(lead + take.length + tail);
    // Before and after the take: the room, at its floor.
    for (const part of [kept.subarray(0, lead), kept.subarray(lead + take.length)]) {
      expect(rmsOf(part)).toBeGreaterThan(0.5 * floorRmsOf(take));
      expect(rmsOf(part)).toBeLessThan(2 * floorRmsOf(take));
    }
    // Under it: the take itself, with no more than the room added.
    const under = kept.subarray(lead, lead + take.length);
    const added = under.map((x, i) => x - (take[i] as number));
    expect(rmsOf(added)).toBeLessThan(2 * floorRmsOf(take));
    expect(rmsOf(added)).toBeGreaterThan(0);
    expect(importedAsRecorded(take)).toEqual(kept);
  });

  it('adds nothing but silence to a take whose floor is digital silence', () => {
    const take = new Float32Array([...new Float32Array(3200), ...tone(0.3, 0.3), ...new Float32Array(3200)]);
    const kept = importedAsRecorded(take);
    expect(kept.subarray(Math.round(RECORDED_LEAD * 16_000)).subarray(0, take.length)).toEqual(take);
    expect(Math.max(...kept.subarray(0, Math.round(RECORDED_LEAD * 16_000)).map(Math.abs))).toBe(0);
  });
});

/** A word of sorts: a tone that swells from nothing and dies away, as a word's sound does. */
const word = (seconds: number): Float32Array =>
  tone(seconds, 0.3).map((x, i, all) => x * Math.sin((Math.PI * i) / all.length));

describe('roomAround and keptAsImported', () => {
  it('measures the room a recording holds at each end, not counting digital silence', () => {
    const random = rng(5);
    const memo = new Float32Array([...room(0.4, 0.001, random), ...word(0.5), ...room(0.6, 0.001, random)]);
    const around = roomAround(memo);
    expect(around.before).toBeCloseTo(0.4, 1);
    expect(around.after).toBeCloseTo(0.6, 1);
    // A word alone: only its own quiet onset and end.
    const alone = roomAround(word(0.5));
    expect(Math.max(alone.before, alone.after)).toBeLessThan(ROOM_HELD.seconds);
    // An editor's silence is no room.
    const padded = new Float32Array([...new Float32Array(8000), ...word(0.5), ...new Float32Array(8000)]);
    expect(roomAround(padded)).toEqual(alone);
    expect(roomAround(new Float32Array(1600))).toEqual({ before: 0, after: 0 });
  });

  it('keeps a take that holds its room as it is, and one cut close as the app records a phrase', () => {
    const random = rng(9);
    const memo = new Float32Array([...room(0.3, 0.001, random), ...word(0.5), ...room(0.5, 0.001, random)]);
    expect(keptAsImported(memo)).toEqual({ audio: memo, keptAsRecorded: false });
    // Room before it but cut close after: it is kept as recorded too.
    const clipped = new Float32Array([...room(0.3, 0.001, random), ...word(0.5)]);
    const kept = keptAsImported(clipped);
    expect(kept.keptAsRecorded).toBe(true);
    expect(kept.audio).toEqual(importedAsRecorded(clipped));
    expect(keptAsImported(word(0.5)).keptAsRecorded).toBe(true);
  });
});

describe('cutOff', () => {
  const random = rng(13);
  const whole = { start: false, end: false };

  it('finds no cut in a take with the room around its phrase, quiet or loud', () => {
    const quiet = new Float32Array([...room(0.4, 0.001, random), ...word(0.5), ...room(0.6, 0.001, random)]);
    expect(cutOff(quiet)).toEqual(whole);
    // A fan 20 dB under the phrase: still the room's, not speech.
    const loud = new Float32Array([...room(0.4, 0.02, random), ...word(0.5), ...room(0.6, 0.02, random)]);
    expect(cutOff(loud)).toEqual(whole);
    // A device's zeros before and after are quiet, however long.
    const zeros = new Float32Array([...new Float32Array(4000), ...word(0.5), ...new Float32Array(4000)]);
    expect(cutOff(zeros)).toEqual(whole);
  });

  it('finds the start cut when speech began before the recording, and the end when it went on after', () => {
    // Loud from the first sample: the start of the word is not in the take.
    const lateStart = new Float32Array([...tone(0.3, 0.3), ...room(0.6, 0.001, random)]);
    expect(cutOff(lateStart)).toEqual({ start: true, end: false });
    // A device's zeros, then the middle of the word.
    const afterZeros = new Float32Array([
      ...new Float32Array(1600),
      ...tone(0.3, 0.3),
      ...room(0.6, 0.001, random),
    ]);
    expect(cutOff(afterZeros)).toEqual({ start: true, end: false });
    // Stop pressed mid-word, and a take that is all speech.
    const earlyStop = new Float32Array([...room(0.5, 0.001, random), ...tone(0.3, 0.3)]);
    expect(cutOff(earlyStop)).toEqual({ start: false, end: true });
    // Syllables four a second, from the loudest of one to the loudest of another.
    const syllables = tone(1, 0.3).map(
      (x, i) => x * (0.55 + 0.45 * Math.cos((2 * Math.PI * 4 * i) / 16_000)),
    );
    expect(cutOff(syllables)).toEqual({ start: true, end: true });
    // Just under the room it needs at an end, and just over it.
    const held = Math.round(ROOM_HELD.seconds * 16_000);
    const around = (lead: number) =>
      new Float32Array([
        ...room(lead / 16_000, 0.001, random),
        ...tone(0.5, 0.3),
        ...room(0.6, 0.001, random),
      ]);
    expect(cutOff(around(held - 320)).start).toBe(true);
    expect(cutOff(around(held + 320)).start).toBe(false);
  });

  it('takes no other sound at an end for the person cut off: a television 10 dB under them', () => {
    const television = () => tone(0.3, 0.3 * 10 ** (-10 / 20));
    const take = new Float32Array([
      ...television(),
      ...room(0.3, 0.001, random),
      ...tone(0.5, 0.3),
      ...room(0.3, 0.001, random),
      ...television(),
    ]);
    expect(cutOff(take)).toEqual(whole);
    // As loud as the person, it is their speech.
    const louder = new Float32Array([...tone(0.3, 0.25), ...room(0.3, 0.001, random), ...tone(0.5, 0.3)]);
    expect(cutOff(louder).start).toBe(true);
  });

  it('finds nothing cut in a take with no sound at all', () => {
    expect(cutOff(new Float32Array(16_000))).toEqual(whole);
    expect(cutOff(new Float32Array(0))).toEqual(whole);
  });
});
