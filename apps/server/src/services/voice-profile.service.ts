import {
  MAX_PHRASE_LENGTH,
  TASK_RECOGNITION_UNLOCKED,
  type ImportReport,
  type ModelInfo,
  type RecordingState,
} from '@parla/contract';
import {
  checkProfileFile,
  CONFIRMATIONS_PER_RETRAIN,
  decodeTakeView,
  decodeWav,
  downmix,
  encodeWavPcm16,
  encoderJudgesAmong,
  holdsItsRoom,
  isCurrentTakeAnalysis,
  SpeechError,
  takesForTraining,
  takesToAdaptOn,
  type Profile,
} from '@parla/speech';
import type { FastifyBaseLogger } from 'fastify';
import { AppError, gone, notFound } from '../errors.js';
import { newId, sha256 } from '../lib/crypto.js';
import type { Job, JobQueue } from '../jobs/job-queue.js';
import type { TakeToTrain } from '../jobs/train-profile.js';
import { TrainingWorkers } from '../jobs/training-runner.js';
import type { PhrasesRepository } from '../repositories/phrases.repository.js';
import type { RecordingsRepository } from '../repositories/recordings.repository.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import { BlobMissing, type BlobStorage } from '../storage/blob-storage.js';
import type { ImportFile } from './import-archive.js';
import { DEFAULT_SCENARIO } from './phrases.service.js';
import { UnreadableAudio } from './audio-decoding.js';
import { inspectTake, type InspectedTake } from './take-inspection.js';
import { ProfileLoader } from './profile-loader.js';
import { earlierUpload, storeRecording } from './recording-store.js';

export const TRAIN_PROFILE_JOB = 'train_profile';
export const MODEL_TYPE = 'acoustic';
export const MODEL_PROVIDER = 'casr';
/** Takes that arrive within this time of each other lead to one retrain. */
const RETRAIN_DELAY_MS = 1500;
/**
 * What a first profile needs: one phrase alone gives nothing to tell apart, and a first
 * take or two would make the profile (and its unlock notice) arrive in the middle of the
 * first recording session.
 */
export const FIRST_PROFILE_MINIMUM = { phrases: 2, takes: 6 } as const;

/**
 * What a person is told while a profile that could not be read is trained again: the app
 * shows it after its own "Your voice profile could not be loaded."
 */
export const PROFILE_REBUILDING_MESSAGE =
  'Its file was damaged, so your voice profile is being made again from your recordings. Try again in a minute.';

/** An answer to a recognised utterance that another answer to it came before. */
const answeredOtherwise = () =>
  new AppError(409, 'This utterance was already answered otherwise', 'ALREADY_CONFIRMED');

/**
 * Whether loading a stored profile failed for good: its file is gone, or its bytes are
 * refused (damaged, or a format this build cannot read). Its takes can make it again.
 */
function isUnreadableProfile(error: unknown): boolean {
  return error instanceof BlobMissing || (error instanceof SpeechError && error.code === 'bad_model');
}

/** The person's newest profile cannot be read, and is being trained again from their takes. */
export class ProfileBeingRebuilt extends Error {
  constructor() {
    super('The voice profile cannot be read: it is being trained again.');
    this.name = 'ProfileBeingRebuilt';
  }
}

export interface VoiceProfileDeps {
  phrases: PhrasesRepository;
  recordings: RecordingsRepository;
  users: UsersRepository;
  storage: BlobStorage;
  jobs: JobQueue;
  log: FastifyBaseLogger;
  /** Loads profiles for recognition off the thread that serves streams; by default inline. */
  loader?: ProfileLoader;
}

/** Training takes in, personal voice profiles out. */
export class VoiceProfileService {
  private readonly loader: ProfileLoader;
  private readonly trainer = new TrainingWorkers();

  constructor(private readonly deps: VoiceProfileDeps) {
    this.loader = deps.loader ?? new ProfileLoader(undefined);
  }

  async close(): Promise<void> {
    await Promise.all([this.loader.close(), this.trainer.close()]);
  }

