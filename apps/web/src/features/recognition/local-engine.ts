import {
  answerMarks,
  AUDIO_SAMPLE_RATE,
  type RecognitionResult,
  type SetOptionsPayload,
  streamOutcome,
  type StreamTally,
} from '@parla/contract';
import {
  STREAM_KEPT_SECONDS,
  type LexiconEntry,
  type SpeechHandlers,
  type SpeechReply,
  type StreamEvent,
} from '@parla/speech';
import type { EngineCallbacks, RecognitionEngine } from './recognition-engine';
import { MIN_PENDING_SAMPLES, processingTimeoutMs } from './recognition-state';
import { AudioTail, toFloat } from './wav';

/** The model the engine loads: its version and bytes, or null when no profile is built yet. */
export type ModelSource = () => Promise<{ version: number; bytes: Uint8Array } | null>;

/** A final local result with the audio it was recognised from, for keeping (spec section 4). */
export interface LocalResult {
  result: RecognitionResult;
  audio: Int16Array;
}

export interface LocalEngineOptions extends EngineCallbacks {
  createWorker: () => Worker;
  loadModel: ModelSource;
  options: SetOptionsPayload;
  /** Each final result with its audio: uploaded as a recognition recording. */
  onLocalResult?: (local: LocalResult) => void;
  /**
   * The generic recogniser for phrases not recorded yet (docs/decisions/0102): where its
   * acoustic model is served, and how it may hear the person (null when it does not know
   * their voice). Without it, only the profile answers.
   */
  generic?: { modelBase: string; loadSetup: () => Promise<GenericSetup | null> };
  /** The generic recogniser could not use the means adapted to the voice. */
  onGenericProblem?: (error: unknown) => void;
  /**
   * The speech encoder's third opinion (docs/decisions/0147): where its model is served, and
   * the views of the profile's takes with the version they go with (null when it has none).
   * Without it, finals the generic path leaves rejected stay so.
   */
  encoder?: { modelUrl: string; loadViews: () => Promise<{ version: number; views: Uint8Array } | null> };
  /** The speech encoder could not be loaded, or its views read. */
  onEncoderProblem?: (error: unknown) => void;
}

/** How the generic recogniser may hear the person, as their profile's judgement allows. */
export interface GenericSetup {
  phrases: string[];
  /** Its means adapted to their voice (docs/decisions/0128), when it knows them with those. */
  voice?: { key: string; means: Uint8Array };
  /** Whether it knows them with its own means too: heard with those when the adapted ones cannot be read. */
  ownMeansTrusted: boolean;
  /**
   * How it says the words of the phrases: taught these, it never downloads and reads its
   * whole dictionary. Without them (they could not be fetched), it does.
   */
  pronunciations?: LexiconEntry[];
}

/**
 * Recognition in the browser: the voice profile is downloaded once per version and the
 * recogniser runs in a Web Worker. The worker's speech-start / partial / final events are
 * start_of_speech / speech_chunk / end_of_speech, surfaced as the socket's events are.
 */
