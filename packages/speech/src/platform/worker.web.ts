import { createSpeechHandlers, handleSpeechRequest, type SpeechRequest } from '../decode/handlers.js';
import { loadSpeechEncoderFrom } from './encoder.web.js';
import { loadSoundSwallower } from './soundswallower.web.js';
import { placeVoiceMeans } from './voice-means.web.js';

/** The little of a worker's global scope this needs. */
export interface WorkerScope {
  onmessage: ((event: { data: SpeechRequest }) => void) | null;
  postMessage: (message: unknown) => void;
}

/**
 * Serve recognition requests in a dedicated Web Worker: `serveSpeechWorker(self)`. Each
 * reply carries its request's id: `use-generic` and `use-encoder` wait for their models to
 * download while the streams go on, and a final the speech encoder hears waits for it.
 */
export function serveSpeechWorker(scope: WorkerScope): void {
  const handlers = createSpeechHandlers({
    loadGeneric: loadSoundSwallower,
    placeVoiceMeans,
    loadEncoder: loadSpeechEncoderFrom,
  });
  scope.onmessage = (event) => {
    void handleSpeechRequest(handlers, event.data).then((reply) => {
      scope.postMessage(reply);
    });
  };
}
