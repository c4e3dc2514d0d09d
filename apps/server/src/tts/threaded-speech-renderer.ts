import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { TtsMediaType } from '@parla/contract';
import type { AudioFile, SpeechRenderer } from './speech-renderer.js';

export interface RenderRequest {
  id: number;
  text: string;
  voiceId: string;
  mediaType: TtsMediaType;
}

export type RenderReply =
  { id: number; ok: true; audio: AudioFile } | { id: number; ok: false; message: string };

/** The compiled worker beside this module; running from the sources, the build next door. */
export function speechWorkerFile(): string | undefined {
  const here = fileURLToPath(new URL('./speech-renderer.worker.js', import.meta.url));
  const built = here.replace(/([/\\])src([/\\])tts([/\\])/, '$1dist$2tts$3');
  return [here, built].find((file) => existsSync(file));
}

interface Pending {
  resolve: (audio: AudioFile) => void;
  reject: (error: Error) => void;
}

/**
 * Renders speech in one long-lived worker thread, started on first use. A worker that dies
 * fails the requests it held and is started afresh by the next one.
 */
export class ThreadedSpeechRenderer implements SpeechRenderer {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(private readonly workerFile: string) {}

  render(text: string, voiceId: string, mediaType: TtsMediaType): Promise<AudioFile> {
    const id = this.nextId++;
    const worker = this.ensureWorker();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ id, text, voiceId, mediaType } satisfies RenderRequest);
    });
  }

  async close() {
    const worker = this.worker;
    this.worker = undefined;
    this.failAll(new Error('speech renderer closed'));
    await worker?.terminate();
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.workerFile);
    worker.on('message', (reply: RenderReply) => {
      const pending = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      // An idle worker must not keep the process alive.
      if (this.pending.size === 0) worker.unref();
      if (!pending) return;
      if (reply.ok) pending.resolve(reply.audio);
      else pending.reject(new Error(reply.message));
    });
    worker.on('error', (error) => {
      if (this.worker === worker) this.worker = undefined;
      this.failAll(error);
    });
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = undefined;
      this.failAll(new Error('speech worker stopped'));
    });
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private failAll(error: Error) {
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }
}
