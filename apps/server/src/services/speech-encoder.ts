import { encoderLoadedOnce, type Sequence, type SpeechEncoder } from '@parla/speech';
import { loadSpeechEncoder } from '@parla/speech/node';
import { compiledWorkerFile, WorkerThread } from '../lib/worker-thread.js';

/** The compiled worker beside this module; running from the sources, the build next door. */
export function speechEncoderWorkerFile(): string | undefined {
  return compiledWorkerFile(new URL('./speech-encoder.worker.js', import.meta.url));
}

/**
 * The speech encoder (docs/decisions/0144-0146) in a worker thread of its own: as
 * WebAssembly it takes about 30 ms a second of audio, which on the thread that serves every
 * stream would hold up everyone's results. Loaded on its first utterance, the view coming
 * back moved, not copied. Inline when no compiled worker exists.
 */
export class SpeechEncoderThread implements SpeechEncoder {
  private readonly thread: WorkerThread<Float32Array, Sequence> | undefined;
  // A failed load is tried again on the next utterance.
  private readonly inline = encoderLoadedOnce(() => loadSpeechEncoder());

  /** `workerFile`: {@link speechEncoderWorkerFile}; undefined runs the encoder inline. */
  constructor(workerFile: string | undefined) {
    this.thread = workerFile === undefined ? undefined : new WorkerThread(workerFile, 'speech encoder');
  }

  /** The view of an utterance's samples (16 kHz), as `SpeechEncoder.view` makes it. */
  async view(audio: Float32Array): Promise<Sequence> {
    // Copied, not moved: the samples are a view of a stream's kept audio.
    if (this.thread !== undefined) return this.thread.call(audio);
    return (await this.inline()).view(audio);
  }

  async close(): Promise<void> {
    await this.thread?.close();
  }
}
