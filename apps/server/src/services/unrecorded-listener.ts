import { UnrecordedPhrases, withUnrecorded, type HeardAgain, type Recognition } from '@parla/speech';
import { loadSoundSwallower } from '@parla/speech/node';
import { compiledWorkerFile, WorkerThread } from '../lib/worker-thread.js';

/** One utterance the personal profile rejected or accepted in doubt, and the person's phrases. */
export interface HearRequest {
  /** Whose utterance it is. */
  userId: string;
  /** All of the person's phrases. */
  phrases: string[];
  /** Those with takes in the profile that heard it. */
  recorded: string[];
  /** The utterance, 16 kHz mono. */
  audio: Float32Array;
  /** What the profile made of it. */
  result: Recognition;
}

/** The profile's result, answered by the generic path where it had something to say. */
export type Heard = HeardAgain<Recognition>;

/**
 * The generic path hearing utterances again (`withUnrecorded`): phrases people have not
 * recorded yet (decision 0102), the profile's guesses it agrees with (0103), and its
 * answers in doubt that it does not (0104).
 */
export interface UnrecordedListener {
  hear(request: HearRequest): Promise<Heard>;
  close(): Promise<void>;
}

/**
 * On the calling thread: one engine, loaded on first use, switched to whichever person it
 * hears (a new grammar costs 15-70 ms, a new engine about half a second and 30 MB), and
 * made to forget the voices before theirs.
 */
export class InlineUnrecordedListener implements UnrecordedListener {
  private engine: Promise<UnrecordedPhrases> | undefined;
  /** Whom it heard last, and the phrases its grammar was made of. */
  private userId = '';
  private grammar = '';
  private answers = false;

  async hear({ userId, phrases, recorded, audio, result }: HearRequest): Promise<Heard> {
    this.engine ??= loadSoundSwallower().then((module) => UnrecordedPhrases.load(module));
    const engine = await this.engine;
    if (userId !== this.userId) {
      // Each person is heard as by an engine of their own (as when their voice was judged).
      await engine.forgetVoices();
      this.userId = userId;
      this.grammar = '';
    }
    const grammar = JSON.stringify([phrases, recorded]);
    if (grammar !== this.grammar) {
      this.answers = engine.use(phrases, recorded);
      this.grammar = grammar;
    }
    return withUnrecorded(result, audio, this.answers ? engine : undefined);
  }

  async close() {
    const engine = this.engine;
    this.engine = undefined;
    this.userId = '';
    this.grammar = '';
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
