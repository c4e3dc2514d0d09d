import {
  concatAudio,
  Matcher,
  RecognitionStream,
  recordedPhrases,
  trainProfile,
  wavToMono16k,
  type StreamEvent,
} from '@parla/speech';
import { adaptToVoice, loadSoundSwallower } from '@parla/speech/node';
import { afterAll, describe, expect, it } from 'vitest';
import { DIGIT_WORDS, fsddTake } from '../../test/support/audio.js';
import {
  InlineSecondOpinionListener,
  listenerWorkerFile,
  ThreadedSecondOpinionListener,
  type SecondOpinionListener,
} from './second-opinion-listener.js';

// Runs the compiled worker (the test command builds the server before testing).
const workerFile = listenerWorkerFile();

const three = wavToMono16k(fsddTake(3, 'jackson', 10));
/** Every digit but "three" recorded. */
const recorded = DIGIT_WORDS.filter((word) => word !== 'three');
/** The profile rejected "three", its best guess "two". */
const result = {
  text: null,
  confidence: 0.1,
  rejected: true,
  alternatives: [{ text: 'two', confidence: 0.1 }],
};

describe('ThreadedSecondOpinionListener', () => {
  const listener = new ThreadedSecondOpinionListener(workerFile ?? 'missing-worker.js');
  afterAll(() => listener.close());

  it('finds its compiled worker', () => {
    expect(workerFile).toMatch(/second-opinion-listener\.worker\.js$/);
  });

  it('hears each person among their own phrases, one after another', async () => {
    // Someone who has not recorded "three", then someone who has, then the first again.
    const heard = [
      await listener.hear({ userId: 'a', phrases: DIGIT_WORDS, recorded, audio: three, result }),
      await listener.hear({ userId: 'b', phrases: DIGIT_WORDS, recorded: DIGIT_WORDS, audio: three, result }),
      await listener.hear({ userId: 'a', phrases: DIGIT_WORDS, recorded, audio: three, result }),
    ];
    expect(heard.map((answer) => answer.text)).toEqual(['three', null, 'three']);
    expect(heard[0]).toMatchObject({ rejected: false, generic: true });
    // Heard by an engine of its own: the same answers as with nobody heard in between.
    const alone = new ThreadedSecondOpinionListener(workerFile ?? 'missing-worker.js');
    const a = { userId: 'a', phrases: DIGIT_WORDS, recorded, audio: three, result };
    expect([await alone.hear(a), await alone.hear(a)]).toEqual([heard[0], heard[2]]);
    await alone.close();
    // The second person's guess, when it names that too; an answer in doubt it does not name
    // is rejected.
    const b = { userId: 'b', phrases: DIGIT_WORDS, recorded: DIGIT_WORDS, audio: three };
    const guessedThree = { ...result, alternatives: [{ text: 'three', confidence: 0.1 }] };
    expect(await listener.hear({ ...b, result: guessedThree })).toMatchObject({
      text: 'three',
      seconded: true,
    });
    const doubtful = {
      text: 'two',
      confidence: 0.6,
      rejected: false,
      alternatives: [{ text: 'two', confidence: 0.6 }],
    };
    expect(await listener.hear({ ...b, result: doubtful })).toMatchObject({
      text: null,
      rejected: true,
      doubted: true,
    });
  }, 30_000);

  it("follows a person's live stream, answering a final it heard before the end-point", async () => {
    await listener.startStream(jacksonStream('s1'));
    const finals = await followThree(listener, 's1');
    expect(finals).toHaveLength(1);
    expect(finals[0]).toMatchObject({ text: 'three', rejected: false, generic: true });
    await listener.endStream('s1');
    // A stream it was not told of (or has ended) keeps the profile's events as they came.
    expect((await followThree(listener, 's1'))[0]).toMatchObject({ text: null, rejected: true });
  }, 30_000);

  it('gives way to a fresh thread once its engines are worn, and the streams it followed go on', async () => {
    const worn = new ThreadedSecondOpinionListener(workerFile ?? 'missing-worker.js', { loadsPerThread: 2 });
    try {
      await worn.startStream(jacksonStream('s2'));
      // Two people, an engine each: the second load wears the thread out.
      for (const userId of ['a', 'b'])
        await worn.hear({ userId, phrases: DIGIT_WORDS, recorded, audio: three, result });
      expect(worn.threadsStarted).toBe(1);
      // The next request goes to a fresh thread, told of the stream before it.
      const finals = await followThree(worn, 's2');
      expect(worn.threadsStarted).toBe(2);
      expect(finals).toHaveLength(1);
      expect(finals[0]).toMatchObject({ text: 'three', rejected: false, generic: true });
      await worn.endStream('s2');
      expect(
        await worn.hear({ userId: 'a', phrases: DIGIT_WORDS, recorded, audio: three, result }),
      ).toMatchObject({ text: 'three' });
    } finally {
      await worn.close();
    }
  }, 60_000);
});

/** Jackson's profile of one, four and seven; "three" he has not recorded. */
const jackson = (() => {
  const take = (digit: number, index: number) => wavToMono16k(fsddTake(digit, 'jackson', index));
  return trainProfile(
    [1, 4, 7].flatMap((d) => [0, 1, 2].map((i) => ({ text: DIGIT_WORDS[d] ?? '', audio: take(d, i) }))),
  );
})();

