import {
  encoderTemplate,
  serializeEncoderViews,
  trainProfile,
  type Matcher,
  type RecognitionStream,
  type Sequence,
} from '@parla/speech';
import type { FastifyBaseLogger } from 'fastify';
import { take } from '../../../../packages/speech/src/test/phrases.js';
import { describe, expect, it, vi } from 'vitest';
import type { PhrasesRepository } from '../repositories/phrases.repository.js';
import type { RecordingsRepository } from '../repositories/recordings.repository.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import type { BlobStorage } from '../storage/blob-storage.js';
import { RecognitionService, type LoadedModel } from './recognition.service.js';
import type { SecondOpinionListener } from './second-opinion-listener.js';

/** An encoder that is never asked. */
const unasked = { view: () => Promise.reject(new Error('not asked')), close: () => Promise.resolve() };

/** A service over a person with these phrases, and a generic path that hears `heard`. */
function serviceFor(
  phrases: string[],
  hear: SecondOpinionListener['hear'],
  follow: SecondOpinionListener['follow'] = ({ events }) => Promise.resolve(events),
  encoder: { view: (audio: Float32Array) => Promise<Sequence>; close: () => Promise<void> } = unasked,
) {
  const listener = {
    getReady: vi.fn(() => Promise.resolve()),
    hear: vi.fn(hear),
    startStream: vi.fn(() => Promise.resolve()),
    follow: vi.fn(follow),
    endStream: vi.fn(() => Promise.resolve()),
    close: vi.fn(),
  };
  const log = { error: vi.fn() };
  const service = new RecognitionService(
    {} as unknown as RecordingsRepository,
    {} as unknown as UsersRepository,
    { list: () => Promise.resolve(phrases.map((text) => ({ text }))) } as unknown as PhrasesRepository,
    {} as BlobStorage,
    listener,
    log as unknown as FastifyBaseLogger,
    { loadProfile: vi.fn() },
    encoder,
  );
  return { service, listener, log };
}

/** A profile of "Yes" and "No", and the slot of utterances marked as none of them. */
function model(
  genericTrusted: boolean,
  voice?: LoadedModel['voice'],
  encoder?: LoadedModel['encoder'],
): LoadedModel {
  const profile = { phrases: ['Yes', 'No', ''], unknownPhrase: 2 };
  return { matcher: { profile } as unknown as Matcher, version: 3, genericTrusted, voice, encoder };
}

/** Means adapted to the person's voice. */
const voice = { key: 'users/u1/models/acoustic-3.voice', means: new Uint8Array([1, 2, 3]) };

const audio = new Float32Array(16_000);

const rejected = {
  text: null,
  confidence: 0.2,
  rejected: true,
  alternatives: [{ text: 'No', confidence: 0.2 }],
};
const sure = {
  text: 'Yes',
  confidence: 0.95,
  rejected: false,
  alternatives: [{ text: 'Yes', confidence: 0.95 }],
};
const doubtful = { ...sure, confidence: 0.6, alternatives: [{ text: 'Yes', confidence: 0.6 }] };

