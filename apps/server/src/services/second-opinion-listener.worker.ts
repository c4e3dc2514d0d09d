import { workerData } from 'node:worker_threads';
import { answerRequests } from '../lib/worker-thread.js';
import {
  ENGINE_LOADS_PER_THREAD,
  InlineSecondOpinionListener,
  LISTENING_ENGINES,
  type ListenerRequest,
} from './second-opinion-listener.js';

const { loadsPerThread = ENGINE_LOADS_PER_THREAD } = (workerData ?? {}) as { loadsPerThread?: number };
const listener = new InlineSecondOpinionListener(LISTENING_ENGINES, loadsPerThread);

/** Each answer, and whether this thread has loaded enough engines to give way to a fresh one. */
async function answered(result: Promise<unknown>) {
  return { result: await result, retire: listener.worn };
}

answerRequests(async (request: ListenerRequest) => {
  switch (request.kind) {
    case 'get-ready':
      return answered(listener.getReady(request));
    case 'hear':
      return answered(listener.hear(request));
    case 'start-stream':
      return answered(listener.startStream(request));
    case 'follow':
      return answered(listener.follow(request));
    case 'end-stream':
      return answered(listener.endStream(request.streamId));
  }
});