  /** Stores a checked take of a phrase and schedules a retrain; the current model stays in use meanwhile. */
  async addTrainingTake(userId: string, phraseId: string, audio: Uint8Array, info: Record<string, unknown>) {
    const phrase = await this.deps.phrases.find(userId, phraseId);
    if (!phrase) throw notFound('Phrase');
    const { upload_key: uploadKey, ...rest } = info;
    const key = typeof uploadKey === 'string' ? uploadKey : null;
    // A retry of an upload the server already has: the take was counted in `phrase.takes`.
    const earlier = await earlierUpload(this.deps.recordings, userId, key, { kind: 'training', phraseId });
    if (earlier)
      return { id: earlier.id, phrase_id: phraseId, duration_ms: earlier.duration_ms, takes: phrase.takes };
    const stored = await this.storeTake(userId, phraseId, await inspectTake(audio), rest, key);
    return { ...stored, takes: phrase.takes + 1 };
  }

  /**
   * Keeps a checked take as the 16 kHz WAV that training reads, and schedules a retrain;
   * with an `uploadKey` another try of the upload has just kept, answers for that take.
   */
  private async storeTake(
    userId: string,
    phraseId: string,
    take: InspectedTake,
    info: Record<string, unknown>,
    uploadKey: string | null = null,
  ) {
    const id = newId();
    const row = {
      id,
      user_id: userId,
      phrase_id: phraseId,
      kind: 'training' as const,
      storage_key: `users/${userId}/takes/${id}.wav`,
      duration_ms: take.durationMs,
      metadata: { ...info, peak_dbfs: Math.round(take.peakDbfs * 10) / 10 },
      upload_key: uploadKey,
    };
    // Stored as 16 kHz mono PCM: what training reads, whatever the browser sent.
    const wav = encodeWavPcm16(take.samples, 16_000);
    const upload = { kind: 'training', phraseId } as const;
    const { earlier } = await storeRecording(this.deps.storage, this.deps.recordings, row, wav, upload);
    await this.deps.jobs.enqueue(TRAIN_PROFILE_JOB, userId, {}, RETRAIN_DELAY_MS);
    const kept = earlier ?? row;
    return { id: kept.id, phrase_id: phraseId, duration_ms: kept.duration_ms };
  }

  /**
   * The person says what they meant by a recognised utterance: the recognised phrase or
   * the one they pick instead. The utterance becomes a take of that phrase, so the profile
   * learns how they say it in everyday use, not only in recording sessions.
   */
  async confirmRecognition(userId: string, recordingId: string, text: string) {
    const recording = await this.ownRecognition(userId, recordingId);
    const phrase = await this.deps.phrases.findByText(userId, text.trim());
    if (!phrase) throw new AppError(422, 'text: choose one of your phrases', 'UNKNOWN_PHRASE');
    const kept = await this.keepUtterance(userId, recording, phrase.id, { confirmed_text: text.trim() });
    return { take_id: kept.takeId, phrase_id: phrase.id, retrain_scheduled: kept.retrain };
  }

  /**
   * The person says an utterance that got an answer was none of their phrases. It becomes
   * a take without a phrase, which teaches the profile to reject what sounds like it
   * instead of saying the wrong phrase again.
   */
  async markUnknown(userId: string, recordingId: string) {
    const recording = await this.ownRecognition(userId, recordingId);
    const kept = await this.keepUtterance(userId, recording, null, { marked_unknown: true });
    return { take_id: kept.takeId, retrain_scheduled: kept.retrain };
  }

  /** One of the user's kept recognitions; another user's is never found. */
  private async ownRecognition(userId: string, recordingId: string) {
    const recording = await this.deps.recordings.findOwn(userId, recordingId, 'recognition');
    if (!recording) throw notFound('Recording');
    return recording;
  }

