import { describe, expect, it } from 'vitest';
import { SAMPLE_RATE } from '../units.js';
import { seeded } from '../test/signals.js';
import { activeLevel } from './channels.js';
import { sayInStream, scoreStream, type SaidSpan } from './continuous.js';

const tone = (seconds: number): Float32Array =>
  Float32Array.from({ length: Math.round(seconds * SAMPLE_RATE) }, (_, i) => 0.3 * Math.sin(i / 5));

describe('sayInStream', () => {
  it('puts each phrase after its gap and says where, with the room under it all', () => {
    const phrases = [
      { text: 'yes', audio: tone(0.5), known: true },
      { text: 'go away', audio: tone(1), known: false },
    ];
    const { audio, spans } = sayInStream(phrases, [2, 3, 1]);
    expect(spans).toEqual([
      { text: 'yes', known: true, start: 2, end: 2.5 },
      { text: 'go away', known: false, start: 5.5, end: 6.5 },
    ]);
    expect(audio.length).toBe(7.5 * SAMPLE_RATE);
    expect(audio[Math.round(1 * SAMPLE_RATE)]).toBe(0);
    const noise = Float32Array.from({ length: 1000 }, (_, i) => (i % 2 === 0 ? 1 : -1));
    const inRoom = sayInStream(phrases, [2, 3, 1], { noise, snrDb: 20, offset: 0 }).audio;
    // Under the speech by 20 dB: the silence between the phrases now holds the room.
    const gap = inRoom.subarray(SAMPLE_RATE, 2 * SAMPLE_RATE);
    expect(10 * Math.log10(activeLevel(audio) / activeLevel(gap))).toBeCloseTo(20, 1);
  });
});

describe('sayInStream with the room going on between takes', () => {
  it("fills each gap with the room tone at the level of the take's own edge", () => {
    const quiet = (seconds: number, level: number): Float32Array =>
      Float32Array.from({ length: Math.round(seconds * SAMPLE_RATE) }, (_, i) => level * Math.sin(i));
    // Each take: 0.3 s of its own room, then speech, then 0.3 s of room again.
    const takeIn = (room: number): Float32Array =>
      Float32Array.from([...quiet(0.3, room), ...tone(0.5), ...quiet(0.3, room)]);
    const phrases = [
      { text: 'yes', audio: takeIn(0.01), known: true },
      { text: 'no', audio: takeIn(0.001), known: true },
    ];
    const random = seeded(3);
    const { audio } = sayInStream(phrases, [1, 1, 1], undefined, { edge: 0.2, random });
    const rms = (from: number, to: number): number => {
      const x = audio.subarray(Math.round(from * SAMPLE_RATE), Math.round(to * SAMPLE_RATE));
      return Math.sqrt(x.reduce((n, v) => n + v * v, 0) / x.length);
    };
    // Before each take, the room of that take; after the last, the last one's.
    expect(rms(0, 1) / (0.01 / Math.SQRT2)).toBeCloseTo(1, 1);
    expect(rms(2.1, 3.1) / (0.001 / Math.SQRT2)).toBeCloseTo(1, 1);
    expect(rms(4.2, 5.2) / (0.001 / Math.SQRT2)).toBeCloseTo(1, 1);
    // Without it, the gaps stay silent.
    expect(
      rms(0, 1) > 0 &&
        sayInStream(phrases, [1, 1, 1])
          .audio.subarray(0, SAMPLE_RATE)
          .every((v) => v === 0),
    ).toBe(true);
  });
});

describe('scoreStream', () => {
  const spans: SaidSpan[] = [
    { text: 'Yes please', known: true, start: 2, end: 3 },
    { text: 'water', known: true, start: 6, end: 7 },
    { text: 'thank you', known: true, start: 10, end: 11 },
    { text: 'go away', known: false, start: 14, end: 15 },
  ];

  it('counts what each phrase got, and what the room alone got', () => {
    const score = scoreStream(spans, [
      { text: 'yes, please', start: 1.9, end: 3.1, heardAt: 3.6 }, // understood (case and punctuation aside)
      { text: 'help', start: 5.8, end: 7.3, heardAt: 7.8 }, // mistaken
      { text: null, start: 9.9, end: 11.2, heardAt: 11.7 }, // rejected: not understood, not mistaken
      { text: 'water', start: 13.8, end: 15.2, heardAt: 15.7 }, // an unknown phrase accepted
      { text: null, start: 17, end: 18, heardAt: 18.5 }, // the room alone, rejected
      { text: 'water', start: 20, end: 22, heardAt: 22.5 }, // the room alone, accepted
    ]);
    expect(score).toMatchObject({
      understood: 1,
      known: 3,
      mistaken: 1,
      unknownAccepted: 1,
      unknown: 1,
      roomFinals: 2,
      roomAccepted: 1,
      finals: 6,
    });
    // Lengths 1, 1.2, 1.3, 1.4, 1.5 and 2 s: the upper of the middle two.
    expect(score.medianLength).toBeCloseTo(1.4, 9);
    // The one understood phrase was heard 0.6 s after its recording ended.
    expect(score.delays).toHaveLength(1);
    expect(score.delays[0]).toBeCloseTo(0.6, 9);
    // Every phrase got its first answer within the second after it.
    expect(score).toMatchObject({ answeredLate: 0, unanswered: 0 });
  });

  it('counts the phrases answered late, by their first final right or not, and those never answered', () => {
    const score = scoreStream(spans, [
      { text: null, start: 2.1, end: 2.9, heardAt: 4.5 }, // rejected, 1.5 s after: late
      { text: 'yes please', start: 2.1, end: 2.9, heardAt: 5 }, // a later final changes nothing
      { text: 'water', start: 6.1, end: 6.9, heardAt: 7.9 }, // right, within the second
      { text: 'thank you', start: 4, end: 11, heardAt: 13.5 }, // held open by the room: late
      // nothing over "go away"; a final on the room alone answers no phrase
      { text: null, start: 17, end: 18, heardAt: 18.5 },
    ]);
    expect(score).toMatchObject({ answeredLate: 2, unanswered: 1, understood: 3 });
  });

  it('credits a phrase inside one long utterance with the other voice around it', () => {
    const score = scoreStream(spans, [{ text: 'water', start: 4, end: 9, heardAt: 9.5 }]);
    expect(score).toMatchObject({ understood: 1, mistaken: 0, roomFinals: 0, finals: 1 });
  });
});