describe('RecognitionService.hearAgain', () => {
  it("asks the generic path with the person's phrases, those the profile has takes of, and its result", async () => {
    const answered = { ...rejected, text: 'Call my son', rejected: false, generic: true as const };
    const { service, listener } = serviceFor(['Yes', 'No', 'Call my son'], () => Promise.resolve(answered));
    expect(await service.hearAgain('u1', model(true, voice), () => audio, rejected)).toEqual(answered);
    expect(listener.hear).toHaveBeenCalledWith({
      userId: 'u1',
      voice,
      phrases: ['Yes', 'No', 'Call my son'],
      recorded: ['Yes', 'No'],
      audio,
      result: rejected,
    });
  });

  it('asks about an answer in doubt, and not about a sure one', async () => {
    const { service, listener } = serviceFor(['Yes', 'No'], ({ result }) => Promise.resolve(result));
    expect(await service.hearAgain('u1', model(true), () => audio, doubtful)).toEqual(doubtful);
    expect(listener.hear).toHaveBeenCalledTimes(1);
    expect(await service.hearAgain('u1', model(true), () => audio, sure)).toBe(sure);
    expect(listener.hear).toHaveBeenCalledTimes(1);
  });

  it('does not ask for a voice it does not know, nor about no audio', async () => {
    const unknownVoice = serviceFor(['Yes', 'No', 'Call my son'], () => Promise.reject(new Error('asked')));
    expect(await unknownVoice.service.hearAgain('u1', model(false), () => audio, doubtful)).toBe(doubtful);
    expect(await unknownVoice.service.hearAgain('u1', model(true), () => new Float32Array(0), rejected)).toBe(
      rejected,
    );
    expect(unknownVoice.listener.hear).not.toHaveBeenCalled();
  });

  it("leaves the profile's result standing when the generic path fails", async () => {
    const { service, log } = serviceFor(['Yes', 'No', 'Call my son'], () =>
      Promise.reject(new Error('generic listener stopped')),
    );
    expect(await service.hearAgain('u1', model(true), () => audio, doubtful)).toBe(doubtful);
    expect(log.error).toHaveBeenCalledTimes(1);
  });
});

describe('RecognitionService.follow', () => {
  const final = { type: 'final' as const, start: 0.5, end: 1.1, ...rejected };
  const answered = { ...final, text: 'No', rejected: false, seconded: true as const };
  const progress = { speechUntil: undefined, expected: undefined, lastEnded: { start: 0.5, end: 1.1 } };
  const stream = progress as unknown as RecognitionStream;
  const samples = new Float32Array(3200);

  it("follows a known voice's stream: its audio, the profile's events and its progress go to the generic path", async () => {
    const { service, listener } = serviceFor(
      ['Yes', 'No'],
      () => Promise.reject(new Error('asked')),
      () => Promise.resolve([answered]),
    );
    const followed = await service.followStream('u1', model(true, voice));
    const streamId = followed?.streamId;
    // The person's phrases and voice go once, as the stream starts; each push carries only its own.
    expect(listener.startStream).toHaveBeenCalledWith({
      streamId,
      userId: 'u1',
      voice,
      phrases: ['Yes', 'No'],
      recorded: ['Yes', 'No'],
    });
    expect(await service.follow(followed, samples, [final], stream)).toEqual([answered]);
    expect(await service.follow(followed, samples, [], stream)).toEqual([answered]);
    expect(listener.follow).toHaveBeenCalledWith({ streamId, samples, events: [final], progress });
    expect(listener.startStream).toHaveBeenCalledTimes(1);
    await service.endFollowing(followed);
    expect(listener.endStream).toHaveBeenCalledWith(followed?.streamId);
  });

  it("does not follow a voice it does not know, and leaves the profile's events when it fails", async () => {
    const failing = serviceFor(
      ['Yes', 'No'],
      () => Promise.reject(new Error('asked')),
      () => Promise.reject(new Error('generic listener stopped')),
    );
    expect(await failing.service.followStream('u1', model(false))).toBeUndefined();
    expect(await failing.service.follow(undefined, samples, [final], stream)).toEqual([final]);
    expect(failing.listener.follow).not.toHaveBeenCalled();
    const followed = await failing.service.followStream('u1', model(true));
    expect(await failing.service.follow(followed, samples, [final], stream)).toEqual([final]);
    expect(failing.log.error).toHaveBeenCalledTimes(1);
    // A generic path that cannot start a stream does not follow it.
    failing.listener.startStream.mockRejectedValueOnce(new Error('generic listener stopped'));
    expect(await failing.service.followStream('u1', model(true))).toBeUndefined();
    expect(failing.log.error).toHaveBeenCalledTimes(2);
  });
});