  /**
   * Copies a recognised utterance into a take (of `phraseId`, or of none when marked
   * unknown), notes it on the recognition, and retrains once enough have gathered. The
   * same answer again (a retry whose reply was lost, or two at once) answers for the take
   * the first made; another answer is a conflict.
   */
  private async keepUtterance(
    userId: string,
    recording: { id: string; storage_key: string; metadata: Record<string, unknown> | null },
    phraseId: string | null,
    note: Record<string, unknown>,
  ) {
    const before = await this.earlierAnswer(userId, recording, phraseId);
    if (before) return before;
    const take = await this.utteranceAudio(recording.storage_key);
    const takeId = newId();
    const row = {
      id: takeId,
      user_id: userId,
      phrase_id: phraseId,
      kind: 'training' as const,
      storage_key: `users/${userId}/takes/${takeId}.wav`,
      duration_ms: take.durationMs,
      metadata: {
        source: phraseId === null ? 'unknown' : 'confirmed',
        recognition_id: recording.id,
        peak_dbfs: Math.round(take.peakDbfs * 10) / 10,
      },
      // One take per utterance, whichever of two answers at once gets there first.
      upload_key: `answer:${recording.id}`,
    };
    const wav = encodeWavPcm16(take.samples, 16_000);
    const answer = { kind: 'training', phraseId, otherwise: answeredOtherwise } as const;
    const { earlier } = await storeRecording(this.deps.storage, this.deps.recordings, row, wav, answer);
    if (earlier) return { takeId: earlier.id, retrain: false };
    await this.deps.recordings.updateMetadata(recording.id, {
      ...recording.metadata,
      ...note,
      confirmed_take_id: takeId,
    });
    const model = await this.deps.recordings.latestModel(userId, MODEL_TYPE);
    const waiting = await this.deps.recordings.countConfirmedTakesSince(userId, model?.created_at);
    const retrain = waiting >= CONFIRMATIONS_PER_RETRAIN;
    if (retrain) await this.deps.jobs.enqueue(TRAIN_PROFILE_JOB, userId, {}, RETRAIN_DELAY_MS);
    return { takeId, retrain };
  }

  /** The take an earlier answer made of a recognised utterance, when it was this answer. */
  private async earlierAnswer(
    userId: string,
    recording: { metadata: Record<string, unknown> | null },
    phraseId: string | null,
  ) {
    const takeId = recording.metadata?.confirmed_take_id;
    if (typeof takeId !== 'string') return undefined;
    const take = await this.deps.recordings.findOwn(userId, takeId, 'training');
    if (take?.phrase_id !== phraseId) throw answeredOtherwise();
    return { takeId, retrain: false };
  }

  /**
   * A kept utterance's audio, checked as a take is. A file that is gone or no longer audio
   * is a 410: the answer cannot teach the profile, and asking again will not change that.
   */
  private async utteranceAudio(storageKey: string) {
    try {
      return await inspectTake(await this.deps.storage.get(storageKey));
    } catch (error) {
      if (!(error instanceof BlobMissing || error instanceof UnreadableAudio)) throw error;
      throw gone(
        'The recording of this utterance can no longer be read, so it cannot teach your voice profile.',
        'RECORDING_GONE',
      );
    }
  }

  /**
   * Imports existing recordings with their transcripts: each file becomes a take of the
   * phrase it says (made when new). Every file is accounted for: imported, or refused with why.
   */
  async importTakes(
    userId: string,
    source: string,
    files: ImportFile[],
    transcripts: Map<string, string>,
    scenarioId: string | undefined,
  ): Promise<ImportReport> {
    const scenario = scenarioId ?? (await this.deps.phrases.activeScenario(userId)) ?? DEFAULT_SCENARIO;
    if (!(await this.deps.phrases.scenarioExists(scenario))) throw notFound('Scenario');
    const report: ImportReport = { imported: [], refused: [] };
    for (const file of files) {
      // The audio first: a file that is not a recording is refused as such, whatever
      // its transcript says or lacks.
      let take: InspectedTake;
      try {
        take = await inspectTake(file.bytes);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        report.refused.push({ file: file.name, reason: error.message });
        continue;
      }
      const named = transcripts.get(file.name) ?? transcripts.get(file.name.replace(/\.[^.]+$/, ''));
      // Voice Memos exports each memo under its title: the title is what was said.
      const titled = source === 'apple' && named === undefined ? memoTitle(file.name) : undefined;
      const text = (named ?? titled?.text)?.trim();
      if (!text) {
        report.refused.push({
          file: file.name,
          reason: titled?.reason ?? 'No transcript names this file.',
        });
        continue;
      }
      if (text.length > MAX_PHRASE_LENGTH) {
        report.refused.push({
          file: file.name,
          reason: `The transcript is longer than ${MAX_PHRASE_LENGTH} characters.`,
        });
        continue;
      }
      // The same file imported again (an archive sent twice) would weigh double in training,
      // and two identical takes would pass for the closest of repetitions.
      const uploadKey = `import:${sha256(file.bytes)}`;
      if (await this.deps.recordings.findByUploadKey(userId, uploadKey)) {
        report.refused.push({
          file: file.name,
          reason: 'This recording is among your takes already.',
          code: 'ALREADY_IMPORTED',
        });
        continue;
      }
      const phraseId = await this.phraseFor(userId, text, scenario);
      await this.storeTake(userId, phraseId, take, { source, file: file.name }, uploadKey);
      // Such a take alone teaches the profile little of how the person sounds live: the
      // report says so, and the app asks for a take recorded in it (docs/decisions/0116).
      const cutClose = !holdsItsRoom(take.samples);
      report.imported.push({ file: file.name, text, phrase_id: phraseId, cut_close: cutClose });
    }
    return report;
  }

