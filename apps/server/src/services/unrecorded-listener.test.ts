import { wavToMono16k } from '@parla/speech';
import { afterAll, describe, expect, it } from 'vitest';
import { DIGIT_WORDS, fsddTake } from '../../test/support/audio.js';
import { listenerWorkerFile, ThreadedUnrecordedListener } from './unrecorded-listener.js';

// Runs the compiled worker (the test command builds the server before testing).
const workerFile = listenerWorkerFile();

describe('ThreadedUnrecordedListener', () => {
  const listener = new ThreadedUnrecordedListener(workerFile ?? 'missing-worker.js');
  afterAll(() => listener.close());
  const three = wavToMono16k(fsddTake(3, 'jackson', 10));

  it('finds its compiled worker', () => {
    expect(workerFile).toMatch(/unrecorded-listener\.worker\.js$/);
  });

  it('hears each person among their own phrases, one after another', async () => {
    const recorded = DIGIT_WORDS.filter((word) => word !== 'three');
    // Someone who has not recorded "three", then someone who has, then the first again.
    const heard = [
      await listener.hear({ userId: 'a', phrases: DIGIT_WORDS, recorded, audio: three }),
      await listener.hear({ userId: 'b', phrases: DIGIT_WORDS, recorded: DIGIT_WORDS, audio: three }),
      await listener.hear({ userId: 'a', phrases: DIGIT_WORDS, recorded, audio: three }),
    ];
    expect(heard.map((answer) => answer?.text ?? null)).toEqual(['three', null, 'three']);
    expect(heard[0]?.confidence).toBeGreaterThan(0);
    // Heard as by an engine of its own: the same answer, whoever was heard in between.
    expect(heard[2]).toEqual(heard[0]);
    // The second person's guesses, when it names one of them; never another recorded phrase.
    const guessed = { userId: 'b', phrases: DIGIT_WORDS, recorded: DIGIT_WORDS, audio: three };
    expect(await listener.hear({ ...guessed, guesses: ['three'] })).toMatchObject({
      text: 'three',
      recorded: true,
    });
    expect(await listener.hear({ ...guessed, guesses: ['two', 'one'] })).toBeNull();
  }, 30_000);
});
