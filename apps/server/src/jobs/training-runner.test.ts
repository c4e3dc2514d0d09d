import { SpeechError } from '@parla/speech';
import { describe, expect, it } from 'vitest';
import { trainInBackground, trainingWorkerFile } from './training-runner.js';

describe('trainInBackground', () => {
  it('runs in the compiled worker thread (the test command builds it first)', () => {
    expect(trainingWorkerFile()).toMatch(/train-profile\.worker\.js$/);
  });

  it("hands the recogniser's refusal back as a SpeechError with its code", async () => {
    // A take whose phrase has no text: the recogniser refuses it with bad_training_data,
    // which the training job treats as "not enough to train on yet", not as a failure.
    const refused = trainInBackground({
      takes: [{ text: '  ', unknown: false, audio: new Float32Array(16_000) }],
    });
    await expect(refused).rejects.toBeInstanceOf(SpeechError);
    await expect(refused).rejects.toMatchObject({
      code: 'bad_training_data',
      message: 'A phrase has no text.',
    });
  });
});