  private async phraseFor(userId: string, text: string, scenarioId: string) {
    const existing = await this.deps.phrases.findByText(userId, text);
    if (existing) return existing.id;
    const id = newId();
    await this.deps.phrases.insert({
      id,
      user_id: userId,
      text,
      language: 'en-US',
      scenario_id: scenarioId,
      source: 'custom',
      dataset_phrase_id: null,
    });
    return id;
  }

  /**
   * The job: trains a new version of the user's profile from their takes: all they
   * recorded or imported, and the latest confirmed utterances of each phrase (older
   * confirmed takes stay stored, they just no longer shape the profile).
   */
  async train(job: Job) {
    const userId = job.userId;
    if (!userId) return;
    const takes = takesForTraining(
      (await this.deps.recordings.trainingTakes(userId, { readable: true })).map((take) => {
        // A take without a phrase is an utterance marked as none of the person's phrases.
        const unknown = take.text === null;
        return {
          ...take,
          text: take.text ?? '',
          unknown,
          confirmed: unknown || take.metadata?.source === 'confirmed',
        };
      }),
    );
    const phraseTakes = takes.filter((take) => !take.unknown);
    const previous = await this.deps.recordings.latestModel(userId, MODEL_TYPE);
    if (phraseTakes.length === 0) {
      // Every phrase went with its takes: a profile made from them would still answer with
      // them, so it goes too, and recognition waits for new takes.
      if (previous) await this.deleteVersionsUpTo(job, userId, previous.version);
      return;
    }
    if (
      !previous &&
      !meetsFirstProfileMinimum(phraseTakes.length, new Set(phraseTakes.map((take) => take.phrase_id)).size)
    ) {
      this.deps.log.info({ job: job.id }, 'not enough takes for a first profile yet');
      return;
    }
    // A take's audio never changes: its analysis and the speech encoder's view of it (a
    // phrase take's) are kept beside it after the first training and read back instead of
    // made again (docs/decisions/0073, 0146). A take that can be read neither way is left
    // out: one lost file must not stop every training after it.
    // Views are made and read only among enough phrases for the encoder to be asked.
    const viewed = encoderJudgesAmong(phraseTakes.map((take) => take.text));
    const read = await Promise.all(
      takes.map(async (take): Promise<TakeToTrain | undefined> => {
        const analysis = await this.keptBeside(analysisKeyOf(take.storage_key), isCurrentTakeAnalysis);
        const encoderView =
          take.unknown || !viewed
            ? undefined
            : await this.keptBeside(encoderViewKeyOf(take.storage_key), isCurrentTakeView);
        const kept: TakeToTrain = {
          text: take.text,
          unknown: take.unknown,
          ...(analysis === undefined ? {} : { analysis }),
          ...(encoderView === undefined ? {} : { encoderView }),
        };
        if (analysis !== undefined && (take.unknown || !viewed || encoderView !== undefined)) return kept;
        const audio = await this.takeAudio(job, take);
        return audio === undefined ? undefined : { ...kept, audio };
      }),
    );
    const usable = takes.filter((_, i) => read[i] !== undefined);
    const items = read.filter((item) => item !== undefined);
    // The generic path is adapted to the person's voice and judged on it with every phrase
    // they have: it may answer for those not recorded yet only if it names their recorded
    // ones well (0102, 0128).
    const judge = {
      phrases: (await this.deps.phrases.list(userId, {})).map((phrase) => phrase.text),
      takes: (
        await takesToAdaptOn(
          usable.filter((take) => !take.unknown),
          // A take training decodes anyway (it has no kept analysis yet) is not read twice.
          async (take) => items[usable.indexOf(take)]?.audio ?? (await this.takeAudio(job, take)),
        )
      ).map(({ text, audio }) => ({ text, audio })),
    };
    let trained;
    try {
      trained = await this.trainer.train({ takes: items, judge });
    } catch (error) {
      if (error instanceof SpeechError) {
        this.deps.log.warn({ job: job.id, reason: error.code }, 'not enough to train on yet');
        return;
      }
      throw error;
    }
    // Before the model is announced: once it is, the user's files are all in place.
    const takeKeys = usable.map((take) => take.storage_key);
    await this.keepBeside(job, takeKeys.map(analysisKeyOf), trained.analyses, 'a take analysis');
    const encoder = trained.encoderViews;
    if (encoder !== undefined)
      await this.keepBeside(
        job,
        takeKeys.map(encoderViewKeyOf),
        encoder.made,
        "the encoder's view of a take",
      );
    if (trained.encoderFailed !== undefined)
      this.deps.log.warn({ job: job.id, reason: trained.encoderFailed }, 'the speech encoder could not run');
    const version = (previous?.version ?? 0) + 1;
    const id = newId();
    const storageKey = `users/${userId}/models/${MODEL_TYPE}-${version}.bin`;
    await this.deps.storage.put(storageKey, trained.bytes);
    // The generic path's means adapted to the voice, kept beside the profile they go with.
    const voice = trained.voice;
    if (voice !== undefined) await this.deps.storage.put(voiceKeyOf(storageKey), voice.means);
    // The encoder's views of its takes, for its third opinion (docs/decisions/0146).
    if (encoder?.file !== undefined) await this.deps.storage.put(encoderViewsKeyOf(storageKey), encoder.file);
    const announced = await this.announceModel(userId, {
      id,
      user_id: userId,
      version,
      type: MODEL_TYPE,
      provider: MODEL_PROVIDER,
      storage_key: storageKey,
      size_bytes: trained.bytes.byteLength,
      meta: {
        phrases: trained.phrases,
        takes: trained.takes,
        bytes_per_take: Math.round(trained.bytes.byteLength / trained.takes),
        train_ms: trained.trainMs,
        model_format: trained.modelFormat,
        ...(trained.genericKnows === undefined
          ? {}
          : {
              generic_knows: roundedShare(trained.genericKnows),
              judge_ms: trained.judgeMs,
              // Null: adapting was tried and no take could be aligned (see trainedBeforeVoices).
              voice_knows: voice === undefined ? null : roundedShare(voice.knows),
            }),
        ...(voice === undefined ? {} : { voice_bytes: voice.means.byteLength, adapt_ms: voice.adaptMs }),
        ...(encoder?.file === undefined
          ? {}
          : { encoder_views_bytes: encoder.file.byteLength, encoder_ms: encoder.ms }),
      },
    });
    if (!announced) return;
    if (!previous) {
      await this.deps.users.addTask(userId, TASK_RECOGNITION_UNLOCKED);
      return;
    }
    await this.pruneVersionsBefore(job, userId, previous);
  }

