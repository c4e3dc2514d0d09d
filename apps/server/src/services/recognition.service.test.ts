import type { Matcher } from '@parla/speech';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import type { PhrasesRepository } from '../repositories/phrases.repository.js';
import type { RecordingsRepository } from '../repositories/recordings.repository.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import type { BlobStorage } from '../storage/blob-storage.js';
import { RecognitionService, type LoadedModel } from './recognition.service.js';
import type { UnrecordedListener } from './unrecorded-listener.js';

/** A service over a person with these phrases, and a generic path that hears `heard`. */
function serviceFor(phrases: string[], hear: UnrecordedListener['hear']) {
  const listener = { hear: vi.fn(hear), close: vi.fn() };
  const log = { error: vi.fn() };
  const service = new RecognitionService(
    {} as unknown as RecordingsRepository,
    {} as unknown as UsersRepository,
    { list: () => Promise.resolve(phrases.map((text) => ({ text }))) } as unknown as PhrasesRepository,
    {} as BlobStorage,
    listener,
    log as unknown as FastifyBaseLogger,
  );
  return { service, listener, log };
}

/** A profile of "Yes" and "No", and the slot of utterances marked as none of them. */
function model(genericTrusted: boolean): LoadedModel {
  const profile = { phrases: ['Yes', 'No', ''], unknownPhrase: 2 };
  return { matcher: { profile } as unknown as Matcher, version: 3, genericTrusted };
}

const audio = new Float32Array(16_000);

describe('RecognitionService.hearAgain', () => {
  it("asks the generic path with the person's phrases, those the profile has takes of, and its guesses", async () => {
    const heard = { text: 'Call my son', confidence: 0.8, recorded: false };
    const { service, listener } = serviceFor(['Yes', 'No', 'Call my son'], () => Promise.resolve(heard));
    expect(await service.hearAgain('u1', model(true), audio, ['No'])).toEqual(heard);
    expect(listener.hear).toHaveBeenCalledWith({
      userId: 'u1',
      phrases: ['Yes', 'No', 'Call my son'],
      recorded: ['Yes', 'No'],
      audio,
      guesses: ['No'],
    });
  });

  it('asks when every phrase is recorded too: the generic path may second the guess', async () => {
    const seconded = { text: 'yes.', confidence: 0.7, recorded: true };
    const { service, listener } = serviceFor(['yes.', 'NO'], () => Promise.resolve(seconded));
    expect(await service.hearAgain('u1', model(true), audio, ['Yes'])).toEqual(seconded);
    expect(listener.hear).toHaveBeenCalledTimes(1);
  });

  it('does not ask for a voice it does not know, nor about no audio', async () => {
    const unknownVoice = serviceFor(['Yes', 'No', 'Call my son'], () => Promise.resolve(null));
    expect(await unknownVoice.service.hearAgain('u1', model(false), audio, ['Yes'])).toBeNull();
    expect(await unknownVoice.service.hearAgain('u1', model(true), new Float32Array(0), ['Yes'])).toBeNull();
    expect(unknownVoice.listener.hear).not.toHaveBeenCalled();
  });

  it('leaves the rejection standing when the generic path fails', async () => {
    const { service, log } = serviceFor(['Yes', 'No', 'Call my son'], () =>
      Promise.reject(new Error('generic listener stopped')),
    );
    expect(await service.hearAgain('u1', model(true), audio, ['Yes'])).toBeNull();
    expect(log.error).toHaveBeenCalledTimes(1);
  });
});
