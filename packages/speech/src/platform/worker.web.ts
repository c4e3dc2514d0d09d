import { createSpeechHandlers, handleSpeechRequest, type SpeechRequest } from '../decode/handlers.js';
import { loadSoundSwallower } from './soundswallower.web.js';
import { placeVoiceMeans } from './voice-means.web.js';

/** The little of a worker's global scope this needs. */
export interface WorkerScope {
  onmessage: ((event: { data: SpeechRequest }) => void) | null;
  postMessage: (message: unknown) => void;
}

/**
 * Serve recognition requests in a dedicated Web Worker: `serveSpeechWorker(self)`. Replies
 * come in the order of the requests, except `use-generic`'s, which waits for its engine to
 * download while the streams go on.
 */
export function serveSpeechWorker(scope: WorkerScope): void {
  const handlers = createSpeechHandlers({ loadGeneric: loadSoundSwallower, placeVoiceMeans });
  scope.onmessage = (event) => {
    void handleSpeechRequest(handlers, event.data).then((reply) => {
      scope.postMessage(reply);
    });
  };
}
