import { describe, expect, it } from 'vitest';
import { rng } from '../seeded.js';
import {
  asRecorded,
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
