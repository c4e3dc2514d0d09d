import { randomUUID } from 'node:crypto';
import {
  answerMarks,
  ALREADY_STREAMING_MESSAGE,
  SelectProviderSchema,
  SetOptionsSchema,
  SOCKET_ERROR_CODES,
  type RealtimeProvider,
  type RecognitionMode,
  type RecognitionResult,
  streamOutcome,
  type StreamTally,
} from '@parla/contract';
import {
  createOpusStreamDecoder,
  EncoderViewAhead,
  encoderHears,
  KeptAudio,
  ListeningRoom,
  RecognitionStream,
  SpeechError,
  STREAM_KEPT_SECONDS,
  type OpusStreamDecoder,
  type StreamEvent,
  withSilenceAround,
} from '@parla/speech';
import type { FastifyBaseLogger } from 'fastify';
import { newId } from '../lib/crypto.js';
import type { FollowedStream, LoadedModel, RecognitionService } from '../services/recognition.service.js';
import { PROFILE_REBUILDING_MESSAGE, ProfileBeingRebuilt } from '../services/voice-profile.service.js';
import { maskProfanities } from '../services/profanity.js';
import {
  binaryPayload,
  MAX_CHUNK_SAMPLES,
  MAX_COMPRESSED_BYTES,
  MAX_UTTERANCE_SAMPLES,
  parseSamples,
} from './audio-payload.js';
import type { RealtimeSocket } from './types.js';

/** A final result as the stream gives it (a whole utterance's silence is one too). */
type Final = Pick<
  Extract<StreamEvent, { type: 'final' }>,
  'text' | 'confidence' | 'rejected' | 'alternatives' | 'start' | 'end' | 'generic' | 'seconded' | 'doubted'
>;

/** Which socket of each user is streaming now: one live stream per person. */
const activeStreams = new Map<string, string>();

const SAMPLE_RATE = 16_000;

const MODEL_MISSING_MESSAGE = 'Record your phrases first: your voice profile is not built yet.';

interface Options {
  mode: RecognitionMode;
  minSilence: number | undefined;
  filterProfanities: boolean;
}

/**
 * One socket's recognition: the loaded profile, the options, the live stream. On the
 * dictation provider every result is dictation.
 */
export class RecognitionSession {
  /** The person's profile as last loaded: on selecting the provider, and as each stream starts. */
  private model: LoadedModel | undefined;
  /** The profile the live stream began with, which hears it to its end. */
  private streamModel: LoadedModel | undefined;
  /** Whether the press under way found the profile gone as it began (`model_missing` told
   * the client): the rest of its audio is let go without an error per chunk. */
  private pressRefused = false;
  private options: Options;
  private context: { appBuild?: string | undefined; scenarioId?: string | undefined } = {};
  private stream: RecognitionStream | undefined;
  /** The live stream as the generic path follows it, for a voice it knows. */
  private followed: Promise<FollowedStream | undefined> | undefined;
  private tally: StreamTally = { heardSpeech: false, answered: false };
  /** Whether results are kept, so that each gets the id of its recording. */
  private keepsRecognitions = false;
  /** Opus state of the live stream, made on its first compressed message. */
  private opus: OpusStreamDecoder | undefined;
  /** The live stream's last seconds, to store results and hear them again. */
  private kept = new KeptAudio(STREAM_KEPT_SECONDS);
  /** The live stream's finals the speech encoder will hear, viewed while the end-point is
   * waited out (docs/decisions/0148). */
  private ahead: EncoderViewAhead | undefined;
  /** The room as this socket's streams have heard it: press to talk makes one per phrase. */
  private readonly room = new ListeningRoom();

  constructor(
    private readonly socket: RealtimeSocket,
    private readonly userId: string,
    private readonly provider: RealtimeProvider,
    private readonly recognition: RecognitionService,
    private readonly log: FastifyBaseLogger,
  ) {
    this.options = {
      mode: provider === 'dictation' ? 'dictate' : 'speak',
      minSilence: undefined,
      filterProfanities: false,
    };
  }