  /**
   * Only the newest version is heard with, so the ones before it go: the version just before
   * keeps its profile for a browser that was downloading it as the new one was announced (it
   * moves on at its next look at `model_links`), but not its adapted means (180-340 KB, which
   * such a browser does without); older versions go altogether, rows and files (a profile of
   * 600 takes is 1.6 MB, and a person retrains after every few takes and answers).
   */
  private async pruneVersionsBefore(
    job: Job,
    userId: string,
    previous: { version: number; storage_key: string },
  ) {
    const older = await this.deps.recordings.deleteModelsBefore(userId, MODEL_TYPE, previous.version);
    await this.deleteModelFiles(job, [
      voiceKeyOf(previous.storage_key),
      encoderViewsKeyOf(previous.storage_key),
      ...older.flatMap(({ storage_key }) => filesOfVersion(storage_key)),
    ]);
  }

  /** Removes the user's profile versions up to `version`, rows and files. */
  private async deleteVersionsUpTo(job: Job, userId: string, version: number) {
    const versions = await this.deps.recordings.deleteModelsBefore(userId, MODEL_TYPE, version + 1);
    await this.deleteModelFiles(
      job,
      versions.flatMap(({ storage_key }) => filesOfVersion(storage_key)),
    );
  }

  /** Removes profile versions' files; one that cannot be removed is logged and left. */
  private async deleteModelFiles(job: Job, keys: readonly string[]) {
    await Promise.all(
      keys.map((key) =>
        this.deps.storage.delete(key).catch((error: unknown) => {
          this.deps.log.warn(
            { job: job.id, err: error },
            'could not remove a file of a past profile version',
          );
        }),
      ),
    );
  }

