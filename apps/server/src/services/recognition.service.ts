import {
  answerMarks,
  DEFAULT_USER_SETTINGS,
  type RealtimeProvider,
  type RecognitionMode,
  type RecognitionResult,
  type UserSettings,
} from '@parla/contract';
import {
  deserializeEncoderViews,
  downmix,
  encodeWavPcm16,
  encoderHearsAgain,
  hearsAgain,
  knowsTheVoice,
  Matcher,
  recordedPhrases,
  resample,
  viewOfFinal,
  withEncoderOpinion,
  type EncoderTemplate,
  type HeardAgain,
  type Recognition,
  type RecognitionStream,
  type Sequence,
  type StreamEvent,
} from '@parla/speech';
import { voiceMeansFile } from '@parla/speech/node';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../errors.js';
import { decodeAudioFile } from './audio-decoding.js';
import { MAX_TAKE_SECONDS } from './take-inspection.js';
import { newId } from '../lib/crypto.js';
import type { PhrasesRepository } from '../repositories/phrases.repository.js';
import type { RecordingsRepository } from '../repositories/recordings.repository.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import type { BlobStorage } from '../storage/blob-storage.js';
import { earlierUpload, storeRecording } from './recording-store.js';
import type { AdaptedVoice, PersonHeard, SecondOpinionListener } from './second-opinion-listener.js';
import type { SpeechEncoderThread } from './speech-encoder.js';
import {
  encoderViewsKeyOf,
  MODEL_TYPE,
  voiceKeyOf,
  type VoiceProfileService,
} from './voice-profile.service.js';

export interface LoadedModel {
  matcher: Matcher;
  version: number;
  /** Whether the generic path knows this person's voice well enough to answer for their
   * phrases not recorded yet (judged when the profile was trained). */
  genericTrusted: boolean;
  /** The generic path's means adapted to the voice, which it was judged with (when it was). */
  voice: AdaptedVoice | undefined;
  /** The speech encoder's views of the profile's takes, for its third opinion; undefined
   * for a profile trained without them, or by another encoder or projection. */
  encoder: EncoderTemplate[] | undefined;
}

/** A live stream the generic path follows (started with the person's phrases). */
export interface FollowedStream {
  streamId: string;
}

/** Loaded profiles kept in memory; a user's streams share one. */
const CACHE_SIZE = 200;

/** What a kept utterance's upload key must name for a retry to find it. */
const RECOGNITION_UPLOAD = { kind: 'recognition' } as const;

/** Loads users' voice profiles for live recognition and keeps what was recognised. */
export class RecognitionService {
  private readonly cache = new Map<string, LoadedModel>();
  /** Whether the speech encoder was asked to load (`warmEncoder`). */
  private encoderWarmed = false;

  constructor(
    private readonly recordings: RecordingsRepository,
    private readonly users: UsersRepository,
    private readonly phrases: PhrasesRepository,
    private readonly storage: BlobStorage,
    private readonly secondOpinion: SecondOpinionListener,
    private readonly log: FastifyBaseLogger,
    private readonly profiles: Pick<VoiceProfileService, 'loadProfile'>,
    private readonly encoder: Pick<SpeechEncoderThread, 'view' | 'close'>,
  ) {}

  /**
   * The user's current profile, or undefined when none is built yet; a
   * `ProfileBeingRebuilt` when it cannot be read (it is then trained again).
   */
  async loadModel(userId: string): Promise<LoadedModel | undefined> {
    const model = await this.recordings.latestModel(userId, MODEL_TYPE);
    if (!model) return undefined;
    const cached = this.cache.get(userId);
    if (cached?.version === model.version) {
      // Refresh its place: the least recently used profile leaves first.
      this.cache.delete(userId);
      this.cache.set(userId, cached);
      return cached;
    }
    const matcher = new Matcher(await this.profiles.loadProfile(userId, model));
    const { genericTrusted, voice } = await this.genericPathFor(model);
    const encoder = await this.encoderViewsOf(model);
    if (encoder !== undefined) this.warmEncoder();
    const loaded = { matcher, version: model.version, genericTrusted, voice, encoder };
    this.cache.set(userId, loaded);
    if (this.cache.size > CACHE_SIZE) this.cache.delete(this.cache.keys().next().value ?? '');
    return loaded;
  }

