import { UnrecordedPhrases } from '@parla/speech';
import { loadSoundSwallower } from '@parla/speech/node';
import { compiledWorkerFile, WorkerThread } from '../lib/worker-thread.js';

/** One utterance the personal profile rejected, and the person's phrases. */
export interface HearRequest {
  /** All of the person's phrases. */
  phrases: string[];
  /** Those with takes in the profile that rejected it. */
  recorded: string[];
  /** The utterance, 16 kHz mono. */
  audio: Float32Array;
}

/** The unrecorded phrase the generic path names in it, or null. */
export type Heard = { text: string; confidence: number } | null;

/** The generic path hearing phrases people have not recorded yet (decision 0102). */
export interface UnrecordedListener {
  hear(request: HearRequest): Promise<Heard>;
  close(): Promise<void>;
}

/**
 * On the calling thread: one engine, loaded on first use, switched to whichever person it
 * hears (a new grammar costs 15-70 ms, a new engine about half a second and 30 MB).
 */
export class InlineUnrecordedListener implements UnrecordedListener {
  private engine: Promise<UnrecordedPhrases> | undefined;
  private person = '';
  private answers = false;

  async hear({ phrases, recorded, audio }: HearRequest): Promise<Heard> {
    this.engine ??= loadSoundSwallower().then((module) => UnrecordedPhrases.load(module));
    const engine = await this.engine;
    const person = JSON.stringify([phrases, recorded]);
    if (person !== this.person) {
      this.answers = engine.use(phrases, recorded);
      this.person = person;
    }
    return this.answers ? engine.hear(audio) : null;
  }

  async close() {
    const engine = this.engine;
    this.engine = undefined;
    this.person = '';
    (await engine)?.delete();
  }
}

/** The compiled worker beside this module; running from the sources, the build next door. */
export function listenerWorkerFile(): string | undefined {
  return compiledWorkerFile(new URL('./unrecorded-listener.worker.js', import.meta.url));
}

/**
 * In one long-lived worker thread: a generic decode holds the CPU for 30-250 ms, which
 * must not stall every other stream on the server's event loop.
 */
export class ThreadedUnrecordedListener implements UnrecordedListener {
  private readonly thread: WorkerThread<HearRequest, Heard>;

  constructor(workerFile: string) {
    this.thread = new WorkerThread(workerFile, 'generic listener');
  }

  hear(request: HearRequest): Promise<Heard> {
    return this.thread.call(request);
  }

  close() {
    return this.thread.close();
  }
}