  /**
   * Records a trained model, or, when the account was deleted while the job trained (its
   * rows are gone, so the model's cannot be added), removes the files the job wrote after
   * the account's folder was: nothing of a deleted account may stay behind.
   */
  private async announceModel(userId: string, row: Parameters<RecordingsRepository['insertModel']>[0]) {
    try {
      await this.deps.recordings.insertModel(row);
      return true;
    } catch (error) {
      if (await this.deps.users.findById(userId)) throw error;
      await this.deleteAllFilesOf(userId);
      return false;
    }
  }

  /**
   * A take's audio as training reads it; undefined when it cannot be read (its file gone, or
   * no longer audio). Such a take is marked (`READABLE_TAKE`): no training reads it again,
   * and its phrase counts one take fewer, so the app asks for another. Its row stays.
   */
  private async takeAudio(
    job: Job,
    take: { id: string; storage_key: string; metadata: Record<string, unknown> | null },
  ) {
    try {
      return downmix(decodeWav(await this.deps.storage.get(take.storage_key)));
    } catch (error) {
      if (!(error instanceof BlobMissing || error instanceof SpeechError)) throw error;
      this.deps.log.warn(
        { job: job.id, take: take.id, err: error },
        'a take cannot be read: trained without it, and its phrase asks for another',
      );
      await this.deps.recordings.updateMetadata(take.id, { ...take.metadata, unreadable: true });
      return undefined;
    }
  }

  /** What is kept beside a take at `key`, when there is something this build can read. */
  private async keptBeside(
    key: string,
    readable: (bytes: Uint8Array) => boolean,
  ): Promise<Uint8Array | undefined> {
    const bytes = await this.deps.storage.get(key).catch(() => undefined);
    return bytes !== undefined && readable(bytes) ? bytes : undefined;
  }

  /**
   * Keeps what a training made of takes (`made[i]` at `keys[i]`; null: nothing made); one
   * that fails to store (`what`) is only made again next time.
   */
  private async keepBeside(
    job: Job,
    keys: readonly string[],
    made: readonly (Uint8Array | null)[],
    what: string,
  ) {
    await Promise.all(
      made.map(async (bytes, i) => {
        if (bytes === null) return;
        await this.deps.storage.put(keys[i] as string, bytes).catch((error: unknown) => {
          this.deps.log.warn({ job: job.id, err: error }, `could not keep ${what}`);
        });
      }),
    );
  }

  async modelsInfo(userId: string): Promise<{ models: ModelInfo[]; recording_state: RecordingState }> {
    const model = await this.deps.recordings.latestModel(userId, MODEL_TYPE);
    // Every client asks this as the app opens: the moment to bring an old profile up to date.
    if (
      model !== undefined &&
      trainedBeforeVoices(model.meta) &&
      // Once: the app asks again while that training runs.
      !(await this.deps.jobs.isPending(TRAIN_PROFILE_JOB, userId))
    ) {
      this.deps.log.info(
        { userId, version: model.version },
        'retraining a profile made before voice adaptation',
      );
      await this.deps.jobs.enqueue(TRAIN_PROFILE_JOB, userId, {}, RETRAIN_DELAY_MS);
    }
    const models: ModelInfo[] = model
      ? [
          {
            version: model.version,
            type: model.type,
            provider: model.provider,
            links: { model: modelUrl(model.id, model.version) },
            modelmeta: {
              ...model.meta,
              size_bytes: model.size_bytes,
              created_at: model.created_at.toISOString(),
            },
          },
        ]
      : [];
    return { models, recording_state: await this.recordingState(userId, model !== undefined) };
  }