  /**
   * Loads the speech encoder in its thread once the first profile it will hear is loaded, by
   * viewing a tenth of a second of silence: loaded at that person's first turned-away final
   * instead, it kept that answer 1.3 s (`bench:realtime`).
   */
  private warmEncoder(): void {
    if (this.encoderWarmed) return;
    this.encoderWarmed = true;
    this.encoder.view(new Float32Array(1600)).catch((error: unknown) => {
      // Loaded again at the first utterance it views.
      this.encoderWarmed = false;
      this.log.warn({ err: error }, 'the speech encoder could not be loaded ahead');
    });
  }

  /**
   * How the generic path hears the person: with the means adapted to their voice when it
   * was judged to know them with those (0128) and this build's engine reads them; otherwise
   * with the model's own, trusted as far as it was judged with them.
   */
  private async genericPathFor(model: {
    storage_key: string;
    meta: Record<string, unknown>;
  }): Promise<{ genericTrusted: boolean; voice: AdaptedVoice | undefined }> {
    if (knowsTheVoice(model.meta.voice_knows)) {
      const key = voiceKeyOf(model.storage_key);
      try {
        const means = await this.storage.get(key);
        // Means adapted from another build's model cannot be read: better found out here.
        await voiceMeansFile(means);
        return { genericTrusted: true, voice: { key, means } };
      } catch (error) {
        this.log.warn({ err: error, key }, 'the means adapted to a voice cannot be used');
      }
    }
    return { genericTrusted: knowsTheVoice(model.meta.generic_knows), voice: undefined };
  }

  /**
   * The speech encoder's views of a profile version's takes, when it was trained with them and
   * this build reads them; a file that cannot be read is logged, and the profile is heard
   * without the third opinion.
   */
  private async encoderViewsOf(model: {
    storage_key: string;
    meta: Record<string, unknown>;
  }): Promise<EncoderTemplate[] | undefined> {
    if (model.meta.encoder_views_bytes === undefined) return undefined;
    const key = encoderViewsKeyOf(model.storage_key);
    try {
      return deserializeEncoderViews(await this.storage.get(key));
    } catch (error) {
      this.log.warn({ err: error, key }, "the encoder's views of a profile cannot be used");
      return undefined;
    }
  }

  /** The speech encoder's view of an utterance's own samples, made in its worker thread. */
  viewWithEncoder(audio: Float32Array): Promise<Sequence> {
    return this.encoder.view(audio);
  }

  /**
   * A final still rejected after the generic path heard it, heard by the speech encoder: its
   * first guess is accepted when the encoder names it first, and clearly, among the person's
   * takes (`withEncoderOpinion`, docs/decisions/0144-0146). `utterance` gives the final's own
   * span (taken only then), unless its view was begun ahead (`viewedAhead`, 0148). The result
   * as it was for any other, for a profile without the encoder's views, or when the encoder
   * fails (logged).
   */
  async hearWithEncoder<R extends Recognition>(
    model: LoadedModel,
    utterance: () => Float32Array,
    result: HeardAgain<R>,
    viewedAhead?: Promise<Sequence>,
  ): Promise<HeardAgain<R>> {
    if (model.encoder === undefined || !encoderHearsAgain(result, model.encoder)) return result;
    const view = viewOfFinal(viewedAhead, utterance, (audio) => this.viewWithEncoder(audio));
    if (view === undefined) return result;
    try {
      return withEncoderOpinion(result, await view, model.encoder);
    } catch (error) {
      this.log.error({ err: error }, 'the speech encoder could not hear an utterance');
      return result;
    }
  }

