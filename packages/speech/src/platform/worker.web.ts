import { createSpeechHandlers, handleSpeechRequest, type SpeechRequest } from '../decode/handlers.js';

/** The little of a worker's global scope this needs. */
export interface WorkerScope {
  onmessage: ((event: { data: SpeechRequest }) => void) | null;
  postMessage: (message: unknown) => void;
}

/** Serve recognition requests in a dedicated Web Worker: `serveSpeechWorker(self)`. */
export function serveSpeechWorker(scope: WorkerScope): void {
  const handlers = createSpeechHandlers();
  scope.onmessage = (event) => {
    scope.postMessage(handleSpeechRequest(handlers, event.data));
  };
}
