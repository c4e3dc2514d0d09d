import {
  hearingWith,
  KeptAudio,
  type HearingAhead,
  SecondOpinion,
  STREAM_KEPT_SECONDS,
  withSecondOpinion,
  type HeardAgain,
  type Recognition,
  type StreamEvent,
  type StreamProgress,
} from '@parla/speech';
import { loadSoundSwallower, withVoiceMeans } from '@parla/speech/node';
import { compiledWorkerFile, WorkerThread } from '../lib/worker-thread.js';

/**
 * The generic path's means adapted to a person's voice (compact, as kept beside their
 * profile: docs/decisions/0128), and a key that tells one such set from another.
 */
export interface AdaptedVoice {
  key: string;
  means: Uint8Array;
}

/** A person the generic path hears, and how: their voice and their phrases. */
export interface PersonHeard {
  userId: string;
  /** The engine's means adapted to their voice; the model's own when absent. */
  voice?: AdaptedVoice;
  /** All of the person's phrases. */
  phrases: string[];
  /** Those with takes in their profile. */
  recorded: string[];
}

/** One utterance the personal profile rejected or accepted in doubt, and whose it is. */
export interface HearRequest extends PersonHeard {
  /** The utterance, 16 kHz mono. */
  audio: Float32Array;
  /** What the profile made of it. */
  result: Recognition;
}

/** The profile's result, answered by the generic path where it had something to say. */
export type Heard = HeardAgain<Recognition>;

/** A live stream to follow, and whose it is (their phrases read once, as it starts). */
export interface StreamStart extends PersonHeard {
  /** The stream, unique on this server. */
  streamId: string;
}

/**
 * A started stream's newest audio and what the profile made of it (`HearingAhead`), the
 * stream's progress copied from it.
 */
export interface FollowRequest {
  streamId: string;
  /** The stream's newest audio, 16 kHz mono. */
  samples: Float32Array;
  /** The profile's events for it. */
  events: StreamEvent[];
  progress: StreamProgress;
}

/** What a listener is asked, as it travels to its worker thread. */
export type ListenerRequest =
  | ({ kind: 'get-ready' } & PersonHeard)
  | ({ kind: 'hear' } & HearRequest)
  | ({ kind: 'start-stream' } & StreamStart)
  | ({ kind: 'follow' } & FollowRequest)
  | { kind: 'end-stream'; streamId: string };

/**
 * The generic path hearing utterances again (`withSecondOpinion`): phrases people have not
 * recorded yet (decision 0102), the profile's guesses it agrees with (0103), and its
 * answers in doubt that it does not (0104); on a live stream, from before the end-point
 * (0105), overhearing the rest (0106).
 */