  /**
   * An utterance the profile rejected or accepted in doubt, heard again by the generic path
   * among the person's phrases (`withSecondOpinion`: decisions 0102-0104), for a voice it knows;
   * `utterance` gives its audio (taken only then). The profile's result as it was for any
   * other result, a voice it does not know, no audio, or when the generic path fails (logged).
   */
  async hearAgain<R extends Recognition>(
    userId: string,
    model: LoadedModel,
    utterance: () => Float32Array,
    result: R,
  ): Promise<HeardAgain<R>> {
    if (!model.genericTrusted || !hearsAgain(result)) return result;
    const audio = utterance();
    if (audio.length === 0) return result;
    const person = await this.personHeard(userId, model);
    try {
      // Back from the worker thread with every field it was sent with.
      return (await this.secondOpinion.hear({ ...person, audio, result })) as HeardAgain<R>;
    } catch (error) {
      this.log.error({ err: error }, 'the generic path could not hear an utterance');
      return result;
    }
  }

  /**
   * The generic path made ready to hear the person, for a voice it knows, as their profile is
   * selected: their engine loads before they speak, not as their first audio arrives. Never
   * fails: a failure is logged, and the engine loads when it is first needed, as without this.
   */
  async getGenericPathReady(userId: string, model: LoadedModel) {
    if (!model.genericTrusted) return;
    try {
      await this.secondOpinion.getReady(await this.personHeard(userId, model));
    } catch (error) {
      this.log.error({ err: error }, 'the generic path could not get ready for a person');
    }
  }

  /** The person as the generic path hears them: their voice, their phrases, those recorded. */
  private async personHeard(userId: string, model: LoadedModel): Promise<PersonHeard> {
    const phrases = (await this.phrases.list(userId, {})).map((phrase) => phrase.text);
    return { userId, voice: model.voice, phrases, recorded: recordedPhrases(model.matcher.profile) };
  }

  /**
   * A live stream the generic path follows from before each end-point (`HearingAhead`,
   * decision 0105), for a voice it knows; undefined for any other, or when the person's
   * phrases cannot be read or the generic path cannot start (logged). The phrases are read
   * once, as the stream starts, and go to the generic path then.
   */
  async followStream(userId: string, model: LoadedModel): Promise<FollowedStream | undefined> {
    if (!model.genericTrusted) return undefined;
    try {
      const streamId = newId();
      await this.secondOpinion.startStream({ streamId, ...(await this.personHeard(userId, model)) });
      return { streamId };
    } catch (error) {
      this.log.error({ err: error }, 'the generic path could not start following a stream');
      return undefined;
    }
  }

  /**
   * A followed stream's newest audio and the profile's events for it: its finals answered
   * by the generic path (decisions 0102-0105); the events as they were for a stream not
   * followed, or when the generic path fails (logged).
   */
  async follow(
    followed: FollowedStream | undefined,
    samples: Float32Array,
    events: StreamEvent[],
    stream: RecognitionStream,
  ): Promise<StreamEvent[]> {
    if (followed === undefined) return events;
    const { speechUntil, expected, lastEnded } = stream;
    try {
      return await this.secondOpinion.follow({
        streamId: followed.streamId,
        samples,
        events,
        progress: { speechUntil, expected, lastEnded },
      });
    } catch (error) {
      this.log.error({ err: error }, 'the generic path could not follow a stream');
      return events;
    }
  }

  /** A followed stream is over. */
  async endFollowing(followed: FollowedStream | undefined) {
    if (followed === undefined) return;
    await this.secondOpinion.endStream(followed.streamId).catch((error: unknown) => {
      this.log.error({ err: error }, 'the generic path could not end a stream');
    });
  }

  /** Stops the generic path's engine and the speech encoder (server shutdown). */
  async close() {
    await Promise.all([this.secondOpinion.close(), this.encoder.close()]);
  }

  /** Whether the account may use this recognition provider (providers_enabled). */
  async providerEnabled(userId: string, provider: RealtimeProvider) {
    const user = await this.users.findById(userId);
    return user?.providers_enabled.includes(provider) ?? false;
  }