  async modelLinks(userId: string) {
    const model = await this.deps.recordings.latestModel(userId, MODEL_TYPE);
    if (!model) return { version: null, links: [] };
    const voiceBytes = model.meta.voice_bytes;
    const viewsBytes = model.meta.encoder_views_bytes;
    return {
      version: model.version,
      links: [
        {
          name: 'profile',
          type: model.type,
          url: modelUrl(model.id, model.version),
          size_bytes: model.size_bytes,
        },
        // The generic recogniser's means adapted to the voice, when training made some (0128).
        ...(typeof voiceBytes === 'number'
          ? [
              {
                name: 'voice',
                type: model.type,
                url: fileUrl(model.id, model.version, 'voice'),
                size_bytes: voiceBytes,
              },
            ]
          : []),
        // The speech encoder's views of the takes, when training made some (0146, 0147).
        ...(typeof viewsBytes === 'number'
          ? [
              {
                name: 'views',
                type: model.type,
                url: fileUrl(model.id, model.version, 'views'),
                size_bytes: viewsBytes,
              },
            ]
          : []),
      ],
    };
  }

  /** A model version's file: its profile, the generic recogniser's means adapted to the
   * voice, or the speech encoder's views of its takes. */
  async modelFile(userId: string, modelId: string, file: ModelFileName = 'profile') {
    const model = await this.deps.recordings.findModel(userId, modelId);
    if (!model) throw notFound('Model');
    if (file === 'profile') {
      // A browser that cached a damaged profile would be stuck with it for good (its files
      // never change): one that cannot be read is made again instead of sent.
      try {
        // Checked, not loaded: loading a 200-phrase profile holds the thread every stream is
        // served on for 50-100 ms, its check (the seal's sum) for a few.
        const bytes = await this.readProfile(userId, model, (file) => {
          checkProfileFile(file);
          return file;
        });
        return { bytes, version: model.version };
      } catch (error) {
        if (error instanceof ProfileBeingRebuilt)
          throw new AppError(503, PROFILE_REBUILDING_MESSAGE, 'PROFILE_REBUILDING');
        throw error;
      }
    }
    // A past version's adapted means and views are gone (see train), as are those training
    // made none of.
    const [made, key] =
      file === 'voice'
        ? [model.meta.voice_bytes, voiceKeyOf(model.storage_key)]
        : [model.meta.encoder_views_bytes, encoderViewsKeyOf(model.storage_key)];
    const bytes =
      typeof made === 'number' ? await this.deps.storage.get(key).catch(() => undefined) : undefined;
    if (bytes === undefined) throw notFound('Model');
    return { bytes, version: model.version };
  }

  /**
   * A version of the person's profile read from storage, and `use`d (loaded for recognition,
   * or checked with `checkProfileFile` and sent). One that cannot be read
   * (`isUnreadableProfile`) is trained again from their takes, which are kept apart from it,
   * unless that training is queued or running; a {@link ProfileBeingRebuilt} says so.
   */
  async readProfile<T>(
    userId: string,
    model: { version: number; storage_key: string },
    use: (bytes: Uint8Array) => T | Promise<T>,
  ): Promise<T> {
    try {
      return await use(await this.deps.storage.get(model.storage_key));
    } catch (error) {
      if (!isUnreadableProfile(error)) throw error;
      if (!(await this.deps.jobs.isPending(TRAIN_PROFILE_JOB, userId))) {
        this.deps.log.error(
          { err: error, userId, version: model.version },
          'a voice profile cannot be read: training it again',
        );
        await this.deps.jobs.enqueue(TRAIN_PROFILE_JOB, userId, {});
      }
      throw new ProfileBeingRebuilt();
    }
  }

  /** A version of the person's profile, loaded for recognition ({@link readProfile}). */
  loadProfile(userId: string, model: { version: number; storage_key: string }): Promise<Profile> {
    return this.readProfile(userId, model, (bytes) => this.loader.load(bytes));
  }

  /** Deletes a phrase with its takes (rows and files); the profile is retrained without it. */
  async deletePhrase(userId: string, phraseId: string, deleteRow: () => Promise<void>) {
    const keys = (await this.deps.recordings.trainingTakes(userId))
      .filter((take) => take.phrase_id === phraseId)
      .map((take) => take.storage_key);
    await deleteRow();
    await Promise.all(
      keys
        .flatMap((key) => [key, analysisKeyOf(key), encoderViewKeyOf(key)])
        .map((key) => this.deps.storage.delete(key)),
    );
    if (keys.length > 0) await this.deps.jobs.enqueue(TRAIN_PROFILE_JOB, userId, {}, RETRAIN_DELAY_MS);
  }