export interface SecondOpinionListener {
  /**
   * The person's engine loaded and given their phrases, before they speak: otherwise their
   * stream's first audio waits for it (a quarter to half a second on two cores). Left to that
   * first audio when it would cost others (see the inline listener).
   */
  getReady(person: PersonHeard): Promise<void>;
  /** One utterance heard at once. */
  hear(request: HearRequest): Promise<Heard>;
  /** A live stream to follow from now on. */
  startStream(start: StreamStart): Promise<void>;
  /**
   * A started stream's newest audio: the profile's events with its finals answered (as they
   * came for a stream it does not know, e.g. after its worker started again).
   */
  follow(request: FollowRequest): Promise<StreamEvent[]>;
  /** A followed stream is over. */
  endStream(streamId: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Engines kept, one for each person heard lately (about 25 MB each); a further person takes
 * the least recently heard one's, or a new one when either has means adapted to their voice.
 * An engine of their own follows a person's voice (its running mean) from one utterance to
 * the next.
 */
export const LISTENING_ENGINES = 4;

/**
 * Engines a listener loads before its thread is replaced. Each load used to leave its 10 MB
 * of model files behind in SoundSwallower's memory, which never shrinks (0132); engines now
 * give those files back when freed (0133): 200 people with means of their own took the thread
 * to 277 MB, reached by the 40th. A fresh thread now and then stays as a guard for what a
 * load may still keep; it costs one model load and the streams' replay.
 */
export const ENGINE_LOADS_PER_THREAD = 1000;

/**
 * On the calling thread: an engine for each person heard lately (a new one loads in about
 * half a second), with the means adapted to their voice if they have some, given their
 * phrases (a new grammar costs 15-70 ms); one taken from another person first forgets their
 * voice. Requests are answered one at a time, as an engine hears one utterance at a time.
 */
export class InlineSecondOpinionListener implements SecondOpinionListener {
  private module: ReturnType<typeof loadSoundSwallower> | undefined;
  /** Engines by whom they hear, least recently heard first, with the phrases they hear. */
  private readonly engines = new Map<string, HeldEngine>();
  /** Streams followed, with whose they are and the phrases and voice they were started with. */
  private readonly streams = new Map<
    string,
    {
      userId: string;
      phrases: PhraseSet;
      voice: AdaptedVoice | undefined;
      kept: KeptAudio;
      hearing: HearingAhead | undefined;
    }
  >();
  private queue: Promise<unknown> = Promise.resolve();
  /** Requests waiting for their turn. */
  private waiting = 0;
  /** Engines loaded so far. */
  private loads = 0;

  constructor(
    private readonly maxEngines = LISTENING_ENGINES,
    private readonly loadsBeforeWorn = ENGINE_LOADS_PER_THREAD,
  ) {}

  /** Whether it has loaded enough engines that its thread should give way (see ENGINE_LOADS_PER_THREAD). */
  get worn(): boolean {
    return this.loads >= this.loadsBeforeWorn;
  }

  /** Engines loaded so far. */
  get enginesLoaded(): number {
    return this.loads;
  }

  /** Whom engines are held for, least recently heard first. */
  get holders(): string[] {
    return [...this.engines.keys()];
  }

  getReady({ userId, voice, phrases, recorded }: PersonHeard): Promise<void> {
    return this.inTurn(async () => {
      // Not while others wait (a burst of people connecting, as after a restart, would load
      // engine after engine that the next takes back), nor at the cost of an engine a live
      // stream is using. The person's first push loads it then, as it would without this.
      if (this.waiting > 0) return;
      const streaming = new Set([...this.streams.values()].map((stream) => stream.userId));
      // Their own stream has theirs, with the voice and phrases it started with: not swapped.
      if (streaming.has(userId)) return;
      const spare = [...this.engines.keys()].find((holder) => !streaming.has(holder));
      if (!this.engines.has(userId) && this.engines.size >= this.maxEngines && spare === undefined) return;
      await this.engineFor(userId, voice, phraseSet(phrases, recorded), spare);
    });
  }

  hear({ userId, voice, phrases, recorded, audio, result }: HearRequest): Promise<Heard> {
    return this.inTurn(async () =>
      withSecondOpinion(result, audio, await this.engineFor(userId, voice, phraseSet(phrases, recorded))),
    );
  }

  startStream(start: StreamStart): Promise<void> {
    return this.inTurn(() => {
      this.streams.set(start.streamId, {
        userId: start.userId,
        phrases: phraseSet(start.phrases, start.recorded),
        voice: start.voice,
        kept: new KeptAudio(STREAM_KEPT_SECONDS),
        hearing: undefined,
      });
      return Promise.resolve();
    });
  }

  follow({ streamId, samples, events, progress }: FollowRequest): Promise<StreamEvent[]> {
    return this.inTurn(async () => {
      const stream = this.streams.get(streamId);
      if (stream === undefined) return events;
      stream.kept.push(samples);
      // The person's engine may have gone to someone else since the last push.
      const engine = await this.engineFor(stream.userId, stream.voice, stream.phrases);
      if (engine === undefined) return events;
      stream.hearing = hearingWith(stream.hearing, engine, stream.kept);
      return stream.hearing.follow(events, progress);
    });
  }

  endStream(streamId: string): Promise<void> {
    return this.inTurn(() => {
      this.streams.get(streamId)?.hearing?.close();
      this.streams.delete(streamId);
      return Promise.resolve();
    });
  }

  async close() {
    this.streams.clear();
    // Requests already asked for are answered first; an engine one of them loads goes too.
    await this.queue;
    for (const { engine } of this.engines.values()) engine.delete();
    this.engines.clear();
  }

  private inTurn<T>(task: () => Promise<T>): Promise<T> {
    this.waiting++;
    const next = this.queue.then(() => {
      this.waiting--;
      return task();
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  /**
   * The person's engine, with their voice's means, hearing their phrases; undefined when it
   * can say none of them. With every engine held, `oldest`'s is taken: by default the least
   * recently heard.
   */
  private async engineFor(
    userId: string,
    voice: AdaptedVoice | undefined,
    phrases: PhraseSet,
    oldest = this.engines.keys().next().value,
  ): Promise<SecondOpinion | undefined> {
    let held = this.engines.get(userId);
    if (held !== undefined) {
      this.engines.delete(userId);
    } else if (this.engines.size >= this.maxEngines && oldest !== undefined) {
      const taken = this.engines.get(oldest);
      this.engines.delete(oldest);
      await taken?.engine.forgetVoices();
      if (taken !== undefined) held = { ...taken, phrases: undefined };
    }
    // Means are read as an engine loads: other means need an engine of their own.
    if (held !== undefined && held.voiceKey !== voice?.key) {
      held.engine.delete();
      held = undefined;
    }
    held ??= await this.loadEngine(voice);
    this.engines.set(userId, held);
    if (phrases.key !== held.phrases?.key) {
      held.answers = held.engine.use(phrases.phrases, phrases.recorded);
      held.phrases = phrases;
    }
    return held.answers ? held.engine : undefined;
  }

  private async loadEngine(voice: AdaptedVoice | undefined): Promise<HeldEngine> {
    this.loads++;
    this.module ??= loadSoundSwallower();
    const module = await this.module;
    const engine =
      voice === undefined
        ? await SecondOpinion.load(module)
        : await withVoiceMeans(voice.means, (path) => SecondOpinion.load(module, path));
    return { engine, voiceKey: voice?.key, phrases: undefined, answers: false };
  }
}

/** An engine kept for a person: the means it loaded with, the phrases it hears and whether it can say any. */
interface HeldEngine {
  engine: SecondOpinion;
  voiceKey: string | undefined;
  phrases: PhraseSet | undefined;
  answers: boolean;
}

/** A person's phrases and those of them recorded, with a key that tells one such set from another. */
interface PhraseSet {
  phrases: readonly string[];
  recorded: readonly string[];
  key: string;
}

function phraseSet(phrases: readonly string[], recorded: readonly string[]): PhraseSet {
  return { phrases, recorded, key: JSON.stringify([phrases, recorded]) };
}

/** The compiled worker beside this module; running from the sources, the build next door. */
export function listenerWorkerFile(): string | undefined {
  return compiledWorkerFile(new URL('./second-opinion-listener.worker.js', import.meta.url));
}

/**
 * In one long-lived worker thread: a generic decode holds the CPU for 30-600 ms, which
 * must not stall every other stream on the server's event loop.
 */
export class ThreadedSecondOpinionListener implements SecondOpinionListener {
  private readonly thread: WorkerThread<ListenerRequest, unknown>;
  /** Streams followed now: a thread that replaces a worn one is told of them first. */
  private readonly streams = new Map<string, StreamStart>();

  constructor(workerFile: string, { loadsPerThread = ENGINE_LOADS_PER_THREAD } = {}) {
    this.thread = new WorkerThread(workerFile, 'generic listener', {
      workerData: { loadsPerThread },
      replay: () => [...this.streams.values()].map((start) => ({ kind: 'start-stream', ...start })),
    });
  }

  /** Threads started so far: a worn one is replaced (see ENGINE_LOADS_PER_THREAD). */
  get threadsStarted(): number {
    return this.thread.started;
  }

  async getReady(person: PersonHeard): Promise<void> {
    await this.thread.call({ kind: 'get-ready', ...person });
  }

  async hear(request: HearRequest): Promise<Heard> {
    return (await this.thread.call({ kind: 'hear', ...request })) as Heard;
  }

  async startStream(start: StreamStart): Promise<void> {
    this.streams.set(start.streamId, start);
    await this.thread.call({ kind: 'start-stream', ...start });
  }

  async follow(request: FollowRequest): Promise<StreamEvent[]> {
    return (await this.thread.call({ kind: 'follow', ...request })) as StreamEvent[];
  }

  async endStream(streamId: string): Promise<void> {
    this.streams.delete(streamId);
    await this.thread.call({ kind: 'end-stream', streamId });
  }

  close() {
    return this.thread.close();
  }
}
