import { parentPort } from 'node:worker_threads';
import { EspeakEngine } from './espeak-engine.js';
import { InlineSpeechRenderer } from './speech-renderer.js';
import type { RenderReply, RenderRequest } from './threaded-speech-renderer.js';

// Synthesis and MP3 encoding hold the CPU for 0.1-0.3 s per sentence: here they do not
// stall live recognition on the server's event loop.
const renderer = new InlineSpeechRenderer(new EspeakEngine());

parentPort?.on('message', (request: RenderRequest) => {
  renderer
    .render(request.text, request.voiceId, request.mediaType)
    .then((audio) => {
      const reply: RenderReply = { id: request.id, ok: true, audio };
      parentPort?.postMessage(reply, [audio.bytes.buffer as ArrayBuffer]);
    })
    .catch((error: unknown) => {
      const reply: RenderReply = {
        id: request.id,
        ok: false,
        message: error instanceof Error ? error.message : String(error),
      };
      parentPort?.postMessage(reply);
    });
});
