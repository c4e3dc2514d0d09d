import { afterEach, describe, expect, it, vi } from 'vitest';
import { concatAudio } from '../audio/audio.js';
import { KeptAudio } from '../audio/kept-audio.js';
import { RecognitionStream, type StreamEvent, type StreamOptions } from '../decode/streaming.js';
import {
  jacksonEngine as engine,
  jacksonMatcher as matcher,
  haveFsdd,
  padded,
  silence,
  speech,
} from '../test/jackson.node.js';
import { CHUNK_SAMPLES } from '../units.js';
import { GenericRecogniser } from './generic.js';
import { HearingAhead } from './hearing-ahead.js';
import {
  GENERIC_CONTEXT_SECONDS,
  GenericUtterance,
  SecondOpinion,
  WORD_EDGE_SECONDS,
  heardAgainBy,
  withSecondOpinion,
} from './second-opinion.js';

/**
 * Where in a stream (which push) the engine started and finished hearing an utterance to name
 * it, where it heard one for the voice alone, and the finals.
 */
interface Heard {
  finals: Extract<StreamEvent, { type: 'final' }>[];
  finalPushes: number[];
  listened: number[];
  finished: number[];
  overheard: number[];
}

/** Stream `audio` in the client's chunks, hearing ahead with `generic`, then end it. */
function streamAhead(audio: Float32Array, generic: SecondOpinion, options: StreamOptions = {}): Heard {
  const stream = new RecognitionStream(matcher(), options);
  const kept = new KeptAudio(25);
  const hearing = new HearingAhead(generic, kept);
  const heard: Heard = { finals: [], finalPushes: [], listened: [], finished: [], overheard: [] };
  let push = 0;
  const listen = vi.spyOn(generic, 'listen');
  const finish = vi.spyOn(GenericUtterance.prototype, 'finish');
  const voiceOnly = vi.spyOn(GenericRecogniser.prototype, 'startVoiceOnly');
  const follow = (events: StreamEvent[]) => {
    for (const event of hearing.follow(events, stream))
      if (event.type === 'final') {
        heard.finals.push(event);
        heard.finalPushes.push(push);
      }
    heard.listened.push(...listen.mock.calls.map(() => push));
    heard.overheard.push(...voiceOnly.mock.calls.map(() => push));
    // An utterance overheard is finished too: only those named count here.
    const named = finish.mock.calls.length - voiceOnly.mock.calls.length;
    heard.finished.push(...Array.from({ length: named }, () => push));
    listen.mockClear();
    finish.mockClear();
    voiceOnly.mockClear();
    push++;
  };
  for (let i = 0; i < audio.length; i += CHUNK_SAMPLES) {
    const chunk = audio.subarray(i, i + CHUNK_SAMPLES);
    kept.push(chunk);
    follow(stream.push(chunk));
  }
  follow(stream.end());
  hearing.close();
  listen.mockRestore();
  finish.mockRestore();
  voiceOnly.mockRestore();
  return heard;
}

/** The same stream with every final heard again at once, the engine overhearing the rest. */
function streamAtOnce(audio: Float32Array, generic: SecondOpinion, options: StreamOptions = {}) {
  const stream = new RecognitionStream(matcher(), options);
  const events = [
    ...Array.from({ length: Math.ceil(audio.length / CHUNK_SAMPLES) }, (_, i) =>
      stream.push(audio.subarray(i * CHUNK_SAMPLES, (i + 1) * CHUNK_SAMPLES)),
    ).flat(),
    ...stream.end(),
  ];
  const kept = new KeptAudio(25);
  kept.push(audio);
  const overhearing = generic; // not narrowed by the test below, which is of the final
  return events.flatMap((e) => {
    if (e.type !== 'final') return [];
    if (!heardAgainBy(e, generic)) overhearing.overhear(kept.around(e.start, e.end));
    return [withSecondOpinion(e, kept.around(e.start, e.end), generic)];
  });
}

afterEach(() => vi.restoreAllMocks());

