import { describe, expect, it } from 'vitest';
import { analyse, createFrontEnd } from '../features/features.js';
import { fsddRecording, haveFsdd } from '../test/fsdd.node.js';
import { concat, noise, seeded, word } from '../test/signals.js';
import {
  Endpointer,
  findSegments,
  loudLevelOf,
  riseOf,
  silencesBetween,
  type EndpointerOptions,
  type Segment,
} from './endpointer.js';

const fe = createFrontEnd();
const energies = (x: Float32Array): number[] => analyse(x, fe).map((f) => f.energyDb);
const seconds = (frames: number): number => frames * 0.01;

describe('Endpointer', () => {
  it('finds one utterance in silence with start and end within 0.1 s', () => {
    const x = concat(noise(0.6), word(0.7, [120, 150], [600, 1400]), noise(0.8));
    const [seg, ...rest] = findSegments(energies(x));
    expect(rest).toHaveLength(0);
    expect(Math.abs(seconds(seg?.startFrame ?? 0) - 0.6)).toBeLessThan(0.1);
    expect(Math.abs(seconds(seg?.endFrame ?? 0) - 1.3)).toBeLessThan(0.15);
  });

  it('bridges pauses shorter than the minimum silence and splits at longer ones', () => {
    const w = word(0.4, [120, 150], [600, 1400]);
    const short = concat(noise(0.5), w, noise(0.2, 0.001, 3), w, noise(0.8, 0.001, 4));
    const long = concat(noise(0.5), w, noise(0.6, 0.001, 3), w, noise(0.8, 0.001, 4));
    expect(findSegments(energies(short), { minSilence: 0.3 })).toHaveLength(1);
    expect(findSegments(energies(long), { minSilence: 0.3 })).toHaveLength(2);
    expect(findSegments(energies(long), { minSilence: 0.8 })).toHaveLength(1);
  });

  it('measures the silence between segments as a live end-pointer waits it out', () => {
    const w = word(0.4, [120, 150], [600, 1400]);
    const x = energies(concat(noise(0.5), w, noise(0.6, 0.001, 3), w, noise(0.8, 0.001, 4)));
    const segments = findSegments(x, { minSilence: 0.12 });
    const [silence, ...more] = silencesBetween(segments, { minSilence: 0.12 }).map(seconds);
    expect(more).toHaveLength(0);
    // The padded segments' gap is 0.16 s shorter; the silence itself is what splits or not.
    expect(silence).toBeCloseTo(0.6, 1);
    expect(findSegments(x, { minSilence: (silence ?? 0) + 0.02 })).toHaveLength(1);
    expect(findSegments(x, { minSilence: (silence ?? 0) - 0.02 })).toHaveLength(2);
  });

  it('ends an utterance exactly minSilence after the last speech frame', () => {
    const x = concat(noise(0.5), word(0.5, [120, 150], [600, 1400]), noise(2));
    const e = energies(x);
    for (const minSilence of [0.3, 0.6]) {
      const ep = new Endpointer({ minSilence });
      let endAt = -1;
      let last = -1;
      e.forEach((v, i) => {
        const [ev] = ep.process(v);
        if (ev?.type === 'end') {
          endAt = i;
          last = ev.endFrame;
        }
      });
      // The end fires minSilence after the last loud frame (the segment keeps 80 ms padding).
      expect(seconds(endAt - (last - 8))).toBeCloseTo(minSilence, 1);
    }
  });

  it('drops clicks too short to be speech', () => {
    const x = concat(noise(0.5), word(0.07, [150, 150], [800, 800]), noise(1));
    const ep = new Endpointer();
    const events = energies(x).flatMap((v) => ep.process(v));
    expect(events.map((e) => e.type)).toEqual(['start', 'cancel']);
  });

  it('adapts to a noisy room and still finds the speech', () => {
    const x = concat(noise(1.5, 0.02), word(0.6, [120, 150], [600, 1400], 1, 0.5), noise(1, 0.02, 9));
    const segments = findSegments(energies(x));
    const inside = segments.filter((s) => seconds(s.endFrame) > 1.5 && seconds(s.startFrame) < 2.1);
    expect(inside).toHaveLength(1);
  });

  it('starts immediately on audio that opens mid-word and closes at the end of the stream', () => {
    const x = word(0.5, [120, 150], [600, 1400]);
    const segments = findSegments(energies(x));
    expect(segments).toHaveLength(1);
    expect(segments[0]?.startFrame).toBe(0);
  });
});

