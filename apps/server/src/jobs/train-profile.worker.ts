import { parentPort } from 'node:worker_threads';
import { SpeechError } from '@parla/speech';
import { trainAndJudge, type TrainingRequest } from './train-profile.js';

// Training is seconds of CPU: it runs here so the server keeps answering meanwhile.
parentPort?.on('message', (request: TrainingRequest) => {
  trainAndJudge(request).then(
    (result) => {
      const made = result.analyses.flatMap((bytes) => (bytes === null ? [] : [bytes.buffer as ArrayBuffer]));
      const voice = result.voice === undefined ? [] : [result.voice.means.buffer as ArrayBuffer];
      const views = result.encoderViews;
      const viewed = [
        ...(views?.file === undefined ? [] : [views.file.buffer as ArrayBuffer]),
        ...(views?.made ?? []).flatMap((bytes) => (bytes === null ? [] : [bytes.buffer as ArrayBuffer])),
      ];
      parentPort?.postMessage({ ok: true, result }, [
        result.bytes.buffer as ArrayBuffer,
        ...made,
        ...voice,
        ...viewed,
      ]);
    },
    (error: unknown) => {
      // The code travels too: the job tells takes it cannot train on from a failure by it.
      const code = error instanceof SpeechError ? error.code : undefined;
      parentPort?.postMessage({
        ok: false,
        message: error instanceof Error ? error.message : String(error),
        code,
      });
    },
  );
});