  /**
   * The person's saved recognition settings. An end-point silence applies only when they
   * chose one: otherwise the profile's own, learned from the pauses in their takes.
   */
  async userDefaults(userId: string) {
    const user = await this.users.findById(userId);
    const saved: Partial<UserSettings> = user?.settings ?? {};
    return {
      minSilence: saved.min_silence_length_seconds,
      filterProfanities: saved.filter_profanities ?? DEFAULT_USER_SETTINGS.filter_profanities,
      /** Whether recognised utterances are kept (and so can be confirmed to train the profile). */
      keepsRecognitions: user ? !user.opt_out_audio_recognition : false,
    };
  }

  /** Whether the user still has to accept the terms or the privacy policy. */
  async needsConsent(userId: string) {
    const user = await this.users.findById(userId);
    return !user?.accepted_tos_at || !user.accepted_privacy_policy_at;
  }

  /**
   * Keeps a final result as a recognition recording (spec section 3), with its audio and
   * under the id the client was given, unless the user opted out of keeping recognition audio.
   */
  async store(
    id: string,
    userId: string,
    result: RecognitionResult,
    samples: Float32Array,
    context: {
      provider: RealtimeProvider;
      mode: RecognitionMode;
      appBuild?: string | undefined;
      scenarioId?: string | undefined;
    },
  ) {
    await this.keep(id, userId, samples, {
      text: result.text,
      type: context.mode,
      recording_date: new Date().toISOString(),
      duration: result.duration,
      provider_id: context.provider,
      scenario_id: context.scenarioId ?? null,
      app_build: context.appBuild ?? null,
      language: 'en-US',
      acoustic_model_id: result.acoustic_model_id,
      recognition_mode: context.mode,
      confidence: result.confidence,
      confidence_threshold: result.confidence_threshold,
      rejected: result.rejected,
      ...answerMarks(result),
    });
  }

  /**
   * Keeps a result the browser recognised locally, with its audio (spec: POST
   * /app/recording/recognition). A retry of an upload kept already answers for it.
   */
  async storeLocalResult(
    userId: string,
    result: Record<string, unknown> & { text: string | null },
    audio: Uint8Array,
    uploadKey?: string,
  ) {
    const earlier = await earlierUpload(this.recordings, userId, uploadKey, RECOGNITION_UPLOAD);
    if (earlier) return { id: earlier.id, stored: true };
    const decoded = await decodeAudioFile(audio);
    const samples = resample(downmix(decoded), decoded.sampleRate, 16_000);
    if (samples.length > MAX_TAKE_SECONDS * 16_000) {
      throw new AppError(
        413,
        `Recordings can be at most ${MAX_TAKE_SECONDS} seconds long.`,
        'AUDIO_TOO_LONG',
      );
    }
    const id = await this.keep(newId(), userId, samples, { local: true, ...result }, uploadKey);
    return { id, stored: id !== null };
  }

  /**
   * Stores the audio and its recognition row; null when the user keeps no recognition
   * audio. With an `uploadKey` another try of the upload has just kept, the id of that one.
   */
  private async keep(
    id: string,
    userId: string,
    samples: Float32Array,
    metadata: Record<string, unknown>,
    uploadKey: string | null = null,
  ) {
    const user = await this.users.findById(userId);
    if (!user || user.opt_out_audio_recognition) return null;
    const row = {
      id,
      user_id: userId,
      phrase_id: null,
      kind: 'recognition' as const,
      storage_key: `users/${userId}/recognitions/${id}.wav`,
      duration_ms: Math.round((samples.length / 16_000) * 1000),
      metadata: { file_ext: 'wav', ...metadata },
      upload_key: uploadKey,
    };
    const wav = encodeWavPcm16(samples, 16_000);
    const { earlier } = await storeRecording(this.storage, this.recordings, row, wav, RECOGNITION_UPLOAD);
    return earlier?.id ?? id;
  }
}