describe('HearingAhead, on a stream whose decision ahead did not call for it', () => {
  it('hears a held rejection out at once, as soon as its words have come, and answers it when released', () => {
    const named = { text: 'three', confidence: 0.8 };
    const engine = {
      name: vi.fn((_audio: Float32Array) => named),
      listen: vi.fn(),
      overhear: vi.fn(),
      catchUp: vi.fn(),
      canSay: () => true,
      answer: () => ({ ...named, recorded: false }),
    };
    const kept = new KeptAudio(25);
    const hearing = new HearingAhead(engine as unknown as SecondOpinion, kept);
    const rejected = {
      text: null,
      confidence: 0.1,
      rejected: true,
      alternatives: [{ text: 'one', confidence: 0.1 }],
    };
    // The utterance ended at 1.0 s (its start moved to 0.4 s at the end-point); its final is held.
    const lastEnded = { start: 0.4, end: 1.0, result: rejected };
    const push = (seconds: number, events: StreamEvent[] = []) => {
      kept.push(new Float32Array(seconds * 16_000));
      return hearing.follow(events, { speechUntil: undefined, expected: undefined, lastEnded });
    };
    push(1.0);
    // Its words (to its end and the edge after it) have not all come yet.
    expect(engine.name).not.toHaveBeenCalled();
    // The silence around them is not waited for.
    push(0.1);
    expect(engine.name).toHaveBeenCalledTimes(1);
    const words = 0.6 + 2 * WORD_EDGE_SECONDS;
    expect(engine.name.mock.calls[0]?.[0]).toHaveLength(
      Math.round(16_000 * (words + 2 * GENERIC_CONTEXT_SECONDS)),
    );
    push(0.2);
    const [final] = push(0.2, [{ type: 'final', start: 0.4, end: 1.0, ...rejected }]);
    expect(final).toMatchObject({ text: 'three', rejected: false, generic: true });
    expect(engine.name).toHaveBeenCalledTimes(1);
    expect(engine.listen).not.toHaveBeenCalled();
  });
});

describe.skipIf(!haveFsdd)('HearingAhead', () => {
  it('hears a final before its end-point, and answers it as hearing it at once would', async () => {
    const audio = concatAudio(padded(3, 10), padded(1, 12), padded(3, 14), silence(1));
    const [ahead, atOnce] = [await engine(), await engine()];
    const heard = streamAhead(audio, ahead);
    expect(heard.finals).toEqual(streamAtOnce(audio, atOnce));
    expect(heard.finals.map((f) => f.text)).toEqual(['three', 'one', 'three']);
    expect(heard.finals.map((f) => f.generic)).toEqual([true, undefined, true]);
    // Each unrecorded "three" was heard from a push before the one that gave its final (a
    // rejection is held to be joined to what follows, and heard out while it waits); the
    // sure "one" was not named, only overheard in the push after its final.
    expect(heard.listened).toHaveLength(2);
    expect(heard.finished).toHaveLength(2);
    expect(heard.overheard).toEqual([(heard.finalPushes[1] ?? 0) + 1]);
    heard.finished.forEach((push, i) => expect(push).toBeLessThan(heard.finalPushes[i === 0 ? 0 : 2] ?? 0));
    ahead.delete();
    atOnce.delete();
  }, 60_000);

  it('hears the rest of a final given at its end-point there', async () => {
    // Rejections not held to be joined: each final comes at its end-point.
    const audio = concatAudio(padded(3, 10), silence(1));
    const [ahead, atOnce] = [await engine(), await engine()];
    const heard = streamAhead(audio, ahead, { joinWithin: 0 });
    expect(heard.finals).toEqual(streamAtOnce(audio, atOnce, { joinWithin: 0 }));
    expect(heard.finals[0]).toMatchObject({ text: 'three', generic: true });
    expect(heard.listened[0]).toBeLessThan(heard.finalPushes[0] ?? 0);
    expect(heard.finished).toEqual(heard.finalPushes);
    ahead.delete();
    atOnce.delete();
  }, 60_000);

  it('hears at once a stream that ended right after the word', async () => {
    const audio = concatAudio(silence(0.5), speech(3, 15));
    const [ahead, atOnce] = [await engine(), await engine()];
    const heard = streamAhead(audio, ahead);
    expect(heard.finals).toEqual(streamAtOnce(audio, atOnce));
    expect(heard.finals[0]).toMatchObject({ text: 'three', generic: true });
    const last = heard.finalPushes[0];
    expect(heard.listened).toEqual([last]);
    ahead.delete();
    atOnce.delete();
  }, 60_000);

  it('hears at once a final whose utterance the engine left for another stream', async () => {
    const shared = await engine();
    const stream = new RecognitionStream(matcher());
    const kept = new KeptAudio(25);
    const hearing = new HearingAhead(shared, kept);
    const listen = vi.spyOn(shared, 'listen');
    const audio = padded(3, 13);
    const finals: StreamEvent[] = [];
    let taken = false;
    for (let i = 0; i < audio.length; i += CHUNK_SAMPLES) {
      const chunk = audio.subarray(i, i + CHUNK_SAMPLES);
      kept.push(chunk);
      finals.push(...hearing.follow(stream.push(chunk), stream).filter((e) => e.type === 'final'));
      // Another stream's final takes the engine once this one started hearing ahead.
      if (!taken && listen.mock.calls.length > 0 && finals.length === 0) {
        shared.hear(speech(4, 20));
        taken = true;
      }
    }
    finals.push(...hearing.follow(stream.end(), stream).filter((e) => e.type === 'final'));
    expect(taken).toBe(true);
    expect(finals).toHaveLength(1);
    expect(finals[0]).toMatchObject({ text: 'three', generic: true });
    shared.delete();
  }, 60_000);
});