  async selectProvider(payload: unknown) {
    const parsed = SelectProviderSchema.safeParse(payload ?? {});
    if (!parsed.success) return this.fail('parse error');
    this.context = { appBuild: parsed.data.app_build, scenarioId: parsed.data.scenario_id };
    this.socket.emit('model_loading', {});
    try {
      // The person's saved settings apply until the client says otherwise.
      const defaults = await this.recognition.userDefaults(this.userId);
      this.options = {
        ...this.options,
        minSilence: this.options.minSilence ?? defaults.minSilence,
        filterProfanities: this.options.filterProfanities || defaults.filterProfanities,
      };
      this.keepsRecognitions = defaults.keepsRecognitions;
      this.model = await this.recognition.loadModel(this.userId);
    } catch (error) {
      const rebuilding = error instanceof ProfileBeingRebuilt;
      if (!rebuilding) this.log.error({ err: error }, 'could not load a voice profile');
      this.model = undefined;
      this.socket.emit('model_loading_error', {
        message: rebuilding ? PROFILE_REBUILDING_MESSAGE : 'Try again in a moment.',
      });
      return;
    }
    if (!this.model) {
      this.socket.emit('model_missing', { message: MODEL_MISSING_MESSAGE });
      return;
    }
    this.socket.emit('model_ready', { version: this.model.version });
    // Not awaited: the person may start at once, and their audio queues behind this anyway.
    void this.recognition.getGenericPathReady(this.userId, this.model);
  }

  setOptions(payload: unknown) {
    const parsed = SetOptionsSchema.safeParse(payload ?? {});
    if (!parsed.success) return this.fail('parse error');
    const { recognition_mode, streaming_vad_min_silence_length, filter_profanities } = parsed.data;
    if (this.provider === 'dictation' && recognition_mode === 'speak') {
      return this.fail('The dictation provider only dictates: use the main endpoint for speak mode.');
    }
    this.options = {
      mode: recognition_mode ?? this.options.mode,
      minSilence: streaming_vad_min_silence_length ?? this.options.minSilence,
      filterProfanities: filter_profanities ?? this.options.filterProfanities,
    };
  }

  async streamSamples(payload: unknown) {
    const samples = parseSamples(payload, MAX_CHUNK_SAMPLES);
    if (!samples) return this.fail('parse error');
    await this.streamDecoded(samples);
  }

  /** Opus packets from the browser's encoder, framed as docs/realtime.md says. */
  async streamCompressed(payload: unknown) {
    const bytes = binaryPayload(payload);
    if (!bytes || bytes.byteLength > MAX_COMPRESSED_BYTES) return this.fail('parse error');
    if (this.pressRefused) return;
    if (!this.model) return this.fail('Select a provider and wait for model_ready before streaming.');
    let samples: Float32Array;
    try {
      this.opus ??= await createOpusStreamDecoder({ sampleRate: SAMPLE_RATE });
      samples = this.opus.decodePackets(bytes);
    } catch (error) {
      if (error instanceof SpeechError) return this.fail(`parse error: ${error.message}`);
      throw error;
    }
    if (samples.length > 0) await this.streamDecoded(samples);
  }

  private async streamDecoded(samples: Float32Array) {
    if (this.pressRefused) return;
    if (!this.model) return this.fail('Select a provider and wait for model_ready before streaming.');
    let model = this.streamModel;
    if (!this.stream || !model) {
      const owner = activeStreams.get(this.userId);
      if (owner && owner !== this.socket.id) {
        this.socket.emit('error', {
          code: SOCKET_ERROR_CODES.ALREADY_STREAMING,
          message: ALREADY_STREAMING_MESSAGE,
        });
        return;
      }
      model = await this.newestModel();
      if (!model) {
        this.pressRefused = true;
        return;
      }
      activeStreams.set(this.userId, this.socket.id);
      this.streamModel = model;
      this.stream = this.newStream(model);
      this.ahead = new EncoderViewAhead((audio) => this.recognition.viewWithEncoder(audio));
      this.followed = this.recognition.followStream(this.userId, model);
      this.tally = { heardSpeech: false, answered: false };
    }
    // This stream's, whatever the socket starts while this push is heard.
    const { stream, kept, ahead } = this;
    kept.push(samples);
    const followed = await this.followed;
    const events = await this.recognition.follow(followed, samples, stream.push(samples), stream);
    await this.emitEvents(events, model, this.tally, kept, ahead);
    ahead?.follow(stream.expected, model.encoder, (start, end) => kept.heardByEncoder(start, end));
  }