describe('RecognitionService.getGenericPathReady', () => {
  it("readies the person's engine with their voice and phrases, for a voice it knows only", async () => {
    const { service, listener } = serviceFor(['Yes', 'No', 'Call my son'], () =>
      Promise.reject(new Error('not asked')),
    );
    await service.getGenericPathReady('u1', model(true, voice));
    expect(listener.getReady).toHaveBeenCalledWith({
      userId: 'u1',
      voice,
      phrases: ['Yes', 'No', 'Call my son'],
      recorded: ['Yes', 'No'],
    });
    await service.getGenericPathReady('u2', model(false));
    expect(listener.getReady).toHaveBeenCalledTimes(1);
  });

  it('logs a generic path that cannot get ready, and does not fail', async () => {
    const { service, listener, log } = serviceFor(['Yes', 'No'], () =>
      Promise.reject(new Error('not asked')),
    );
    listener.getReady.mockRejectedValueOnce(new Error('generic listener stopped'));
    await expect(service.getGenericPathReady('u1', model(true))).resolves.toBeUndefined();
    expect(log.error).toHaveBeenCalledTimes(1);
  });
});

/** A view of `frames` unit frames along value `along` (of 64, as the encoder's are). */
function viewAlong(along: number, frames = 6): Sequence {
  const data = new Float32Array(frames * 64);
  for (let t = 0; t < frames; t++) data[t * 64 + along] = 1;
  return { frames, dim: 64, data };
}

/** The encoder's views of the person's takes: "Yes", "No" and four more phrases lie apart. */
const encoderPhrases = ['Yes', 'No', 'Help', 'Water', 'Tea', 'Bed'];
const encoderTakes = encoderPhrases.flatMap((text, along) =>
  [0, 1].map(() => encoderTemplate(text, viewAlong(along))),
);

describe('RecognitionService.hearWithEncoder', () => {
  const encoderHearing = (view: Sequence | Error) => {
    const encoder = {
      view: vi.fn(() => (view instanceof Error ? Promise.reject(view) : Promise.resolve(view))),
      close: () => Promise.resolve(),
    };
    const { service, log } = serviceFor(
      encoderPhrases,
      () => Promise.reject(new Error('not asked')),
      undefined,
      encoder,
    );
    return { service, log, encoder };
  };

  it("accepts a rejected final's first guess that the encoder names too, as seconded", async () => {
    const { service, encoder } = encoderHearing(viewAlong(1));
    const heard = await service.hearWithEncoder(model(false, undefined, encoderTakes), () => audio, rejected);
    expect(heard).toEqual({ ...rejected, text: 'No', rejected: false, seconded: true });
    expect(encoder.view).toHaveBeenCalledWith(audio);
  });

  it('leaves a rejection the encoder names otherwise, and asks nothing of an accepted final', async () => {
    const { service, encoder } = encoderHearing(viewAlong(2));
    const withViews = model(false, undefined, encoderTakes);
    expect(await service.hearWithEncoder(withViews, () => audio, rejected)).toEqual(rejected);
    expect(await service.hearWithEncoder(withViews, () => audio, sure)).toEqual(sure);
    expect(encoder.view).toHaveBeenCalledTimes(1);
  });

  it('uses a view begun ahead, while the end-point was waited out, instead of viewing again', async () => {
    const { service, encoder } = encoderHearing(viewAlong(2));
    const utterance = vi.fn(() => audio);
    const heard = await service.hearWithEncoder(
      model(false, undefined, encoderTakes),
      utterance,
      rejected,
      Promise.resolve(viewAlong(1)),
    );
    expect(heard).toEqual({ ...rejected, text: 'No', rejected: false, seconded: true });
    expect(encoder.view).not.toHaveBeenCalled();
    expect(utterance).not.toHaveBeenCalled();
  });

  it('asks nothing for a profile without the views', async () => {
    const { service, encoder } = encoderHearing(viewAlong(1));
    expect(await service.hearWithEncoder(model(false), () => audio, rejected)).toEqual(rejected);
    expect(encoder.view).not.toHaveBeenCalled();
  });

  it('logs an encoder that fails, and leaves the result as it was', async () => {
    const { service, log } = encoderHearing(new Error('the encoder stopped'));
    expect(
      await service.hearWithEncoder(model(false, undefined, encoderTakes), () => audio, rejected),
    ).toEqual(rejected);
    expect(log.error).toHaveBeenCalledTimes(1);
  });
});

