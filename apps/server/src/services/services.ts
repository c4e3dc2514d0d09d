import path from 'node:path';
import type { FeatureFlags } from '@parla/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config/env.js';
import type { Db } from '../db/database.js';
import type { Mailer } from '../mail/mailer.js';
import { JobQueue } from '../jobs/job-queue.js';
import { FeedbackRepository } from '../repositories/feedback.repository.js';
import { RecordingsRepository } from '../repositories/recordings.repository.js';
import { LocalStorage } from '../storage/local-storage.js';
import { PhrasesRepository } from '../repositories/phrases.repository.js';
import { ShortcutsRepository } from '../repositories/shortcuts.repository.js';
import { ProfilesRepository } from '../repositories/profiles.repository.js';
import { sharedSecret } from '../repositories/secrets.repository.js';
import { SessionsRepository } from '../repositories/sessions.repository.js';
import { SubscriptionsRepository } from '../repositories/subscriptions.repository.js';
import { UsersRepository } from '../repositories/users.repository.js';
import { AccountService } from './account.service.js';
import { AuthService } from './auth.service.js';
import { FeedbackService } from './feedback.service.js';
import { PhrasesService } from './phrases.service.js';
import { RecognitionService } from './recognition.service.js';
import {
  InlineSecondOpinionListener,
  listenerWorkerFile,
  ThreadedSecondOpinionListener,
} from './second-opinion-listener.js';
import { SubscriptionService } from './subscription.service.js';
import { TokenService } from './token.service.js';
import { TtsService } from './tts.service.js';
import { EspeakEngine } from '../tts/espeak-engine.js';
import { InlineSpeechRenderer } from '../tts/speech-renderer.js';
import { speechWorkerFile, ThreadedSpeechRenderer } from '../tts/threaded-speech-renderer.js';
import { ProfileLoader, profileLoaderWorkerFile } from './profile-loader.js';
import { SpeechEncoderThread, speechEncoderWorkerFile } from './speech-encoder.js';
import { TRAIN_PROFILE_JOB, VoiceProfileService } from './voice-profile.service.js';

export type Services = Awaited<ReturnType<typeof createServices>>;

/** Wires repositories and services over one database and mailer. */
export async function createServices(config: Config, db: Db, mailer: Mailer, log: FastifyBaseLogger) {
  const users = new UsersRepository(db);
  const profiles = new ProfilesRepository(db);
  const sessions = new SessionsRepository(db);
  const subscriptions = new SubscriptionsRepository(db);
  const feedbackRepository = new FeedbackRepository(db);
  const phrasesRepository = new PhrasesRepository(db);
  const storage = new LocalStorage(path.join(config.dataDir, 'blobs'));
  const jobs = new JobQueue(db, log);
  const recordings = new RecordingsRepository(db);
  const voiceProfile = new VoiceProfileService({
    phrases: phrasesRepository,
    recordings,
    users,
    storage,
    jobs,
    log,
    loader: new ProfileLoader(profileLoaderWorkerFile()),
  });
  jobs.register(TRAIN_PROFILE_JOB, (job) => voiceProfile.train(job));
  const tokens = new TokenService(
    config.jwtSecret ?? (await sharedSecret(db, 'jwt')),
    config.accessTokenTtlSeconds,
  );

  // What this build offers; the client hides what is off.
  const featureFlags: FeatureFlags = {
    social_sign_in: false,
    local_recognition: true,
    chat_assistant: false,
    meeting_captions: false,
    imports: true,
  };

  const speechEngine = new EspeakEngine();
  const speechWorker = speechWorkerFile();
  const speechRenderer = speechWorker
    ? new ThreadedSpeechRenderer(speechWorker)
    : new InlineSpeechRenderer(speechEngine);
  const listenerWorker = listenerWorkerFile();
  const secondOpinionListener = listenerWorker
    ? new ThreadedSecondOpinionListener(listenerWorker)
    : new InlineSecondOpinionListener();

  return {
    config,
    db,
    mailer,
    tokens,
    sessions,
    featureFlags,
    version: process.env.npm_package_version ?? '0.1.0',
    auth: new AuthService({ config, users, profiles, sessions, subscriptions, tokens, mailer }),
    jobs,
    voiceProfile,
    tts: new TtsService({ voices: speechEngine.voices, renderer: speechRenderer, storage, log }),
    recognition: new RecognitionService(
      recordings,
      users,
      phrasesRepository,
      storage,
      secondOpinionListener,
      log,
      voiceProfile,
      new SpeechEncoderThread(speechEncoderWorkerFile()),
    ),
    account: new AccountService({ users, profiles, sessions, feedback: feedbackRepository, voiceProfile }),
    subscription: new SubscriptionService(subscriptions, users),
    feedback: new FeedbackService(config, feedbackRepository, users, mailer),
    phrases: new PhrasesService(phrasesRepository, new ShortcutsRepository(db)),
  };
}
