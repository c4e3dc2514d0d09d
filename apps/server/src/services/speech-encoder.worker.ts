import { loadSpeechEncoder } from '@parla/speech/node';
import type { SpeechEncoder } from '@parla/speech';
import { answerRequests } from '../lib/worker-thread.js';

let encoder: Promise<SpeechEncoder> | undefined;

// The encoder is tens of milliseconds of CPU an utterance: it runs here so streams keep flowing.
answerRequests(async (audio: Float32Array) => {
  // A failed load is tried again on the next utterance.
  encoder ??= loadSpeechEncoder().catch((error: unknown) => {
    encoder = undefined;
    throw error;
  });
  const view = await (await encoder).view(audio);
  return { result: view, transfer: [view.data.buffer as ArrayBuffer] };
});