/** The start of a stream of Jackson's, whose phrases include "three". */
const jacksonStream = (streamId: string) => ({
  streamId,
  userId: 'c',
  phrases: ['one', 'four', 'seven', 'three'],
  recorded: recordedPhrases(jackson),
});

/** Jackson saying "three" in a live stream the listener follows: the finals it answered. */
async function followThree(listener: SecondOpinionListener, streamId: string) {
  const silence = new Float32Array(8000);
  const audio = concatAudio(silence, three, silence, silence);
  const stream = new RecognitionStream(new Matcher(jackson));
  const finals: StreamEvent[] = [];
  for (let i = 0; i < audio.length; i += 3200) {
    const samples = audio.slice(i, i + 3200);
    const events = stream.push(samples);
    const { speechUntil, expected, lastEnded } = stream;
    const answered = await listener.follow({
      streamId,
      samples,
      events,
      progress: { speechUntil, expected, lastEnded },
    });
    finals.push(...answered.filter((event) => event.type === 'final'));
  }
  return finals;
}

describe('InlineSecondOpinionListener', () => {
  /** Someone who has recorded every digit but "three". */
  const person = (userId: string) => ({ userId, phrases: DIGIT_WORDS, recorded });

  it('gives a further person the engine heard least lately, forgetting the voice before', async () => {
    const one = new InlineSecondOpinionListener(1);
    const hear = (userId: string, phrases: string[]) =>
      one.hear({ userId, phrases, recorded, audio: three, result });
    // One engine for two people: each takes it in turn, with their own phrases.
    const first = await hear('a', DIGIT_WORDS);
    expect(first).toMatchObject({ text: 'three', generic: true });
    expect(await hear('b', recorded)).toBe(result);
    // Taken back, it forgot b's voice: a is heard as the first time.
    expect(await hear('a', DIGIT_WORDS)).toEqual(first);
    await one.close();
  }, 30_000);

  it("gets a person's engine ready before they speak, and hears them with it", async () => {
    const two = new InlineSecondOpinionListener(2);
    await two.getReady(person('a'));
    expect(two.enginesLoaded).toBe(1);
    // Ready again, or heard: the same engine, with the phrases it was readied with.
    await two.getReady(person('a'));
    expect(await two.hear({ ...person('a'), audio: three, result })).toMatchObject({
      text: 'three',
      generic: true,
    });
    expect(two.enginesLoaded).toBe(1);
    await two.close();
  }, 30_000);

  it('does not take an engine from a live stream to get someone ready', async () => {
    const two = new InlineSecondOpinionListener(2);
    for (const userId of ['a', 'c']) {
      await two.getReady(person(userId));
      await two.startStream({ streamId: userId, ...person(userId) });
    }
    // b waits for their first push: a and c go on speaking with the engines they have.
    await two.getReady(person('b'));
    expect(two.holders).toEqual(['a', 'c']);
    // Nor is a's own engine replaced while a speaks (other means would need a new one).
    const otherMeans = { key: 'users/a/models/acoustic-9.voice', means: new Uint8Array(8) };
    await two.getReady({ ...person('a'), voice: otherMeans });
    expect(two.enginesLoaded).toBe(2);
    // Once c's stream is over, b is readied with c's engine, though a's was heard less lately.
    await two.endStream('c');
    await two.getReady(person('b'));
    expect(two.holders).toEqual(['a', 'b']);
    expect(two.enginesLoaded).toBe(2);
    await two.close();
  }, 30_000);

  it('does not get people ready while others wait for it: only the last of many connecting', async () => {
    const four = new InlineSecondOpinionListener(4);
    await Promise.all(['a', 'b', 'c', 'd', 'e', 'f'].map((userId) => four.getReady(person(userId))));
    expect(four.holders).toEqual(['f']);
    expect(four.enginesLoaded).toBe(1);
    await four.close();
  }, 30_000);

  it('frees on closing the engines that requests asked for before it loaded', async () => {
    const one = new InlineSecondOpinionListener(1);
    const ready = one.getReady(person('a'));
    await one.close();
    await ready;
    expect(one.enginesLoaded).toBe(1);
    expect(one.holders).toEqual([]);
  }, 30_000);

  it("hears with the means adapted to the person's voice, and loads an engine for other means", async () => {
    // Jackson's takes of every digit but "three".
    const takes = recorded.flatMap((text) =>
      [0, 1].map((index) => ({
        text,
        audio: wavToMono16k(fsddTake(DIGIT_WORDS.indexOf(text), 'jackson', index)),
      })),
    );
    const adapted = await adaptToVoice(await loadSoundSwallower(), DIGIT_WORDS, recorded, takes);
    if (adapted === undefined) throw new Error('His takes can be aligned.');
    const voice = { key: 'users/a/models/acoustic-1.voice', means: adapted.voice };
    const one = new InlineSecondOpinionListener(1);
    const hear = (means?: typeof voice) =>
      one.hear({ userId: 'a', voice: means, phrases: DIGIT_WORDS, recorded, audio: three, result });
    expect(await hear(voice)).toMatchObject({ text: 'three', generic: true });
    // The means are read as an engine loads: means that are not whole are refused then, so
    // new ones were not left to the engine that had the old.
    const cut = { key: 'users/a/models/acoustic-2.voice', means: adapted.voice.subarray(0, 100) };
    await expect(hear(cut)).rejects.toThrow(/cannot be read/);
    // The model's own means again: an engine of those.
    expect(await hear()).toMatchObject({ text: 'three', generic: true });
    await one.close();
  }, 60_000);
});