  async stopStream() {
    const stream = this.stream;
    const model = this.streamModel;
    const following = this.followed;
    const tally = this.tally;
    const kept = this.kept;
    const ahead = this.ahead;
    // The person's next stream may start at once, on this socket or another.
    this.releaseStream();
    const followed = await following;
    const requestId = randomUUID();
    this.socket.emit('request_received', { request_id: requestId });
    if (stream && model) {
      const events = await this.recognition.follow(followed, new Float32Array(0), stream.end(), stream);
      await this.emitEvents(events, model, tally, kept, ahead);
    }
    await this.recognition.endFollowing(followed);
    // Said after the last result, so the client knows none is coming and why (decision 0100).
    this.socket.emit('stream_ended', {
      request_id: requestId,
      outcome: stream ? streamOutcome(tally) : 'nothing_heard',
    });
  }

  /** A whole utterance in one message: every utterance in it gets a result; silence gets a rejection. */
  async recognizeWhole(payload: unknown) {
    const samples = parseSamples(payload, MAX_UTTERANCE_SAMPLES);
    if (!samples) return this.fail('parse error');
    if (!this.model) return this.fail('Select a provider and wait for model_ready before sending audio.');
    const model = await this.newestModel();
    if (!model) return;
    this.socket.emit('request_received', { request_id: randomUUID() });
    // A whole utterance on its own: nothing to learn about the room the live streams are in.
    const stream = this.newStream(model, undefined);
    const events = [...stream.push(samples), ...stream.end()];
    const finals = events.filter((event) => event.type === 'final');
    if (finals.length === 0) {
      this.socket.emit(
        'recognition',
        this.result(
          {
            text: null,
            confidence: 0,
            rejected: true,
            alternatives: [],
            start: 0,
            end: samples.length / SAMPLE_RATE,
          },
          model,
        ),
      );
      return;
    }
    for (const final of finals) {
      const around = () => withSilenceAround(samples, final.start, final.end);
      const heard = await this.recognition.hearAgain(this.userId, model, around, final);
      const own = () => encoderHears(samples, final.start, final.end);
      const result = this.result(
        await this.recognition.hearWithEncoder(model, own, heard),
        model,
        this.recordingId(),
      );
      this.socket.emit('recognition', result);
      await this.store(
        result,
        samples.subarray(Math.floor(final.start * SAMPLE_RATE), Math.ceil(final.end * SAMPLE_RATE)),
      );
    }
  }

  dispose() {
    const followed = this.followed;
    this.releaseStream();
    void followed?.then((stream) => this.recognition.endFollowing(stream));
  }

  /**
   * The person's newest profile, loaded as a stream or a whole utterance starts: answers they
   * confirmed since connecting retrain it, and they are heard with it at their next press,
   * not on their next page. The client is told its version with `model_ready`. A profile that
   * cannot be loaded leaves the one in use; one removed meanwhile (its phrases all deleted)
   * ends recognising, as it would on connecting.
   */
  private async newestModel(): Promise<LoadedModel | undefined> {
    let newest: LoadedModel | undefined;
    try {
      newest = await this.recognition.loadModel(this.userId);
    } catch (error) {
      if (!(error instanceof ProfileBeingRebuilt))
        this.log.warn({ err: error }, 'could not load a newer voice profile');
      return this.model;
    }
    if (!newest) {
      this.model = undefined;
      this.socket.emit('model_missing', { message: MODEL_MISSING_MESSAGE });
      return undefined;
    }
    if (newest.version !== this.model?.version) {
      this.model = newest;
      this.socket.emit('model_ready', { version: newest.version });
    }
    return newest;
  }

