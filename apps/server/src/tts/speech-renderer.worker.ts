import { answerRequests } from '../lib/worker-thread.js';
import { EspeakEngine } from './espeak-engine.js';
import { InlineSpeechRenderer } from './speech-renderer.js';
import type { RenderRequest } from './threaded-speech-renderer.js';

// Synthesis and MP3 encoding hold the CPU for 0.1-0.3 s per sentence: here they do not
// stall live recognition on the server's event loop.
const renderer = new InlineSpeechRenderer(new EspeakEngine());

answerRequests(async (request: RenderRequest) => {
  const audio = await renderer.render(request.text, request.voiceId, request.mediaType);
  return { result: audio, transfer: [audio.bytes.buffer as ArrayBuffer] };
});
