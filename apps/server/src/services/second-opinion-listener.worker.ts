import { answerRequests } from '../lib/worker-thread.js';
import { InlineSecondOpinionListener, type ListenerRequest } from './second-opinion-listener.js';

const listener = new InlineSecondOpinionListener();

answerRequests(async (request: ListenerRequest) => {
  switch (request.kind) {
    case 'hear':
      return { result: await listener.hear(request) };
    case 'start-stream':
      return { result: await listener.startStream(request) };
    case 'follow':
      return { result: await listener.follow(request) };
    case 'end-stream':
      return { result: await listener.endStream(request.streamId) };
  }
});