  private newStream(model: LoadedModel, room: ListeningRoom | undefined = this.room) {
    return new RecognitionStream(model.matcher, {
      room,
      ...(this.options.minSilence === undefined ? {} : { minSilence: this.options.minSilence }),
    });
  }

  private async emitEvents(
    events: StreamEvent[],
    model: LoadedModel,
    tally: StreamTally,
    kept: KeptAudio,
    ahead: EncoderViewAhead | undefined,
  ) {
    for (const event of events) {
      switch (event.type) {
        case 'partial':
          this.socket.emit('partial_recognition', { text: this.filter(event.text) });
          break;
        case 'final': {
          tally.answered = true;
          // Already heard again by the generic path where it follows the stream.
          const own = () => kept.heardByEncoder(event.start, event.end);
          const viewed = ahead?.viewOf(event.start, event.end);
          const heard = await this.recognition.hearWithEncoder(model, own, event, viewed);
          const result = this.result(heard, model, this.recordingId());
          this.socket.emit('recognition', result);
          await this.store(result, kept.slice(event.start, event.end));
          break;
        }
        case 'room-noise':
          this.socket.emit('room_noise', { too_loud: event.tooLoud, cause: event.cause });
          break;
        case 'speech-cancelled':
          // What was being heard was withdrawn (the room's, docs/decisions/0075, 0078): the
          // client stops showing its partial hypothesis. The room's steady sound alone is no
          // speech heard: such a press ends saying nothing was heard.
          if (event.steadyRoom !== true) tally.heardSpeech = true;
          this.socket.emit('partial_recognition', { text: '' });
          break;
        case 'speech-start':
          // Speech counts once it is answered or withdrawn as the room talking.
          break;
      }
    }
  }

  private result(final: Final, model: LoadedModel, recordingId: string | null = null): RecognitionResult {
    return {
      ...answerMarks(final),
      text: final.rejected || final.text === null ? null : this.filter(final.text),
      confidence: final.confidence,
      rejected: final.rejected,
      alternatives: final.alternatives.map((alternative) => ({
        text: this.filter(alternative.text),
        confidence: alternative.confidence,
      })),
      recognition_mode: this.options.mode,
      duration: Math.round((final.end - final.start) * 1000) / 1000,
      acoustic_model_id: model.version,
      confidence_threshold: model.matcher.profile.calibration.threshold,
      recording_id: recordingId,
    };
  }

  /** The id a result's recording will be kept under, given to the client so it can confirm it. */
  private recordingId() {
    return this.keepsRecognitions ? newId() : null;
  }

  private filter(text: string) {
    return this.options.filterProfanities ? maskProfanities(text) : text;
  }

  private async store(result: RecognitionResult, samples: Float32Array) {
    if (!result.recording_id) return;
    try {
      await this.recognition.store(result.recording_id, this.userId, result, samples, {
        provider: this.provider,
        mode: this.options.mode,
        ...this.context,
      });
    } catch (error) {
      // The person was understood; failing to keep a copy must not take that away.
      this.log.error({ err: error }, 'could not store a recognition recording');
    }
  }

  private releaseStream() {
    this.stream = undefined;
    this.streamModel = undefined;
    this.pressRefused = false;
    this.ahead = undefined;
    this.followed = undefined;
    // Opus carries state from packet to packet: the next stream starts a fresh decoder.
    this.opus?.free();
    this.opus = undefined;
    this.kept = new KeptAudio(STREAM_KEPT_SECONDS);
    if (activeStreams.get(this.userId) === this.socket.id) activeStreams.delete(this.userId);
  }

  private fail(message: string) {
    this.socket.emit('error', { message });
  }
}
