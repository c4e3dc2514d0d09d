import { answerRequests } from '../lib/worker-thread.js';
import { InlineUnrecordedListener, type HearRequest } from './unrecorded-listener.js';

const listener = new InlineUnrecordedListener();

answerRequests(async (request: HearRequest) => ({ result: await listener.hear(request) }));