export class LocalEngine implements RecognitionEngine {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void }
  >();
  private options: SetOptionsPayload;
  private version = 0;
  private streamId: string | null = null;
  private tally: StreamTally = { heardSpeech: false, answered: false };
  private streamCounter = 0;
  private readonly tail = new AudioTail(STREAM_KEPT_SECONDS * AUDIO_SAMPLE_RATE);
  private queue: Promise<unknown> = Promise.resolve();
  private processingTimer: ReturnType<typeof setTimeout> | null = null;
  private disposed = false;
  private loading = false;
  /**
   * Which load is the engine's own: a teardown (a newer profile, a reconnect) moves it on, and
   * a load still fetching or starting its worker by then stops there. Before, such a load
   * went on, and could finish on the version older than the one it was torn down for.
   */
  private loads = 0;
  private samplesSinceResult = 0;
  /** A newer profile is built, to be loaded once no stream is open. */
  private newerProfile = false;

  constructor(private readonly config: LocalEngineOptions) {
    this.options = config.options;
  }

  start() {
    if (this.disposed || this.loading || this.worker) return;
    this.loading = true;
    const turn = ++this.loads;
    void this.load(turn).finally(() => {
      if (turn === this.loads) this.loading = false;
    });
  }

  setOptions(options: SetOptionsPayload) {
    const silenceChanged =
      options.streaming_vad_min_silence_length !== undefined &&
      options.streaming_vad_min_silence_length !== this.options.streaming_vad_min_silence_length;
    this.options = { ...this.options, ...options };
    // The silence applies to streams started afterwards, as on the server; the person goes
    // on listening, so nothing is said about the stream ending.
    if (silenceChanged && this.streamId) this.closeStream(false);
  }

  sendChunk(samples: Int16Array) {
    if (!this.worker || samples.length === 0) return;
    const streamId = this.ensureStream();
    const tally = this.tally;
    this.tail.push(samples);
    this.samplesSinceResult += samples.length;
    this.enqueue(async () => {
      const events = await this.call('push-audio', { streamId, samples: toFloat(samples) });
      this.handleEvents(events, tally);
    });
  }

  endStream() {
    this.closeStream(true);
  }

  private closeStream(report: boolean) {
    const streamId = this.streamId;
    if (!this.worker) return;
    if (!streamId) {
      // The microphone gave nothing to send: nothing was heard.
      if (report) this.config.dispatch({ type: 'stream_ended', outcome: 'nothing_heard' });
      return;
    }
    const tally = this.tally;
    this.streamId = null;
    if (this.samplesSinceResult >= MIN_PENDING_SAMPLES)
      this.markProcessing(this.samplesSinceResult / AUDIO_SAMPLE_RATE);
    this.samplesSinceResult = 0;
    this.enqueue(async () => {
      const events = await this.call('close-stream', { streamId });
      this.handleEvents(events, tally);
      this.tail.reset();
      this.clearProcessing();
      // A next press already streaming: this ending is the last one's, not to be said over it.
      const reported = report && this.streamId === null;
      this.config.dispatch(
        reported ? { type: 'stream_ended', outcome: streamOutcome(tally) } : { type: 'processing_timeout' },
      );
    });
    // Only the person's own end: a stream closed for new options goes on in the next.
    if (report) this.reloadWhenIdle();
  }

  /**
   * A newer profile is built (an answer taught it, a take was recorded on another device). The
   * worker is started again on it once no stream is open: loaded at once, it would cut off the
   * press the person is speaking in and lose what they have said of it. Hands-free, the
   * profile they began listening with answers until they stop.
   */
  profileChanged() {
    this.newerProfile = true;
    this.reloadWhenIdle();
  }

  /** Starts again on the newer profile after the queue's requests, the last stream's end among them. */
  private reloadWhenIdle() {
    if (!this.newerProfile || this.streamId !== null) return;
    this.enqueue(() => {
      // A stream opened meanwhile is left to its own end.
      if (this.newerProfile && this.streamId === null && !this.disposed) {
        this.newerProfile = false;
        this.reconnect();
      }
      return Promise.resolve();
    });
  }

  reconnect() {
    this.teardown();
    this.start();
  }

  dispose() {
    this.disposed = true;
    this.teardown();
  }

  private teardown() {
    this.loads += 1;
    this.loading = false;
    this.clearProcessing();
    this.worker?.terminate();
    this.worker = null;
    this.streamId = null;
    this.tail.reset();
    for (const { reject } of this.pending.values()) reject(new Error('The recogniser stopped.'));
    this.pending.clear();
    this.config.dispatch({ type: 'disconnected' });
  }

  private async load(turn: number) {
    this.config.dispatch({ type: 'connecting' });
    this.config.dispatch({ type: 'connected' });
    this.config.dispatch({ type: 'connection_ready' });
    this.config.dispatch({ type: 'model_status', status: 'model_loading' });
    const superseded = () => this.disposed || turn !== this.loads;
    try {
      const model = await this.config.loadModel();
      if (superseded()) return;
      if (!model) {
        this.config.dispatch({ type: 'model_status', status: 'model_missing' });
        return;
      }
      const worker = this.config.createWorker();
      worker.onmessage = (event: MessageEvent<SpeechReply>) => {
        this.settle(event.data);
      };
      worker.onerror = (event) => {
        event.preventDefault();
        this.fail(event.message || 'The recogniser could not start.');
      };
      this.worker = worker;
      this.version = model.version;
      await this.call('load-profile', { model: model.bytes });
      if (superseded()) return;
      this.config.dispatch({ type: 'model_status', status: 'model_ready' });
      this.config.onModelReady?.(model.version);
      void this.startGeneric();
      void this.startEncoder();
    } catch (error) {
      // A worker torn down meanwhile refuses what it was asked: that is no failure to show.
      if (superseded()) return;
      this.fail(error instanceof Error ? error.message : String(error));
    }
  }

  /**
   * Loads the generic recogniser beside the profile, outside the queue: its model downloads
   * while the person is already understood by their profile. If it cannot load, the
   * profile alone answers, as before.
   */
  private async startGeneric() {
    const generic = this.config.generic;
    if (!generic) return;
    try {
      const hearing = await generic.loadSetup();
      if (!hearing || !this.worker) return;
      const { modelBase } = generic;
      const { phrases, voice, pronunciations } = hearing;
      const words = pronunciations ? { pronunciations } : {};
      try {
        await this.call('use-generic', { modelBase, phrases, ...words, ...(voice ? { voice } : {}) });
      } catch (error) {
        if (!voice) throw error;
        // Adapted means it cannot read (another build's model, a policy that refuses them) are
        // a fault to report; its own means answer, if it knows the voice with those.
        this.config.onGenericProblem?.(error);
        if (!hearing.ownMeansTrusted) return;
        await this.call('use-generic', { modelBase, phrases, ...words });
      }
    } catch {
      // Nothing to tell the person: what they have recorded is still understood.
    }
  }

  /**
   * Loads the speech encoder beside the profile, outside the queue, as the generic recogniser
   * is: its model (5.5 MB) downloads while the person is already understood. Only a profile
   * with views of its takes asks for it. If it cannot load, finals are answered without it.
   */
  private async startEncoder() {
    const encoder = this.config.encoder;
    if (!encoder) return;
    try {
      const loaded = await encoder.loadViews();
      // Views of another version would judge among another profile's takes.
      if (!loaded || loaded.version !== this.version || !this.worker) return;
      await this.call('use-encoder', { modelUrl: encoder.modelUrl, views: loaded.views });
    } catch (error) {
      // A fault to report, not to tell the person: the profile and the generic path still answer.
      if (!this.disposed) this.config.onEncoderProblem?.(error);
    }
  }

  private fail(message: string) {
    this.worker?.terminate();
    this.worker = null;
    this.config.dispatch({ type: 'model_status', status: 'model_loading_error', message });
  }

  private ensureStream(): string {
    if (this.streamId) return this.streamId;
    this.streamCounter += 1;
    const streamId = `s${this.streamCounter}`;
    this.streamId = streamId;
    this.tally = { heardSpeech: false, answered: false };
    this.tail.reset();
    const minSilence = this.options.streaming_vad_min_silence_length;
    this.enqueue(() =>
      this.call('open-stream', { streamId, ...(minSilence ? { options: { minSilence } } : {}) }),
    );
    return streamId;
  }

  /** Requests run one after another so that audio reaches the stream in order. */
  private enqueue(task: () => Promise<unknown>) {
    this.queue = this.queue.then(task).catch((error: unknown) => {
      if (!this.disposed && this.worker)
        this.config.dispatch({
          type: 'problem',
          problem: { code: 'local_failed', message: error instanceof Error ? error.message : String(error) },
        });
    });
  }

  private call<K extends keyof SpeechHandlers>(
    name: K,
    args: Parameters<SpeechHandlers[K]>[0],
  ): Promise<ReturnType<SpeechHandlers[K]>> {
    const worker = this.worker;
    if (!worker) return Promise.reject(new Error('The recogniser is not running.'));
    const id = this.nextId;
    this.nextId += 1;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage({ id, name, args });
    });
  }

  private settle(reply: SpeechReply) {
    const waiting = this.pending.get(reply.id);
    if (!waiting) return;
    this.pending.delete(reply.id);
    if (reply.ok) waiting.resolve(reply.result);
    else waiting.reject(new Error(reply.error.message));
  }

  private handleEvents(events: StreamEvent[], tally: StreamTally) {
    for (const event of events) {
      switch (event.type) {
        case 'speech-start':
          this.config.dispatch({ type: 'partial', text: '' });
          break;
        case 'partial':
          this.config.dispatch({ type: 'partial', text: event.text });
          break;
        case 'speech-cancelled':
          if (event.steadyRoom !== true) tally.heardSpeech = true;
          this.config.dispatch({ type: 'partial', text: '' });
          break;
        case 'room-noise':
          this.config.dispatch({ type: 'room_noise', tooLoud: event.tooLoud, cause: event.cause });
          break;
        case 'final': {
          tally.answered = true;
          const result: RecognitionResult = {
            text: event.rejected ? null : event.text,
            confidence: event.confidence,
            rejected: event.rejected,
            alternatives: event.alternatives.map(({ text, confidence }) => ({ text, confidence })),
            recognition_mode: this.options.recognition_mode ?? 'speak',
            duration: Math.round((event.end - event.start) * 1000) / 1000,
            acoustic_model_id: this.version,
            confidence_threshold: 0,
            ...answerMarks(event),
          };
          this.samplesSinceResult = 0;
          this.config.dispatch({ type: 'final' });
          // Its upload starts first, so whoever shows the result knows it is being kept.
          this.config.onLocalResult?.({ result, audio: this.tail.slice(event.start, event.end) });
          this.config.onResult(result);
          break;
        }
      }
    }
  }

  private markProcessing(audioSeconds: number) {
    this.clearProcessing();
    this.config.dispatch({ type: 'audio_sent' });
    this.processingTimer = setTimeout(() => {
      this.processingTimer = null;
      this.config.dispatch({ type: 'processing_timeout' });
    }, processingTimeoutMs(audioSeconds));
  }

  private clearProcessing() {
    if (this.processingTimer !== null) clearTimeout(this.processingTimer);
    this.processingTimer = null;
  }
}