describe('Endpointer in a room that talks', () => {
  /** Another voice 20 dB under the user's words: short words, short gaps, never a pause. */
  const talkingRoom = (seconds: number, seed = 11): Float32Array => {
    const r = seeded(seed);
    const parts: Float32Array[] = [];
    let length = 0;
    while (length < seconds) {
      const w = 0.2 + 0.3 * r();
      const gap = 0.05 + 0.15 * r();
      const f = 90 + 60 * r();
      parts.push(word(w, [f, f * 1.2], [500 + 800 * r(), 900 + 900 * r()], seed + parts.length, 0.03));
      parts.push(noise(gap, 0.001, seed + parts.length));
      length += w + gap;
    }
    return concat(...parts).subarray(0, Math.round(seconds * 16000));
  };
  /** `under` with each of `words` (at its start time, in seconds) added over it. */
  const withWords = (under: Float32Array, words: [number, Float32Array][]): Float32Array => {
    const out = Float32Array.from(under);
    for (const [at, w] of words) {
      const from = Math.round(at * 16000);
      for (let i = 0; i < w.length && from + i < out.length; i++)
        out[from + i] = (out[from + i] as number) + (w[i] as number);
    }
    return out;
  };
  const userWord = (seed: number): Float32Array => word(0.6, [120, 150], [600, 1400], seed);
  const eventsOf = (x: Float32Array, options: EndpointerOptions) => {
    const ep = new Endpointer(options);
    const events = energies(x).flatMap((v) => [...ep.process(v)]);
    const last = ep.flush();
    return { ep, events: last === undefined ? events : [...events, last] };
  };
  /** Each utterance's end and when it was heard, in seconds. */
  const endsOf = (x: Float32Array, options: EndpointerOptions) => {
    const ep = new Endpointer(options);
    const ends: { segment: Segment; at: number }[] = [];
    energies(x).forEach((v, t) => {
      for (const e of ep.process(v)) if (e.type === 'end') ends.push({ segment: e, at: seconds(t) });
    });
    return { ep, ends };
  };
  const near = (segments: Segment[], starts: number[]): void => {
    expect(segments).toHaveLength(starts.length);
    segments.forEach((s, i) => {
      expect(Math.abs(seconds(s.startFrame) - (starts[i] as number))).toBeLessThan(0.15);
      expect(Math.abs(seconds(s.endFrame) - ((starts[i] as number) + 0.6))).toBeLessThan(0.15);
    });
  };

  it("opens on the person's voice over a talking room, where its level alone does not", () => {
    // The room talks from the start; the person's word rises only 6 dB over its words.
    const at = 8;
    const x = withWords(talkingRoom(12), [[at, word(0.6, [120, 150], [600, 1400], 3, 0.06)]]);
    const inWord = (t: number): boolean => seconds(t) >= at && seconds(t) < at + 0.6;
    const opened = (voice: (t: number) => number | undefined): boolean => {
      const ep = new Endpointer({ busyAfter: 4 });
      const starts = energies(x).flatMap((v, t) =>
        [...ep.process(v, voice(t))].filter((e) => e.type === 'start'),
      );
      return starts.some((e) => Math.abs(seconds(e.startFrame) - at) < 0.2);
    };
    expect(opened(() => undefined)).toBe(false);
    // Every frame as unlike the person's voice as another person's is: nothing opens either.
    expect(opened(() => 2)).toBe(false);
    expect(opened((t) => (inWord(t) ? 1 : 2))).toBe(true);
  });

  it('takes an utterance that outlasts busyAfter for the room and hears the user over it', () => {
    const starts = [3, 9, 14, 17];
    const x = withWords(
      talkingRoom(20),
      starts.map((s, i) => [s, userWord(i + 1)]),
    );
    // The quietest moment is under the room's words, so the room passes for speech.
    expect(findSegments(energies(x)).some((s) => s.endFrame - s.startFrame > 500)).toBe(true);
    const { ep, events } = eventsOf(x, { busyAfter: 4 });
    // The first word was said within the withdrawn utterance and is found again in it.
    expect(events.filter((e) => e.type === 'cancel')).toHaveLength(1);
    near(findSegments(energies(x), { busyAfter: 4 }), starts);
    expect(ep.roomLevel).toBeGreaterThan(-40);
  });

  it('hears a phrase again when the room kept its utterance open around it', () => {
    // The room talks for 3.5 s only, too short to be withdrawn; its quiet ends give it away.
    const x = concat(noise(3), withWords(talkingRoom(3.5), [[1.2, userWord(1)]]), noise(2, 0.001, 5));
    expect(findSegments(energies(x))[0]?.startFrame).toBeLessThan(310);
    near(findSegments(energies(x), { busyAfter: 10 }), [4.2]);
  });

  it('hears a phrase again within the first noise window when the room talked before it', () => {
    // Until a noise window has passed, the floor is a guess and an utterance may open on the
    // room's sound. A second of talk around the phrase, half a second or more of it before,
    // is the room there as later on.
    const second = concat(noise(1), withWords(talkingRoom(1.8), [[0.6, userWord(1)]]), noise(2, 0.001, 5));
    expect(findSegments(energies(second))[0]?.startFrame).toBeLessThan(110);
    near(findSegments(energies(second), { busyAfter: 10 }), [1.6]);
    const later = concat(noise(3), withWords(talkingRoom(1.8), [[0.6, userWord(1)]]), noise(2, 0.001, 5));
    near(findSegments(energies(later), { busyAfter: 10 }), [3.6]);
    // Press to talk: the room talks when the stream begins and around the phrase.
    const press = concat(withWords(talkingRoom(4), [[1.2, userWord(1)]]), noise(2, 0.001, 5));
    expect(findSegments(energies(press))[0]?.startFrame).toBe(0);
    near(findSegments(energies(press), { busyAfter: 10 }), [1.2]);
  });

  it("keeps a phrase's soft last word when only a steady room sound came before it", () => {
    // A take in a room louder than the prior floor, behind a microphone's first zeros: the
    // room's steady sound opens the utterance, and the phrase ends on a word 15 dB under
    // its first. Quiet ends, but nothing before the phrase talked: its soft word is kept,
    // and of the steady sound before it no more than its onset's share.
    const soft = word(0.6, [110, 140], [500, 1200], 3, 0.05);
    const x = concat(new Float32Array(480), noise(0.7, 0.01), userWord(1), soft, noise(1.5, 0.01, 5));
    const { events } = eventsOf(x, { busyAfter: 10 });
    expect(events.map((e) => e.type)).toEqual(['start', 'cancel', 'start', 'end']);
    const phrase = events[3] as Segment;
    expect(seconds(phrase.startFrame)).toBeGreaterThan(0.73 - 0.35);
    expect(seconds(phrase.endFrame)).toBeGreaterThan(1.9);
  });

  it('leaves out a fan heard from the start of a press before a short word', () => {
    // Press to talk with a fan on, a second before a word of 0.6 s: the fan opens the
    // utterance over the prior floor, and the word's utterance starts with the word.
    const x = concat(noise(1, 0.01), userWord(1), noise(2, 0.01, 5));
    expect(findSegments(energies(x))[0]?.startFrame).toBe(0);
    const [phrase, ...more] = findSegments(energies(x), { busyAfter: 10 });
    expect(more).toHaveLength(0);
    expect(seconds(phrase?.startFrame ?? 0)).toBeGreaterThan(1 - 0.35);
    expect(Math.abs(seconds(phrase?.endFrame ?? 0) - 1.6)).toBeLessThan(0.15);
  });

  it("starts a press from a steady room's floor heard before, which then opens nothing", () => {
    // A press to talk beside a fan louder than the prior guess, a second before a word.
    const fan = (seconds: number, seed: number) => noise(seconds, 0.01, seed);
    const before = new Endpointer({ busyAfter: 10 });
    for (const v of energies(fan(3, 6))) before.process(v);
    const steadyRoomFloor = before.noiseLevel;
    expect(new Endpointer({ busyAfter: 10, steadyRoomFloor }).floorKnown).toBe(true);
    const x = concat(fan(1, 5), userWord(1), fan(1, 7));
    const { events } = eventsOf(x, { busyAfter: 10, steadyRoomFloor });
    expect(events.map((e) => e.type)).toEqual(['start', 'end']);
    expect(Math.abs(seconds(events[0]?.startFrame ?? 0) - 1)).toBeLessThan(0.15);
    // From the guess, the fan opens an utterance at once, to be withdrawn at 2 s.
    const guessed = eventsOf(x, { busyAfter: 10 }).events;
    expect(guessed[0]).toEqual({ type: 'start', startFrame: 0 });
    expect(guessed[1]?.type).toBe('cancel');
  });

  it('keeps a short word whose vowel alone rises over the talking room, and not a click', () => {
    // "six" through a telephone channel: its s and ks carry little under 4 kHz, so over a
    // room's loud end only its vowel of a tenth of a second counts as speech.
    const six = concat(noise(0.1, 0.004, 3), word(0.1, [120, 140], [500, 900], 2), noise(0.1, 0.004, 4));
    const click = word(0.04, [120, 140], [500, 900], 5);
    const x = withWords(talkingRoom(14), [
      [6, six],
      [10, click],
    ]);
    const found = findSegments(energies(x), { busyAfter: 4 });
    expect(found.filter((s) => Math.abs(seconds(s.startFrame) - 6.1) < 0.2)).toHaveLength(1);
    expect(found.filter((s) => Math.abs(seconds(s.startFrame) - 10) < 0.2)).toHaveLength(0);
  });

  it("takes a press's utterance the room opened and holds open for the room sooner", () => {
    // A press begun as the room talks, the person's word only 6 dB over the room's words:
    // no quiet ends give the room away, and the press is over before `busyAfter`.
    const press = withWords(talkingRoom(4.5), [[1.2, word(0.6, [120, 150], [600, 1400], 3, 0.06)]]);
    const held = eventsOf(press, { busyAfter: 10 });
    expect(held.events.map((e) => e.type)).toEqual(['start', 'end']);
    expect(held.ep.roomTalks).toBe(false);
    // Withdrawn at `busyOverPriorAfter`: the room is learnt, for this press and the next.
    const { ep, events } = eventsOf(press, { busyAfter: 10, busyOverPriorAfter: 3 });
    expect(events[0]).toEqual({ type: 'start', startFrame: 0 });
    expect(events[1]?.type).toBe('cancel');
    expect(ep.roomTalks).toBe(true);
    expect(ep.roomTalk).toBeDefined();
    // Opened once the floor is known, the room's utterance waits for `busyAfter` as before.
    const later = concat(noise(3), talkingRoom(4.5));
    const after = eventsOf(later, { busyAfter: 10, busyOverPriorAfter: 3 });
    expect(after.events.map((e) => e.type)).toEqual(['start', 'end']);
    expect(after.ep.roomTalks).toBe(false);
  });

  it('tells a talking room from a steady one whose level it heard before a press', () => {
    // Where each utterance ends: is the room known, and does it talk?
    const atEnds = (x: Float32Array): { level: number | undefined; talks: boolean }[] => {
      const ep = new Endpointer({ busyAfter: 10 });
      const seen: { level: number | undefined; talks: boolean }[] = [];
      for (const v of energies(x))
        for (const e of ep.process(v))
          if (e.type === 'end') seen.push({ level: ep.roomLevel, talks: ep.roomTalks });
      return seen;
    };
    const press = concat(withWords(talkingRoom(4), [[1.2, userWord(1)]]), noise(2, 0.001, 5));
    expect(atEnds(press)[0]?.talks).toBe(true);
    // A fan from the press's start: its level is known (the word's utterance starts after
    // it), but it is no room talking.
    const [fan] = atEnds(concat(noise(1, 0.01), userWord(1), noise(2, 0.01, 5)));
    expect(fan?.level).toBeDefined();
    expect(fan?.talks).toBe(false);
    expect(atEnds(concat(noise(1), userWord(1), noise(1)))).toEqual([{ level: undefined, talks: false }]);
  });

  it("drops what opened over the prior floor once the room's own floor shows it was no speech", () => {
    // A room louder than the prior floor opens an utterance as the stream begins (a press
    // to talk, and the person takes 3 s to speak); once a noise window has passed the room
    // is the floor and that utterance is withdrawn, not ended as if someone had spoken.
    const x = concat(noise(3, 0.01), userWord(1), noise(2, 0.01, 5));
    expect(findSegments(energies(x))[0]?.startFrame).toBe(0);
    const { events } = eventsOf(x, { busyAfter: 10 });
    expect(events.map((e) => e.type)).toEqual(['start', 'cancel', 'start', 'end']);
    near(findSegments(energies(x), { busyAfter: 10 }), [3]);
    // Speech within the first window keeps its utterance (less the steady sound before it).
    const early = concat(noise(0.5, 0.01), userWord(1), noise(2, 0.01, 5));
    const [word1, ...more] = findSegments(energies(early), { busyAfter: 10 });
    expect(more).toHaveLength(0);
    expect(seconds(word1?.startFrame ?? 1)).toBeLessThan(0.5);
    expect(seconds(word1?.endFrame ?? 0)).toBeGreaterThan(1.1);
  });

  it("drops the steady room's utterance behind a microphone's first zeros too", () => {
    // A laptop's hiss some 55 dB under full scale, louder than the prior floor, after the
    // fifth of a second of zeros a microphone may send first. Counted by frames, the window
    // kept the prior where the zeros were: the hiss's utterance was not withdrawn at the first
    // known floor, and ended at 2.5 s as if someone had spoken.
    const hiss = (seconds: number) => noise(seconds, 0.003, 3);
    const x = concat(new Float32Array(3200), hiss(5));
    const { ep, events } = eventsOf(x, { busyAfter: 10 });
    expect(events).toEqual([
      { type: 'start', startFrame: expect.any(Number) as unknown },
      { type: 'cancel', startFrame: expect.any(Number) as unknown, steadyRoom: true },
    ]);
    expect(ep.floorKnown).toBe(true);
    // Known from the zeros' end on: a noise window of the hiss itself.
    const early = new Endpointer({ busyAfter: 10 });
    energies(concat(new Float32Array(3200), hiss(1.8))).forEach((v) => early.process(v));
    expect(early.floorKnown).toBe(false);
  });

  it('says a press shorter than a noise window heard the steady room alone, and keeps a word in one', () => {
    // The prior guess is all the floor there is when the press ends: what the hiss opened is
    // judged over the quietest sound the press heard, as the first known floor would.
    const hiss = (seconds: number, seed = 3) => noise(seconds, 0.003, seed);
    expect(eventsOf(hiss(1.2), { busyAfter: 10 }).events).toEqual([
      { type: 'start', startFrame: expect.any(Number) as unknown },
      { type: 'cancel', startFrame: expect.any(Number) as unknown, steadyRoom: true },
    ]);
    const said = eventsOf(concat(hiss(0.4), userWord(1), hiss(0.3, 5)), { busyAfter: 10 }).events;
    expect(said.map((e) => e.type)).toEqual(['start', 'end']);
    // Takes have no kept levels to judge again by: cut as they always were.
    expect(findSegments(energies(hiss(1.2)))).toHaveLength(1);
  });

  it.skipIf(!haveFsdd)('keeps a word a stream holds nothing but, whose level rises little', () => {
    // A recording cut close to its word, all of it within 8 dB: nothing in it rises 10 dB
    // over its quietest frame, but its level is no steady room's.
    const word = fsddRecording(0, 'theo', 6);
    expect(eventsOf(word, { busyAfter: 10 }).events.map((e) => e.type)).toEqual(['start', 'end']);
  });

  it("ends a phrase on a room no louder than it was alone, after a press's first seconds", () => {
    // A loud room (-45 dB) and a television 6-8 dB over it, which opens an utterance over the
    // prior floor but nothing over the room's own: withdrawn at 2 s. The person, soft (their
    // loud end under 10 dB over the television: no quiet ends), speaks at 3 s; the
    // television, no louder than it was alone, does not keep their phrase going.
    const r = seeded(11);
    const parts: Float32Array[] = [];
    for (let i = 0; i < 24; i++) {
      const f = 90 + 60 * r();
      parts.push(word(0.2 + 0.3 * r(), [f, f * 1.2], [500 + 800 * r(), 900 + 900 * r()], 11 + i, 0.015));
      parts.push(noise(0.05 + 0.15 * r(), 0.0001, 40 + i));
    }
    const television = concat(...parts);
    const room = noise(8, 0.01, 3).map((v, i) => v + (television[i] ?? 0));
    const x = withWords(room, [[3, word(0.6, [120, 150], [600, 1400], 1, 0.04)]]);
    const ep = new Endpointer({ busyAfter: 10 });
    const ends: { segment: Segment; at: number }[] = [];
    energies(x).forEach((v, t) => {
      for (const e of ep.process(v)) if (e.type === 'end') ends.push({ segment: e, at: seconds(t) });
    });
    expect(ends).toHaveLength(1);
    near([ends[0]?.segment as Segment], [3]);
    expect(ends[0]?.at).toBeLessThan(4.2);
  });

  it('hears a short phrase again after seconds of people talking nearly as loud as its soft word', () => {
    // Press to talk as people talk, 15 dB under the phrase's loud syllable and 8 dB under
    // its soft word: their talk is nine tenths of the utterance they open, so its 95th
    // percentile lies on the soft word, and their loudest syllables within 12 dB of that.
    const people = talkingRoom(3, 7).map((v) => v * 1.8);
    const loud = word(0.15, [120, 150], [600, 1400], 1);
    const soft = word(0.5, [110, 140], [500, 1200], 3, 0.13);
    const x = concat(people, loud, soft, noise(2, 0.001, 5));
    expect(findSegments(energies(x))[0]?.startFrame).toBe(0);
    const [phrase, ...more] = findSegments(energies(x), { busyAfter: 10 });
    expect(more).toHaveLength(0);
    expect(Math.abs(seconds(phrase?.startFrame ?? 0) - 3)).toBeLessThan(0.15);
    expect(Math.abs(seconds(phrase?.endFrame ?? 0) - 3.65)).toBeLessThan(0.15);
  });

  it("keeps the soft sounds before a person's words out of the talking room's level", () => {
    // Each word after the first comes after 0.3 s of soft sounds 6 dB over the room's
    // loudest words: too soft to open an utterance over the room, they are the person's all
    // the same. Heard as the room, they lift its level, and the last word, 12 dB over the
    // room's words, no longer rises over it.
    const starts = [3, 6, 8, 10, 12, 14, 16];
    const last = starts.length - 1;
    const leadIn = (seed: number): Float32Array => word(0.3, [100, 120], [400, 900], seed, 0.06);
    const words = starts.map((s, i): [number, Float32Array] => [
      s,
      i === last ? word(0.6, [120, 150], [600, 1400], 9, 0.12) : userWord(i + 1),
    ]);
    const plain = withWords(talkingRoom(19), words);
    const led = withWords(
      plain,
      starts.slice(1).map((s, i) => [s - 0.3, leadIn(i + 20)]),
    );
    near(findSegments(energies(led), { busyAfter: 4 }), starts);
    const levelAt = (x: Float32Array): number => eventsOf(x, { busyAfter: 4 }).ep.roomLevel as number;
    expect(Math.abs(levelAt(led) - levelAt(plain))).toBeLessThan(1);
  });

  it('ends a phrase held open by a room too soft to talk, long before busyAfter', () => {
    // A murmur over a quiet room's noise from the word on: never a room that talks (its loud
    // end lies under 10 dB over the quietest frame), but every few tenths of a second a
    // syllable rises 6 dB over the floor, which would keep the word's utterance going until
    // busyAfter (10 s). Begun with the word, it is no part of what the room was before
    // (where it would raise what keeps an utterance going, 0092).
    const murmur = talkingRoom(16, 5).map((v) => v * 0.12);
    const x = withWords(noise(20.5, 0.002, 2), [
      [5, murmur],
      [5, userWord(1)],
    ]);
    const { ep, ends } = endsOf(x, { busyAfter: 10 });
    expect(ep.roomTalks).toBe(false);
    const [heard] = ends;
    near([heard?.segment as Segment], [5]);
    // Two seconds of the murmur after the word (which ends at 5.6 s), not ten.
    expect(heard?.at).toBeGreaterThan(7);
    expect(heard?.at).toBeLessThan(8);
  });

  /**
   * A fan that throbs: steady, but for 0.05 s of every 0.2 s it swells 8 dB over its
   * trough, as a fan heard through a telephone line swings 4-5 dB either side of its middle.
   * Its swells open nothing over the prior floor, as a room a stream starts in seldom does.
   */
  const throbbingFan = (seconds: number, seed: number): Float32Array => {
    const x = noise(seconds, 0.0008, seed);
    const swell = 10 ** (8 / 20);
    for (let i = 0; i < x.length; i++) if (i % 3200 < 800) x[i] = (x[i] as number) * swell;
    return x;
  };

  it("ends a word over a steady room's swing as soon as the word ends", () => {
    // The swells rise over the 6 dB over the floor that keeps an utterance going, and a
    // tenth of a second or more apart would keep the word's going for seconds.
    const x = withWords(throbbingFan(8, 3), [[3, userWord(1)]]);
    const { ep, ends } = endsOf(x, { busyAfter: 10 });
    expect(ep.roomTalks).toBe(false);
    const [heard, ...more] = ends;
    expect(more).toHaveLength(0);
    near([heard?.segment as Segment], [3]);
    // The end-point silence after the word (which ends at 3.6 s), not two seconds of fan.
    expect(heard?.at).toBeLessThan(4.1);
  });

  it("keeps a short vowel over a steady room's swing, and not a click", () => {
    // Over the swing only a word's loudest sound counts, as over a talking room.
    const vowel = word(0.08, [120, 150], [600, 1400], 1);
    const click = word(0.04, [120, 150], [600, 1400], 2);
    const x = withWords(throbbingFan(8, 4), [
      [3, vowel],
      [5.5, click],
    ]);
    const { ends } = endsOf(x, { busyAfter: 10 });
    expect(ends).toHaveLength(1);
    expect(Math.abs(seconds(ends[0]?.segment.startFrame ?? 0) - 3)).toBeLessThan(0.15);
  });

  it('does not keep a phrase waiting for busyAfter while the room goes on talking after it', () => {
    // The room starts 1.2 s before the phrase and talks on for 12 s after it.
    const x = concat(noise(3), withWords(talkingRoom(14), [[1.2, userWord(1)]]));
    const ep = new Endpointer({ busyAfter: 10 });
    let heardAt: number | undefined;
    energies(x).forEach((v, t) => {
      for (const e of ep.process(v))
        if (e.type === 'end' && Math.abs(seconds(e.startFrame) - 4.2) < 0.15) heardAt ??= seconds(t);
    });
    // Its end-point comes once two seconds of the room are around it, not ten.
    expect(heardAt).toBeGreaterThan(4.8);
    expect(heardAt).toBeLessThan(7);
  });

  it("keeps a word the person's voice opened over a room handed on, at the first noise window", () => {
    // A press that starts from a talking room handed on (docs/decisions/0089, 0095), the
    // person's word only 6 dB over the room's words and opened by their voice (0094), open
    // at 2 s, where the first noise window's check looks at it (0077).
    const last = new Endpointer({ busyAfter: 4 });
    for (const v of energies(talkingRoom(8, 3))) last.process(v);
    const talkingRoomOption = last.roomTalk;
    expect(talkingRoomOption).toBeDefined();
    const at = 1.7;
    const press = withWords(talkingRoom(4, 7), [[at, word(0.6, [120, 150], [600, 1400], 3, 0.06)]]);
    const inWord = (t: number): boolean => seconds(t) >= at && seconds(t) < at + 0.6;
    const ep = new Endpointer({ busyAfter: 10, talkingRoom: talkingRoomOption });
    const events = energies(press).flatMap((v, t) => [...ep.process(v, inWord(t) ? 1 : 2)]);
    const [start, ...rest] = events;
    expect(start?.type).toBe('start');
    expect(Math.abs(seconds(start?.startFrame ?? 0) - at)).toBeLessThan(0.15);
    // Not cancelled as the prior floor's guess: it ends with the word.
    expect(rest.map((e) => e.type)).toEqual(['end']);
    expect(Math.abs(seconds((rest[0] as Segment).endFrame) - (at + 0.6))).toBeLessThan(0.2);
  });

  it('starts a press from the talking room the last one heard, and answers it promptly', () => {
    // People talking 12 dB under the person's word, from before the press to after it: the
    // press alone opens an utterance on them and, their loudest syllables within 12 dB of
    // the word, holds it open long after the word.
    const people = (seconds: number, seed: number) => talkingRoom(seconds, seed).map((v) => v * 2.5);
    const last = new Endpointer({ busyAfter: 4 });
    for (const v of energies(withWords(people(8, 3), [[3, userWord(2)]]))) last.process(v);
    const talk = last.roomTalk;
    expect(talk).toBeDefined();
    const press = withWords(people(7, 7), [[1.2, userWord(1)]]);
    const [alone] = endsOf(press, { busyAfter: 5 }).ends;
    const [started, ...more] = endsOf(press, { busyAfter: 5, talkingRoom: talk }).ends;
    expect(more).toHaveLength(0);
    near([started?.segment as Segment], [1.2]);
    // The word ends at 1.8 s: answered at its end-point silence, not 1.7 s after it.
    expect(started?.at).toBeLessThan(2.2);
    expect(alone?.at).toBeGreaterThan(3.3);
    // The room still talks as the press begins: the room handed on stands up to the word.
    const stillTalking = new Endpointer({ busyAfter: 5, talkingRoom: talk });
    for (const v of energies(press).slice(0, 115)) stillTalking.process(v);
    expect(stillTalking.roomLevel).toBeDefined();
    // A press after the room has gone quiet drops the room handed on once it has heard a
    // second of its own (docs/decisions/0095), and then hears a word as a press in a quiet
    // room does.
    const quiet = concat(noise(1.5), userWord(1), noise(2, 0.001, 5));
    const [own] = endsOf(quiet, { busyAfter: 5 }).ends;
    const [recalled, ...others] = endsOf(quiet, { busyAfter: 5, talkingRoom: talk }).ends;
    expect(others).toHaveLength(0);
    expect(recalled).toEqual(own);
    const dropped = new Endpointer({ busyAfter: 5, talkingRoom: talk });
    const levels = energies(quiet);
    const heardAt = levels.findIndex((v) => (dropped.process(v), dropped.roomLevel === undefined));
    expect(seconds(heardAt)).toBeGreaterThan(1);
    expect(seconds(heardAt)).toBeLessThan(1.4);
    // Nor does a press that heard too little of the room alone: its quiet is handed on with
    // the room, and the next press drops it sooner.
    const short = concat(noise(0.9), userWord(1), noise(0.4, 0.001, 5));
    const first = new Endpointer({ busyAfter: 5, talkingRoom: talk });
    for (const v of energies(short)) first.process(v);
    expect(first.roomLevel).toBeDefined();
    const next = new Endpointer({ busyAfter: 5, talkingRoom: first.roomTalk });
    const nextAt = levels.findIndex((v) => (next.process(v), next.roomLevel === undefined));
    expect(seconds(nextAt)).toBeLessThan(seconds(heardAt) - 0.3);
    // Nothing is handed on from a quiet room, nor from a fan.
    const calm = new Endpointer({ busyAfter: 4 });
    for (const v of energies(quiet)) calm.process(v);
    expect(calm.roomTalk).toBeUndefined();
    const fan = new Endpointer({ busyAfter: 4 });
    const atEnd: { level: number | undefined; talk: unknown }[] = [];
    for (const v of energies(concat(noise(1, 0.01), userWord(1), noise(2, 0.01, 5))))
      if (fan.process(v).some((e) => e.type === 'end'))
        atEnd.push({ level: fan.roomLevel, talk: fan.roomTalk });
    expect(atEnd).toHaveLength(1);
    expect(atEnd[0]?.level).toBeDefined();
    expect(atEnd[0]?.talk).toBeUndefined();
  });

  it('changes nothing in a quiet room', () => {
    const soft = word(0.5, [110, 140], [500, 1200], 3, 0.03);
    const x = concat(
      noise(1),
      userWord(1),
      noise(0.5, 0.001, 2),
      soft,
      noise(1, 0.001, 3),
      userWord(2),
      noise(8, 0.001, 4),
    );
    const plain = findSegments(energies(x));
    expect(plain).toHaveLength(3);
    const { ep, events } = eventsOf(x, { busyAfter: 4 });
    expect(events.filter((e) => e.type === 'end')).toEqual(plain.map((s) => ({ type: 'end', ...s })));
    expect(ep.roomLevel).toBeUndefined();
  });

  it('hears soft speech again once the room has stopped talking', () => {
    const soft = word(0.6, [110, 140], [500, 1200], 3, 0.02);
    const x = concat(
      withWords(talkingRoom(8), [[3, userWord(1)]]),
      noise(4, 0.001, 6),
      soft,
      noise(1, 0.001, 7),
    );
    const ep = new Endpointer({ busyAfter: 4 });
    const levels = energies(x);
    const ends: Segment[] = [];
    let roomAt7: number | undefined;
    levels.forEach((v, t) => {
      for (const e of ep.process(v)) if (e.type === 'end') ends.push(e);
      if (t === 700) roomAt7 = ep.roomLevel;
    });
    // The soft word is 10 dB under the room's loud end: heard only once the room is quiet.
    expect(roomAt7).toBeDefined();
    expect(ep.roomLevel).toBeUndefined();
    near(ends, [3, 12]);
  });

  it('keeps a talking room through a muted stretch: digital silence is no sign that it stopped', () => {
    // The app mutes the microphone while it speaks a result aloud: two seconds of zeros.
    const x = concat(
      withWords(talkingRoom(6), [[3, userWord(1)]]),
      new Float32Array(2 * 16000),
      withWords(talkingRoom(4, 12), [[1, userWord(2)]]),
    );
    const ep = new Endpointer({ busyAfter: 4 });
    const ends: Segment[] = [];
    const roomWhileMuted: (number | undefined)[] = [];
    energies(x).forEach((v, t) => {
      for (const e of ep.process(v)) if (e.type === 'end') ends.push(e);
      // Frames wholly inside the zeros (a frame spans 25 ms, every 10 ms).
      if (t >= 603 && t < 797) roomWhileMuted.push(ep.roomLevel);
    });
    expect(roomWhileMuted[0]).toBeDefined();
    expect(new Set(roomWhileMuted).size).toBe(1);
    near(ends, [3, 9]);
  });

  it('is deaf to nobody for long: after a user talks on past busyAfter, a pause brings them back', () => {
    const talking = concat(...Array.from({ length: 10 }, (_, i) => userWord(i + 1)));
    const x = concat(noise(1), talking, noise(3.5, 0.001, 8), userWord(20), noise(1, 0.001, 9));
    const ends = findSegments(energies(x), { busyAfter: 4 });
    // The long talk is withdrawn as the room; the word after the pause is heard.
    near(ends.slice(-1), [10.5]);
  });
});

describe('riseOf', () => {
  it("measures how far an utterance's loud frames rise over its quietest, leaving digital silence out", () => {
    const levels = [-60, -62, -30, -25, -24, -26, -61];
    expect(riseOf(levels)).toBe(loudLevelOf(levels) + 62);
    expect(riseOf([-200, ...levels, -120])).toBe(riseOf(levels));
    expect(riseOf([-200, -120])).toBeUndefined();
    expect(riseOf([])).toBeUndefined();
  });

  it('reads a phrase over a louder room as rising less', () => {
    const phrase = word(0.6, [120, 150], [600, 1400]);
    const quiet = energies(concat(noise(0.3, 0.001), phrase, noise(0.3, 0.001)));
    const loud = energies(concat(noise(0.3, 0.02), phrase, noise(0.3, 0.02)));
    expect((riseOf(quiet) ?? 0) - (riseOf(loud) ?? 0)).toBeGreaterThan(20);
  });
});
