import { describe, expect, it, vi } from 'vitest';
import { trainProfile } from '../model/train.js';
import { concat, noise, seeded, withNoise, word } from '../test/signals.js';
import { take } from '../test/phrases.js';
import { CHUNK_SAMPLES, SAMPLE_RATE } from '../units.js';
import { Matcher } from './matcher.js';
import { ListeningRoom } from '../vad/room-noise.js';
import { busyOverPriorAfter, RecognitionStream, type StreamEvent } from './streaming.js';

const names = ['lights on', 'lights off', 'I am thirsty', 'goodbye'];
const profile = trainProfile(names.flatMap((text, p) => [0, 1, 2].map((t) => ({ text, audio: take(p, t) }))));
const matcher = new Matcher(profile);

function feed(stream: RecognitionStream, audio: Float32Array, chunk = CHUNK_SAMPLES): StreamEvent[] {
  const events: StreamEvent[] = [];
  for (let i = 0; i < audio.length; i += chunk) events.push(...stream.push(audio.subarray(i, i + chunk)));
  events.push(...stream.end());
  return events;
}

describe('RecognitionStream', () => {
  it('emits speech start, then a final at the end-point', () => {
    const events = feed(new RecognitionStream(matcher), take(2, 6));
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('speech-start');
    expect(types.filter((t) => t === 'final')).toHaveLength(1);
    const final = events.find((e) => e.type === 'final');
    expect(final?.type === 'final' && final.text).toBe('I am thirsty');
    expect(final?.type === 'final' && final.alternatives.length).toBeGreaterThan(0);
  });

  it('emits partial hypotheses during long speech', () => {
    const slow = take(2, 7, { tempo: 3 });
    const events = feed(new RecognitionStream(matcher, { partialInterval: 0.2 }), slow);
    expect(events.some((e) => e.type === 'partial')).toBe(true);
  });

  it('gives one result per utterance when dictating several in one stream', () => {
    const audio = concat(take(0, 5), noise(0.5, 0.001, 11), take(3, 5), take(1, 5));
    const finals = feed(new RecognitionStream(matcher), audio).filter((e) => e.type === 'final');
    expect(finals.map((f) => f.text)).toEqual(['lights on', 'goodbye', 'lights off']);
    expect(finals[1]?.start).toBeGreaterThan(finals[0]?.end ?? Infinity);
  });

  it('allows for a room louder than the takes were recorded in (docs/decisions/0085)', () => {
    const { loudRoom: _, ...calibration } = profile.calibration;
    const unallowing = new Matcher({ ...profile, calibration });
    const confidenceOf = (m: Matcher, audio: Float32Array): number => {
      const final = feed(new RecognitionStream(m), audio).find((e) => e.type === 'final');
      return final?.type === 'final' ? final.confidence : NaN;
    };
    // The stream has heard the room for two seconds before the phrase.
    const quiet = concat(noise(2, 0.001, 3), take(2, 6));
    // A room about 25 dB louder than the takes' (a fan, a television) all through the stream.
    const room = noise(quiet.length / SAMPLE_RATE, 0.02, 5);
    const loud = Float32Array.from(quiet, (x, i) => x + (room[i] as number));
    expect(confidenceOf(matcher, quiet)).toBe(confidenceOf(unallowing, quiet));
    expect(confidenceOf(matcher, loud)).toBeGreaterThan(confidenceOf(unallowing, loud));
  });

  it('does not depend on the chunk size', () => {
    const audio = take(1, 8);
    const a = feed(new RecognitionStream(matcher), audio, 3200).filter((e) => e.type === 'final');
    const b = feed(new RecognitionStream(matcher), audio, 1000).filter((e) => e.type === 'final');
    expect(b).toEqual(a);
  });

  describe('a phrase cut in two by a hesitation longer than the end-point silence', () => {
    const finalsOf = (hesitation: number, options = {}, chunk = CHUNK_SAMPLES) =>
      feed(
        new RecognitionStream(matcher, options),
        take(2, 6, { hesitation: { afterWord: 1, seconds: hesitation } }),
        chunk,
      ).filter((e) => e.type === 'final');

    it('is recognised whole, in one final, once the second half follows', () => {
      // The default window is twice the end-point silence (0.3 s). 0.78 s of silence leaves
      // 0.59 s between the padded halves, and the second half's onset shows only 0.13 s
      // after its start: fed a frame at a time, the wait must allow for that. 1.3 s in a
      // 1.5 s window: frames before it would have been let go.
      for (const [hesitation, options, chunk] of [
        [0.5, {}, CHUNK_SAMPLES],
        [0.78, {}, 160],
        [1.3, { joinWithin: 1.5 }, CHUNK_SAMPLES],
      ] as const) {
        const finals = finalsOf(hesitation, options, chunk);
        expect(finals.map((f) => f.text)).toEqual(['I am thirsty']);
        expect(finals[0]?.start).toBeLessThan(0.45);
      }
    });

    it('holds the first half back until the join window has passed', () => {
      // The default window is twice the end-point silence (0.3 s): 1.3 s is past it.
      const stream = new RecognitionStream(matcher);
      const audio = take(2, 6, { hesitation: { afterWord: 1, seconds: 1.3 } });
      const emitted: { at: number; final: StreamEvent }[] = [];
      for (let i = 0; i < audio.length; i += CHUNK_SAMPLES)
        for (const e of stream.push(audio.subarray(i, i + CHUNK_SAMPLES)))
          if (e.type === 'final') emitted.push({ at: (i + CHUNK_SAMPLES) / 16000, final: e });
      const [first] = emitted;
      expect(first?.final.type === 'final' && first.final.text).toBeNull();
      const end = first?.final.type === 'final' ? first.final.end : Infinity;
      expect(first?.at ?? 0).toBeGreaterThan(end + 0.6);
    });

    it('stays whole when the profile learnt such hesitations from its takes', () => {
      const hesitant = { hesitation: { afterWord: 1, seconds: 0.6 } };
      const takes = names.flatMap((text, p) =>
        [0, 1, 2].map((t) => ({ text, audio: take(p, t, p === 2 ? hesitant : {}) })),
      );
      const patient = new Matcher(trainProfile(takes));
      expect(patient.profile.minSilence).toBeGreaterThan(0.6);
      const finals = feed(new RecognitionStream(patient, { joinWithin: 0 }), take(2, 6, hesitant)).filter(
        (e) => e.type === 'final',
      );
      expect(finals.map((f) => f.text)).toEqual(['I am thirsty']);
    });

    it('is judged half by half when joining is off or the pause is too long', () => {
      for (const finals of [finalsOf(0.5, { joinWithin: 0 }), finalsOf(1.3)]) {
        expect(finals.map((f) => f.text)).toEqual([null, null]);
        expect(finals[1]?.start).toBeGreaterThan(finals[0]?.end ?? Infinity);
      }
    });
  });

  it('stays silent on silence', () => {
    expect(feed(new RecognitionStream(matcher), noise(3))).toEqual([]);
  });

  it("says a short first press in a laptop's hiss heard nothing, and shows no guess meanwhile", () => {
    // Some 55 dB under full scale, louder than the floor a first stream guesses: it opens an
    // utterance at once, which the press ends before the room's floor is known.
    const hiss = (seconds: number, seed = 3) => noise(seconds, 0.003, seed);
    const events = feed(new RecognitionStream(matcher, { partialInterval: 0.2 }), hiss(1.6));
    expect(events.map((e) => e.type)).toEqual(['speech-start', 'speech-cancelled']);
    expect(events[1]).toMatchObject({ steadyRoom: true });
    // A phrase said in that hiss is heard, its guesses shown on the way.
    const said = feed(
      new RecognitionStream(matcher, { partialInterval: 0.2 }),
      concat(hiss(0.3), withNoise(take(2, 7, { tempo: 2 }), 0.003, 4), hiss(0.5, 5)),
    );
    expect(said.some((e) => e.type === 'partial')).toBe(true);
    expect(said.find((e) => e.type === 'final')).toMatchObject({ text: 'I am thirsty' });
  });

  /**
   * Another voice word after word, as a television talks, for `seconds` (quiet after that),
   * `level` times the user's (0.1: 20 dB under), and the user's phrases `said` over it at
   * the seconds given.
   */
  function talkingRoom(level: number, said: [number, number][], seconds = 17): Float32Array {
    const r = seeded(5);
    const talk = concat(
      ...Array.from({ length: 60 }, (_, i) => {
        const f = 90 + 60 * r();
        return concat(
          word(0.2 + 0.3 * r(), [f, 1.2 * f], [500 + 800 * r(), 900 + 900 * r()], i, 0.3 * level),
          noise(0.1, 0.001, i),
        );
      }),
    );
    const audio = concat(talk.subarray(0, seconds * 16000), noise(17 - Math.min(17, seconds), 0.001, 3));
    for (const [at, p] of said) {
      const mine = take(p, 8);
      for (let i = 0; i < mine.length; i++)
        audio[at * 16000 + i] = (audio[at * 16000 + i] as number) + (mine[i] as number);
    }
    return audio;
  }

  it('understands phrases said over a room that never stops talking (docs/decisions/0075)', () => {
    const said: [number, number][] = [
      [2, 2],
      [9, 0],
      [13, 3],
    ];
    const audio = talkingRoom(0.1, said);
    const understood = (events: StreamEvent[]) =>
      events.filter((e) => e.type === 'final' && !e.rejected).map((e) => e.type === 'final' && e.text);
    // Heard against the quietest moment alone, the room holds the utterances open.
    expect(
      understood(feed(new RecognitionStream(matcher, { endpointer: { busyAfter: undefined } }), audio)),
    ).not.toEqual(said.map(([, p]) => names[p]));
    const events = feed(new RecognitionStream(matcher), audio);
    expect(understood(events)).toEqual(said.map(([, p]) => names[p]));
    // Each says it was heard over other voices, which the generic path does not doubt (0107);
    // the same phrase in a quiet room does not.
    const finals = events.flatMap((e) => (e.type === 'final' ? [e] : []));
    expect(finals.map((f) => f.overVoices)).toEqual([true, true, true]);
    const quiet = feed(new RecognitionStream(matcher), take(2, 6)).find((e) => e.type === 'final');
    expect(quiet?.type === 'final' && 'overVoices' in quiet).toBe(false);
    // The first was said within the utterance the room opened, withdrawn and heard again.
    expect(events.some((e) => e.type === 'speech-cancelled')).toBe(true);
    const first = events.find((e) => e.type === 'final');
    expect(first?.type === 'final' && first.start).toBeGreaterThan(1.8);
    // 20 dB over the room the user is understood as usual: nothing says the room is too loud.
    expect(events.filter((e) => e.type === 'room-noise')).toEqual([]);
  });

  it('weighs what it hears by its rise over a talking room, not over a steady one (docs/decisions/0086)', () => {
    /** The same profile, matching every frame alike. */
    class Unweighing extends Matcher {
      override get weighsRoom(): boolean {
        return false;
      }
    }
    const unweighing = new Unweighing(profile);
    const finals = (m: Matcher, audio: Float32Array) =>
      feed(new RecognitionStream(m), audio).flatMap((e) => (e.type === 'final' ? [e] : []));
    // The room's words 20 dB under the user's: the frames where they show count less. They
    // may be the user's own soft sounds too ("lights off" ends on one), and here the
    // confidences go either way; speech:rooms measures what it gains with real voices.
    const talking = talkingRoom(0.1, [
      [2, 2],
      [9, 0],
      [13, 3],
    ]);
    const weighed = finals(matcher, talking);
    const plain = finals(unweighing, talking);
    expect(weighed.map((f) => f.text)).toEqual(['I am thirsty', 'lights on', 'goodbye']);
    expect(plain.map((f) => f.text)).toEqual(weighed.map((f) => f.text));
    weighed.forEach((f, i) => expect(f.confidence).not.toBe(plain[i]?.confidence));
    // A fan as loud as that room all through a press: its frames count as the user's.
    const quiet = concat(noise(2, 0.001, 3), take(2, 6));
    const fan = noise(quiet.length / SAMPLE_RATE, 0.02, 5);
    const steady = Float32Array.from(quiet, (x, i) => x + (fan[i] as number));
    expect(finals(matcher, steady)).toEqual(finals(unweighing, steady));
  });

  it('says when steady noise is nearly as loud as the user, and not when it is quiet (docs/decisions/0076)', () => {
    const over = (level: number) => {
      const audio = noise(17, level, 9);
      for (const [at, p] of [
        [3, 2],
        [8, 0],
        [13, 3],
      ] as const) {
        const mine = take(p, 8);
        for (let i = 0; i < mine.length; i++)
          audio[at * 16000 + i] = (audio[at * 16000 + i] as number) + (mine[i] as number);
      }
      return feed(new RecognitionStream(matcher), audio).filter((e) => e.type === 'room-noise');
    };
    // A fan's hiss about 13 dB under the user's loud level: said after their first phrase,
    // and taken back when the stream ends.
    const loud = over(0.1);
    expect(loud.map((e) => [e.tooLoud, e.cause])).toEqual([
      [true, 'noise'],
      [false, 'noise'],
    ]);
    expect(loud[0]?.marginDb).toBeLessThan(16);
    expect(loud[0]?.time).toBeLessThan(5);
    // Five times quieter: nothing to say.
    expect(over(0.02)).toEqual([]);
  });

  it('keeps its judgement of the room from one press to talk to the next (docs/decisions/0076)', () => {
    const room = new ListeningRoom();
    const press = (...parts: Float32Array[]) =>
      feed(new RecognitionStream(matcher, { room }), concat(...parts)).filter((e) => e.type === 'room-noise');
    const fan = (seconds: number) => noise(seconds, 0.1, 21);
    const over = (p: number) => withNoise(take(p, 8), 0.1, 21);
    // The first press hears the fan for 3 s before the phrase: too loud, and it stays so
    // when the press ends.
    expect(press(fan(3), over(2), fan(0.6)).map((e) => e.tooLoud)).toEqual([true]);
    expect(room.judge.tooLoud).toBe(true);
    // A press too short to know the room's floor (under the 2 s noise window) says nothing.
    const short = concat(fan(0.1), over(0));
    expect(short.length).toBeLessThan(1.8 * 16000);
    expect(press(short)).toEqual([]);
    expect(room.judge.tooLoud).toBe(true);
    // The fan is off: two clear phrases and the notice goes.
    const quiet = press(noise(2.5), take(3, 8), noise(0.8, 0.001, 3), take(1, 8), noise(0.6));
    expect(quiet.map((e) => e.tooLoud)).toEqual([false]);
    // A stream of its own forgets when it ends (the same first press, its own room).
    const alone = feed(new RecognitionStream(matcher), concat(fan(3), over(2), fan(0.6)));
    expect(alone.filter((e) => e.type === 'room-noise').map((e) => e.tooLoud)).toEqual([true, false]);
  });

  it("does not report what the room says far under the person's voice as theirs (docs/decisions/0078)", () => {
    // Another voice's word, not one of the person's phrases: at their level, and 20 dB under.
    const other = (level: number) => word(0.6, [95, 115], [1500, 700], 31, 0.3 * level);
    const results = (...parts: Float32Array[]) =>
      feed(new RecognitionStream(matcher), concat(...parts))
        .filter((e) => e.type === 'final' || e.type === 'speech-cancelled')
        .map((e) => (e.type === 'final' ? e.text : 'cancelled'));
    const gap = (seed: number) => noise(1.5, 0.001, seed);
    // After the person is understood, the room's quiet word is withdrawn, not rejected...
    expect(results(gap(1), take(2, 8), gap(2), other(0.1), gap(3))).toEqual(['I am thirsty', 'cancelled']);
    // ...a word at their own level is still theirs, and is said not to be understood...
    expect(results(gap(1), take(2, 8), gap(2), other(1), gap(3))).toEqual(['I am thirsty', null]);
    // ...one of the person's own phrases said 20 dB under them is the room's too, though it
    // is understood where there is no voice to compare with (docs/decisions/0084)...
    const quiet = take(3, 8).map((v) => v * 0.1);
    expect(results(gap(1), quiet, gap(3))[0]).toBe('goodbye');
    expect(results(gap(1), take(2, 8), gap(2), quiet, gap(3))).not.toContain('goodbye');
    expect(results(gap(1), take(2, 8), gap(2), take(3, 8), gap(3))).toEqual(['I am thirsty', 'goodbye']);
    // ...and before anything of theirs is understood there is no voice to compare with.
    expect(results(gap(1), other(0.1), gap(2), take(2, 8), gap(3))).toEqual([null, 'I am thirsty']);
    // A session's presses to talk share the voice: the next press knows it.
    const room = new ListeningRoom();
    feed(new RecognitionStream(matcher, { room }), concat(gap(1), take(2, 8), gap(2)));
    const next = feed(new RecognitionStream(matcher, { room }), concat(gap(1), other(0.1), gap(2)));
    expect(next.filter((e) => e.type === 'final')).toEqual([]);
  });

  it('hands a talking room on to the next press while the person is heard well over it (docs/decisions/0089)', () => {
    // One room 20 dB under the person and one 10 dB under, each with a first press of 8 s
    // ("I am thirsty" at 2 s, "lights on" at 5 s) and a second of 7 s ("goodbye" at 1.2 s).
    const said: [number, number][] = [
      [2, 2],
      [5, 0],
      [10.2, 3],
    ];
    const [clearRoom, loudRoom] = [talkingRoom(0.1, said), talkingRoom(0.3, said)];
    const seconds = (audio: Float32Array, from: number, to: number) =>
      audio.subarray(from * 16000, to * 16000);
    const session = (audio: Float32Array, heard = matcher) => {
      const room = new ListeningRoom();
      feed(new RecognitionStream(heard, { room }), seconds(audio, 0, 8));
      return room;
    };
    /** The second press: when its final came, in seconds of the press. */
    const answered = (room?: ListeningRoom) => {
      const stream = new RecognitionStream(matcher, room === undefined ? {} : { room });
      const audio = seconds(clearRoom, 9, 16);
      for (let i = 0; i < audio.length; i += CHUNK_SAMPLES)
        for (const e of stream.push(audio.subarray(i, i + CHUNK_SAMPLES)))
          if (e.type === 'final') return { text: e.text, at: (i + CHUNK_SAMPLES) / 16000 };
      return undefined;
    };
    // 20 dB under (the person's utterances 18 dB or more over it): the next press starts
    // from the room's level, and its phrase, over by 2.2 s, is answered sooner.
    const clear = session(clearRoom);
    expect(clear.judge.marginDb).toBeGreaterThanOrEqual(18);
    expect(clear.talk).toBeDefined();
    const [handedOn, alone] = [answered(clear), answered()];
    expect(handedOn?.text).toBe('goodbye');
    expect(alone?.text).toBe('goodbye');
    expect(handedOn?.at).toBeLessThan(alone?.at ?? 0);
    // A press that understood nothing hands nothing on, though the judgement stands: a voice
    // that no longer rises over the room's level would otherwise be unheard press after press.
    feed(new RecognitionStream(matcher, { room: clear }), seconds(clearRoom, 12, 16));
    expect(clear.judge.marginDb).toBeGreaterThanOrEqual(18);
    expect(clear.talk).toBeUndefined();
    // 10 dB under: the person's soft words would sink under the room's level; nothing is
    // handed on, unless they are heard by their voice there (a profile with a voice print,
    // docs/decisions/0094, 0095).
    const { voice: _, ...withoutVoice } = matcher.profile;
    const loud = session(loudRoom, new Matcher(withoutVoice));
    expect(loud.judge.tooLoud).toBe(true);
    expect(loud.talk).toBeUndefined();
    expect(matcher.profile.voice).toBeDefined();
    const byVoice = session(loudRoom);
    expect(byVoice.judge.tooLoud).toBe(true);
    expect(byVoice.talk).toBeDefined();
    // The room is switched off before the next press: a press drops the room handed on once
    // a second of the room it and the presses before it heard lies far under it, and the
    // notice goes (docs/decisions/0095). Quick presses in the quiet room, each answered.
    const quickPress = (seed: number) =>
      feed(
        new RecognitionStream(matcher, { room: byVoice }),
        concat(noise(0.6, 0.001, seed), take(3, 8), noise(0.5, 0.001, seed + 1)),
      );
    const presses = [41, 43, 45, 47, 49].map(quickPress);
    for (const press of presses)
      expect(press.filter((e) => e.type === 'final').map((e) => e.text)).toEqual(['goodbye']);
    const notices = presses.map((press) => press.filter((e) => e.type === 'room-noise'));
    // The first of them has heard enough by its end (without the drop: the third).
    const cleared = notices.findIndex((n) => n.length > 0);
    expect(cleared).toBe(0);
    expect(notices[cleared]?.map((e) => [e.tooLoud, e.cause])).toEqual([[false, 'noise']]);
    expect(byVoice.judge.tooLoud).toBe(false);
    expect(byVoice.talk).toBeUndefined();
  });

  it('learns a room that holds a press open from its start, before the press is over (docs/decisions/0097)', () => {
    // Presses of 5 s, the room talking from their first frame a little over 10 dB under the
    // person: no quiet ends around "goodbye" give it away, and `busyAfter` is never reached.
    const phraseAt = 1.2;
    const audio = talkingRoom(0.25, [[phraseAt, 3]]);
    const firstPress = audio.subarray(0, 5 * 16000);
    const roomAlone = audio.subarray(6 * 16000, 11 * 16000);
    const heard = (events: StreamEvent[]) =>
      events.flatMap((e) =>
        e.type === 'final' ? [e.text] : e.type === 'room-noise' ? [`too loud ${e.tooLoud}`] : [],
      );
    const presses = (options: { endpointer?: { busyOverPriorAfter?: number } }) => {
      const room = new ListeningRoom();
      const first = feed(new RecognitionStream(matcher, { room, ...options }), firstPress);
      const second = feed(new RecognitionStream(matcher, { room, ...options }), roomAlone);
      return { first, second, room };
    };
    expect(busyOverPriorAfter(profile)).toBeLessThan(5);
    // Held open to the press's end, the phrase is lost in it, and nothing is learnt.
    const held = presses({ endpointer: { busyOverPriorAfter: undefined } });
    expect(heard(held.first)).toEqual([null]);
    expect(held.room.talk).toBeUndefined();
    expect(heard(held.second)).toEqual([null]);
    // Withdrawn as the room's once it outlasts `busyOverPriorAfter`: the phrase is found
    // again within it, the person is told the room is too loud, and the next press starts
    // from the room's level, where the room's words open nothing.
    const learnt = presses({});
    expect(heard(learnt.first)).toEqual(['goodbye', 'too loud true']);
    const final = learnt.first.find((e) => e.type === 'final');
    expect(final?.type === 'final' && final.start).toBeGreaterThan(phraseAt);
    expect(learnt.room.talk).toBeDefined();
    expect(learnt.second.filter((e) => e.type === 'speech-start')).toEqual([]);
  });

  it("starts a press from the steady room's floor the last one heard, not from a talking room's (docs/decisions/0093)", () => {
    const fan = (seconds: number, seed: number, level = 0.002) => noise(seconds, level, seed);
    const over = (p: number, seed: number) => withNoise(take(p, 8), 0.002, seed);
    const room = new ListeningRoom();
    // A press that heard the fan for 2.5 s and then the phrase, nothing else: its floor is
    // the room's, and is handed on.
    feed(new RecognitionStream(matcher, { room }), concat(fan(2.5, 31), over(2, 32), fan(0.6, 33)));
    expect(room.floor).toBeDefined();
    expect(room.floor).toBeLessThan(-55);
    // A press too short to hear the room's floor itself (under 2 s) knows it from there: it
    // judges how far the phrase rose over the room, where one from the guess cannot.
    const short = concat(fan(0.15, 34), over(0, 35));
    expect(short.length).toBeLessThan(1.8 * 16000);
    const handedOn = new ListeningRoom();
    handedOn.left(undefined, room.floor);
    const guessed = new ListeningRoom();
    for (const r of [handedOn, guessed]) feed(new RecognitionStream(matcher, { room: r }), short);
    expect(handedOn.judge.marginDb).toBeGreaterThan(20);
    expect(guessed.judge.marginDb).toBeUndefined();
    // A fan louder than the guess opens an utterance at once, withdrawn at 2 s: the room
    // opened one of its own, and no floor is handed on; nor from a room of voices.
    const loudFan = new ListeningRoom();
    feed(
      new RecognitionStream(matcher, { room: loudFan }),
      concat(fan(2.5, 37, 0.01), take(2, 8), fan(0.6, 38, 0.01)),
    );
    expect(loudFan.floor).toBeUndefined();
    const voices = new ListeningRoom();
    feed(new RecognitionStream(matcher, { room: voices }), talkingRoom(0.1, [[5, 0]]).subarray(0, 8 * 16000));
    expect(voices.floor).toBeUndefined();
  });

  it("allows for a phrase heard in the person's voice only while the room is too loud to hear them over (docs/decisions/0096)", () => {
    const said: [number, number][] = [
      [3, 2],
      [8, 0],
      [13, 3],
    ];
    /** Whether each utterance decided was taken for heard in the person's voice over the room. */
    const byVoice = (audio: Float32Array, heard = matcher): boolean[] => {
      const spy = vi.spyOn(heard, 'recognise');
      feed(new RecognitionStream(heard), audio);
      const calls = spy.mock.calls.map((call) => call[3] ?? false);
      spy.mockRestore();
      return calls;
    };
    // 10 dB under the person: once the room is judged too loud, their phrases are.
    const loud = byVoice(talkingRoom(0.3, said));
    expect(loud[0]).toBe(false);
    expect(loud).toContain(true);
    // 20 dB under, or in a quiet room: never.
    expect(byVoice(talkingRoom(0.1, said))).not.toContain(true);
    expect(byVoice(concat(noise(2), take(2, 8), noise(2, 0.001, 4)))).not.toContain(true);
    // Nor for a profile without a voice print.
    const { voice: _, ...withoutVoice } = matcher.profile;
    expect(byVoice(talkingRoom(0.3, said), new Matcher(withoutVoice))).not.toContain(true);
  });

  it('says when the room talks too loud to hear the user over, and when it has stopped (docs/decisions/0076)', () => {
    // The room 10 dB under the user until 12 s, quiet after: the first phrase is not understood.
    const events = feed(
      new RecognitionStream(matcher),
      talkingRoom(
        0.3,
        [
          [3, 2],
          [8, 0],
          [13, 3],
        ],
        12,
      ),
    );
    const finals = events.filter((e) => e.type === 'final');
    expect(finals.map((e) => e.text)).toEqual([null, 'lights on', 'goodbye']);
    const notices = events.filter((e) => e.type === 'room-noise');
    expect(notices.map((e) => [e.tooLoud, e.cause])).toEqual([
      [true, 'voices'],
      [false, 'noise'],
    ]);
    const [on, off] = notices;
    expect(on?.marginDb).toBeLessThan(16);
    expect(on?.time).toBeLessThan(12);
    expect(off?.time).toBeGreaterThan(12);
    expect(off?.marginDb).toBeUndefined();
    // A stream that ends while the room is too loud says the notice no longer holds.
    const cut = feed(new RecognitionStream(matcher), talkingRoom(0.3, [[3, 2]]).subarray(0, 8 * 16000));
    expect(cut.filter((e) => e.type === 'room-noise').map((e) => e.tooLoud)).toEqual([true, false]);
    expect(cut.at(-1)?.type).toBe('room-noise');
  });

  it('still says the room talks too loud after the app spoke a result with the microphone muted', () => {
    // Speak mode sends zeros while the app says "lights on" aloud: the room has not changed.
    const said: [number, number][] = [
      [3, 2],
      [8, 0],
      [13, 3],
    ];
    const muted = talkingRoom(0.3, said, 17);
    muted.fill(0, 9.3 * 16000, 11.8 * 16000);
    const events = feed(new RecognitionStream(matcher), muted);
    // The room coming back after the zeros opens nothing (it did, as if it had only now begun
    // talking); the last rejection is its talk as the stream ends, as without the zeros.
    const finals = events.filter((e) => e.type === 'final');
    expect(finals.map((e) => e.text)).toEqual([null, 'lights on', 'goodbye', null]);
    // The notice stands until the stream ends.
    expect(events.filter((e) => e.type === 'room-noise').map((e) => [e.tooLoud, e.time > 16])).toEqual([
      [true, false],
      [false, true],
    ]);
  });
});
