import { SpeechError } from '@parla/speech';
import { afterEach, describe, expect, it } from 'vitest';
import { fsddRecording, haveFsdd } from '../../../../packages/speech/src/test/fsdd.node.js';
import { TrainingWorkers, trainingWorkerFile } from './training-runner.js';

describe('TrainingWorkers', () => {
  let workers = new TrainingWorkers();
  afterEach(async () => {
    await workers.close();
    workers = new TrainingWorkers();
  });

  /** A take whose phrase has no text: refused with bad_training_data, which the training job
   * treats as "not enough to train on yet", not as a failure. */
  const refused = () =>
    workers.train({ takes: [{ text: '  ', unknown: false, audio: new Float32Array(16_000) }] });

  it('runs in the compiled worker thread (the test command builds it first)', () => {
    expect(trainingWorkerFile()).toMatch(/train-profile\.worker\.js$/);
  });

  it("hands the recogniser's refusal back as a SpeechError with its code", async () => {
    const refusal = refused();
    await expect(refusal).rejects.toBeInstanceOf(SpeechError);
    await expect(refusal).rejects.toMatchObject({
      code: 'bad_training_data',
      message: 'A phrase has no text.',
    });
  });

  it.skipIf(!haveFsdd)(
    'trains the next profile in the worker that answered the last, and stops it on close',
    async () => {
      const takes = [1, 2].flatMap((digit) =>
        [0, 1].map((take) => ({
          text: String(digit),
          unknown: false,
          audio: fsddRecording(digit, 'jackson', take),
        })),
      );
      expect(workers.idleThreadId).toBeUndefined();
      const first = await workers.train({
        takes: takes.map((take) => ({ ...take, audio: take.audio.slice() })),
      });
      const kept = workers.idleThreadId;
      expect(kept).toBeGreaterThan(0);
      const second = await workers.train({ takes });
      expect(workers.idleThreadId).toBe(kept);
      for (const profile of [first, second]) expect(profile).toMatchObject({ phrases: 2, takes: 4 });
      // A refusal is an answer: the worker is as good as before.
      await expect(refused()).rejects.toBeInstanceOf(SpeechError);
      expect(workers.idleThreadId).toBe(kept);
      await workers.close();
      expect(workers.idleThreadId).toBeUndefined();
    },
  );
});
