import { parentPort } from 'node:worker_threads';
import { trainAndSerialize, type TakeToTrain } from './train-profile.js';

// Training is seconds of CPU: it runs here so the server keeps answering meanwhile.
parentPort?.on('message', (items: TakeToTrain[]) => {
  try {
    const result = trainAndSerialize(items);
    const made = result.analyses.flatMap((bytes) => (bytes === null ? [] : [bytes.buffer as ArrayBuffer]));
    parentPort?.postMessage({ ok: true, result }, [result.bytes.buffer as ArrayBuffer, ...made]);
  } catch (error) {
    parentPort?.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) });
  }
});