describe('RecognitionService.loadModel', () => {
  /** A service whose people each have a profile of three phrases, with the encoder's views of
   * six phrases' takes beside it when `views`. */
  function loading(views: boolean) {
    const encoder = { view: vi.fn(() => Promise.resolve(viewAlong(0))), close: () => Promise.resolve() };
    const profile = trainProfile(
      ['open the door', 'close it', 'help'].flatMap((text, p) =>
        [0, 1].map((t) => ({ text, audio: take(p, t) })),
      ),
    );
    const service = new RecognitionService(
      {
        latestModel: () =>
          Promise.resolve({
            version: 1,
            storage_key: 'users/a/models/acoustic-1.bin',
            meta: views ? { encoder_views_bytes: 100 } : {},
          }),
      } as unknown as RecordingsRepository,
      {} as unknown as UsersRepository,
      {} as unknown as PhrasesRepository,
      { get: () => Promise.resolve(serializeEncoderViews(encoderTakes)) } as unknown as BlobStorage,
      serviceFor([], () => Promise.reject(new Error('not asked'))).listener,
      { warn: vi.fn(), error: vi.fn() } as unknown as FastifyBaseLogger,
      { loadProfile: () => Promise.resolve(profile) },
      encoder,
    );
    return { service, encoder };
  }

  it('loads the speech encoder in its thread once, with the first profile it will hear', async () => {
    const { service, encoder } = loading(true);
    expect((await service.loadModel('a'))?.encoder).toHaveLength(encoderTakes.length);
    expect(encoder.view).toHaveBeenCalledTimes(1);
    await service.loadModel('b');
    expect(encoder.view).toHaveBeenCalledTimes(1);
  });

  it('leaves the encoder unloaded for profiles without its views', async () => {
    const { service, encoder } = loading(false);
    expect((await service.loadModel('a'))?.encoder).toBeUndefined();
    expect(encoder.view).not.toHaveBeenCalled();
  });
});

describe('RecognitionService.store', () => {
  it('keeps with a result who answered it: the generic path alone, seconding, or doubting', async () => {
    const inserted: { metadata: Record<string, unknown> }[] = [];
    const service = new RecognitionService(
      {
        insert: (row: { metadata: Record<string, unknown> }) => inserted.push(row),
      } as unknown as RecordingsRepository,
      { findById: () => Promise.resolve({ opt_out_audio_recognition: false }) } as unknown as UsersRepository,
      {} as unknown as PhrasesRepository,
      { put: () => Promise.resolve() } as unknown as BlobStorage,
      serviceFor([], () => Promise.reject(new Error('not asked'))).listener,
      { error: vi.fn() } as unknown as FastifyBaseLogger,
      { loadProfile: vi.fn() },
      unasked,
    );
    const result = {
      text: null,
      confidence: 0.6,
      rejected: true,
      alternatives: [{ text: 'Yes', confidence: 0.6 }],
      recognition_mode: 'speak' as const,
      duration: 1,
      acoustic_model_id: 3,
      confidence_threshold: 0.5,
    };
    const context = { provider: 'casr' as const, mode: 'speak' as const };
    for (const marks of [{ doubted: true }, { seconded: true }, { generic: true }, {}])
      await service.store('r1', 'u1', { ...result, ...marks }, audio, context);
    expect(inserted.map((row) => row.metadata)).toMatchObject([
      { doubted: true, rejected: true },
      { seconded: true },
      { generic: true },
      { rejected: true },
    ]);
    const marked = (row: { metadata: Record<string, unknown> }) =>
      ['generic', 'seconded', 'doubted'].filter((mark) => mark in row.metadata);
    expect(inserted.map(marked)).toEqual([['doubted'], ['seconded'], ['generic'], []]);
  });
});
