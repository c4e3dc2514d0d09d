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

describe('RecognitionService.hearUnrecorded', () => {
  it("asks the generic path with the person's phrases and those the profile has takes of", async () => {
    const { service, listener } = serviceFor(['Yes', 'No', 'Call my son'], () =>
      Promise.resolve({ text: 'Call my son', confidence: 0.8 }),
    );
    expect(await service.hearUnrecorded('u1', model(true), audio)).toEqual({
      text: 'Call my son',
      confidence: 0.8,
    });
    expect(listener.hear).toHaveBeenCalledWith({
      phrases: ['Yes', 'No', 'Call my son'],
      recorded: ['Yes', 'No'],
      audio,
    });
  });

  it('does not ask for a voice it does not know, nor when every phrase is recorded', async () => {
    const unknownVoice = serviceFor(['Yes', 'No', 'Call my son'], () => Promise.resolve(null));
    expect(await unknownVoice.service.hearUnrecorded('u1', model(false), audio)).toBeNull();
    expect(unknownVoice.listener.hear).not.toHaveBeenCalled();
    // Recorded under other spelling and case: the same phrase.
    const allRecorded = serviceFor(['yes.', 'NO'], () => Promise.resolve(null));
    expect(await allRecorded.service.hearUnrecorded('u1', model(true), audio)).toBeNull();
    expect(allRecorded.listener.hear).not.toHaveBeenCalled();
  });

  it('leaves the rejection standing when the generic path fails', async () => {
    const { service, log } = serviceFor(['Yes', 'No', 'Call my son'], () =>
      Promise.reject(new Error('generic listener stopped')),
    );
    expect(await service.hearUnrecorded('u1', model(true), audio)).toBeNull();
    expect(log.error).toHaveBeenCalledTimes(1);
  });
});
