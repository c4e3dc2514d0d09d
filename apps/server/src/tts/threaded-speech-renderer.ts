import type { TtsMediaType } from '@parla/contract';
import { compiledWorkerFile, WorkerThread } from '../lib/worker-thread.js';
import type { AudioFile, SpeechRenderer } from './speech-renderer.js';

export interface RenderRequest {
  text: string;
  voiceId: string;
  mediaType: TtsMediaType;
}

/** The compiled worker beside this module; running from the sources, the build next door. */
export function speechWorkerFile(): string | undefined {
  return compiledWorkerFile(new URL('./speech-renderer.worker.js', import.meta.url));
}

/** Renders speech in one long-lived worker thread, started on first use. */
export class ThreadedSpeechRenderer implements SpeechRenderer {
  private readonly thread: WorkerThread<RenderRequest, AudioFile>;

  constructor(workerFile: string) {
    this.thread = new WorkerThread(workerFile, 'speech renderer');
  }

  render(text: string, voiceId: string, mediaType: TtsMediaType): Promise<AudioFile> {
    return this.thread.call({ text, voiceId, mediaType });
  }

  close() {
    return this.thread.close();
  }
}
