import { Worker } from 'node:worker_threads';
import { SpeechError, type SpeechErrorCode } from '@parla/speech';
import { compiledWorkerFile } from '../lib/worker-thread.js';
import { trainAndJudge, type TrainedProfile, type TrainingRequest } from './train-profile.js';

type WorkerReply =
  { ok: true; result: TrainedProfile } | { ok: false; message: string; code?: SpeechErrorCode };

/** The compiled worker; from the sources (tests) the build next door is used. */
export function trainingWorkerFile(): string | undefined {
  return compiledWorkerFile(new URL('./train-profile.worker.js', import.meta.url));
}

/**
 * Trains in a worker thread of its own (its memory goes with it), or inline when no
 * compiled worker exists.
 */
export function trainInBackground(request: TrainingRequest): Promise<TrainedProfile> {
  const file = trainingWorkerFile();
  if (!file) return trainAndJudge(request);
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
    const audio = [...request.takes, ...(request.judge?.takes ?? [])].flatMap((item) =>
      item.audio === undefined ? [] : [item.audio.buffer as ArrayBuffer],
    );
    worker.postMessage(request, [...new Set(audio)]);
  });
}
