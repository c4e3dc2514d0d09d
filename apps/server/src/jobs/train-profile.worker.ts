import { parentPort } from 'node:worker_threads';
import type { TrainingItem } from '@parla/speech';
import { trainAndSerialize } from './train-profile.js';

// Training is seconds of CPU: it runs here so the server keeps answering meanwhile.
parentPort?.on('message', (items: TrainingItem[]) => {
  try {
    const result = trainAndSerialize(items);
    parentPort?.postMessage({ ok: true, result }, [result.bytes.buffer as ArrayBuffer]);
  } catch (error) {
    parentPort?.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) });
  }
});
