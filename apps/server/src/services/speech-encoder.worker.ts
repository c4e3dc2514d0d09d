import { encoderLoadedOnce } from '@parla/speech';
import { loadSpeechEncoder } from '@parla/speech/node';
import { answerRequests } from '../lib/worker-thread.js';

// A failed load is tried again on the next utterance.
const encoder = encoderLoadedOnce(() => loadSpeechEncoder());

// The encoder is tens of milliseconds of CPU an utterance: it runs here so streams keep flowing.
answerRequests(async (audio: Float32Array) => {
  const view = await (await encoder()).view(audio);
  return { result: view, transfer: [view.data.buffer as ArrayBuffer] };
});
