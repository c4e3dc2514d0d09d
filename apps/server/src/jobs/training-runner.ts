import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { SpeechError, type SpeechErrorCode } from '@parla/speech';
import { trainAndSerialize, type TakeToTrain, type TrainedProfile } from './train-profile.js';

type WorkerReply =
  { ok: true; result: TrainedProfile } | { ok: false; message: string; code?: SpeechErrorCode };

/** The compiled worker; from the sources (tests) the build next door is used. */
export function trainingWorkerFile(): string | undefined {
  const here = fileURLToPath(new URL('./train-profile.worker.js', import.meta.url));
  const built = here.replace(/([/\\])src([/\\])jobs([/\\])/, '$1dist$2jobs$3');
  return [here, built].find((file) => existsSync(file));
}

/** Trains in a worker thread, or inline when no compiled worker exists. */
export function trainInBackground(items: TakeToTrain[]): Promise<TrainedProfile> {
  const file = trainingWorkerFile();
  // Inline, a refusal still arrives as a rejected promise, as from the worker.
  if (!file) return new Promise((resolve) => resolve(trainAndSerialize(items)));
  return new Promise((resolve, reject) => {
    const worker = new Worker(file);
    worker.once('message', (reply: WorkerReply) => {
      void worker.terminate();
      if (reply.ok) resolve(reply.result);
      else
        reject(
          reply.code === undefined ? new Error(reply.message) : new SpeechError(reply.code, reply.message),
        );
    });
    worker.once('error', reject);
    // Decoded audio is the job's own and moves to the worker; kept analyses are copied, as
    // storage may hand out views of buffers it shares.
    worker.postMessage(
      items,
      items.flatMap((item) => (item.audio === undefined ? [] : [item.audio.buffer as ArrayBuffer])),
    );
  });
}
