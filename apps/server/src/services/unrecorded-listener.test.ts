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
    // The profile rejected "three", its best guess "two".
    const result = {
      text: null,
      confidence: 0.1,
      rejected: true,
      alternatives: [{ text: 'two', confidence: 0.1 }],
    };
    // Someone who has not recorded "three", then someone who has, then the first again.
    const heard = [
      await listener.hear({ userId: 'a', phrases: DIGIT_WORDS, recorded, audio: three, result }),
      await listener.hear({ userId: 'b', phrases: DIGIT_WORDS, recorded: DIGIT_WORDS, audio: three, result }),
      await listener.hear({ userId: 'a', phrases: DIGIT_WORDS, recorded, audio: three, result }),
    ];
    expect(heard.map((answer) => answer.text)).toEqual(['three', null, 'three']);
    expect(heard[0]).toMatchObject({ rejected: false, generic: true });
    // Heard as by an engine of its own: the same answer, whoever was heard in between.
    expect(heard[2]).toEqual(heard[0]);
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
});