  /** After a phrase's words change, its takes teach the new words. */
  async phraseChanged(userId: string, takes: number) {
    if (takes > 0) await this.deps.jobs.enqueue(TRAIN_PROFILE_JOB, userId, {}, RETRAIN_DELAY_MS);
  }

  /** Removes every file of the user (account deletion). */
  deleteAllFilesOf(userId: string) {
    return this.deps.storage.deletePrefix(`users/${userId}`);
  }

  private async recordingState(userId: string, hasModel: boolean): Promise<RecordingState> {
    if (hasModel) return 'model_built';
    const summary = await this.deps.recordings.trainingSummary(userId);
    if (summary.takes === 0) return 'no_records';
    // Waiting only when the queued training will really make the first profile.
    return meetsFirstProfileMinimum(summary.takes, summary.phrases) &&
      (await this.deps.jobs.isPending(TRAIN_PROFILE_JOB, userId))
      ? 'waiting_for_model'
      : 'record_in_progress';
  }
}

/**
 * Where the generic path's means adapted to a person's voice live: beside the profile version
 * they were made with (its meta's `voice_bytes` says there are some).
 */
export function voiceKeyOf(profileKey: string): string {
  return `${profileKey.replace(/\.bin$/, '')}.voice`;
}

/**
 * Where the speech encoder's views of a profile version's takes live, beside it (its meta's
 * `encoder_views_bytes` says there are some): read by the server's third opinion.
 */
export function encoderViewsKeyOf(profileKey: string): string {
  return `${profileKey.replace(/\.bin$/, '')}.views`;
}

/** Every file of a profile version: the profile, and beside it the means and the views. */
function filesOfVersion(profileKey: string): string[] {
  return [profileKey, voiceKeyOf(profileKey), encoderViewsKeyOf(profileKey)];
}

/**
 * Whether a profile was trained before the generic path was adapted to each voice (0128): its
 * meta has no `voice_knows`, not even null. Such a person is heard with the model's own means
 * until a retrain adapts them, which nothing else would start if they record nothing more.
 */
function trainedBeforeVoices(meta: Record<string, unknown>): boolean {
  return !('voice_knows' in meta);
}

/** A share (0..1) as kept in a model's meta: to a thousandth. */
function roundedShare(share: number): number {
  return Math.round(share * 1000) / 1000;
}

/** Where a take's kept analysis lives: beside its audio, under the user's folder. */
function analysisKeyOf(takeKey: string): string {
  return `${takeKey.replace(/\.wav$/, '')}.analysis`;
}

/** Where the speech encoder's kept view of a take lives: beside its audio. */
function encoderViewKeyOf(takeKey: string): string {
  return `${takeKey.replace(/\.wav$/, '')}.view`;
}

/** Whether `bytes` are a take's view this build's encoder and projection made. */
const isCurrentTakeView = (bytes: Uint8Array): boolean => decodeTakeView(bytes) !== undefined;

function meetsFirstProfileMinimum(takes: number, phrases: number) {
  return takes >= FIRST_PROFILE_MINIMUM.takes && phrases >= FIRST_PROFILE_MINIMUM.phrases;
}

/** The files of a model version a browser downloads. */
export const MODEL_FILES = ['profile', 'voice', 'views'] as const;
export type ModelFileName = (typeof MODEL_FILES)[number];

function fileUrl(id: string, version: number, file: ModelFileName) {
  return `/app/end_user/models/${id}/v${version}/${file}.bin`;
}

function modelUrl(id: string, version: number) {
  return fileUrl(id, version, 'profile');
}

/**
 * The phrase a voice memo's file name gives: its title, unless the app's default title
 * ("New Recording 3") or a date was left, which says nothing about the words.
 */
export function memoTitle(fileName: string): { text?: string; reason?: string } {
  const title = fileName
    .replace(/\.[^.]+$/, '')
    .replace(/[_]+/g, ' ')
    .trim();
  const untitled =
    /^(new )?recording( \d+)?$/i.test(title) || /^[\d\s.:-]+$/.test(title) || !/\p{L}/u.test(title);
  return untitled
    ? {
        reason:
          'This memo still has its default title: rename it to the words you say, or add a transcripts file.',
      }
    : { text: title };
}
