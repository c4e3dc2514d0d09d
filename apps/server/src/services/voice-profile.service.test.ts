import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { fsddTake } from '../../test/support/audio.js';
import type { JobQueue } from '../jobs/job-queue.js';
import type { PhrasesRepository } from '../repositories/phrases.repository.js';
import type { RecordingsRepository } from '../repositories/recordings.repository.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import type { BlobStorage } from '../storage/blob-storage.js';
import { VoiceProfileService } from './voice-profile.service.js';

/** Blobs in memory. */
class MemoryStorage implements BlobStorage {
  readonly files = new Map<string, Uint8Array>();
  put(key: string, data: Uint8Array) {
    this.files.set(key, data);
    return Promise.resolve();
  }
  get(key: string) {
    const data = this.files.get(key);
    return data === undefined ? Promise.reject(new Error(`no blob ${key}`)) : Promise.resolve(data);
  }
  delete(key: string) {
    this.files.delete(key);
    return Promise.resolve();
  }
  deletePrefix(prefix: string) {
    for (const key of [...this.files.keys()]) if (key.startsWith(`${prefix}/`)) this.files.delete(key);
    return Promise.resolve();
  }
  keysOf(userId: string) {
    return [...this.files.keys()].filter((key) => key.startsWith(`users/${userId}/`));
  }
}

/**
 * A user with a take of each of six digits (enough phrases for the speech encoder's views,
 * docs/decisions/0146), whose account is deleted as the training job ends:
 * `insertModel` runs the account deletion (its rows, then its folder) and then fails as
 * the database does for a user who is gone, unless `userStays`.
 */
function deletedWhileTraining(userStays = false) {
  const storage = new MemoryStorage();
  let deleted = false;
  const digits = [1, 2, 3, 4, 5, 6];
  const rows = digits.map((digit) => {
    const key = `users/u1/takes/${digit}-0.wav`;
    storage.files.set(key, fsddTake(digit, 'george', 0));
    return { id: key, storage_key: key, metadata: null, text: `digit ${digit}`, phrase_id: `p${digit}` };
  });
  const recordings = {
    trainingTakes: () => Promise.resolve(rows),
    latestModel: () => Promise.resolve(undefined),
    insertModel: async () => {
      if (!userStays) {
        deleted = true;
        await storage.deletePrefix('users/u1');
      }
      throw new Error('insert or update on table "models" violates foreign key constraint');
    },
  };
  const users = { findById: () => Promise.resolve(deleted ? undefined : { id: 'u1' }), addTask: vi.fn() };
  const log = { info: vi.fn(), warn: vi.fn() };
  const service = new VoiceProfileService({
    recordings: recordings as unknown as RecordingsRepository,
    users: users as unknown as UsersRepository,
    storage,
    log: log as unknown as FastifyBaseLogger,
    // The job reads the person's phrases to judge the generic path on their voice.
    phrases: {
      list: () => Promise.resolve(digits.map((digit) => ({ text: `digit ${digit}` }))),
    } as unknown as PhrasesRepository,
    // Not used by a training job.
    jobs: {} as unknown as JobQueue,
  });
  const job = { id: 'j1', kind: 'train_profile', userId: 'u1', payload: {}, attempts: 0 };
  return { storage, users, train: () => service.train(job) };
}

describe('a training job whose account is deleted meanwhile', () => {
  it('leaves none of the files it wrote (analyses, views, model) behind', async () => {
    const { storage, users, train } = deletedWhileTraining();
    await train();
    expect(storage.keysOf('u1')).toEqual([]);
    expect(users.addTask).not.toHaveBeenCalled();
  });

  it('still fails, keeping its files, when the model could not be recorded for another reason', async () => {
    const { storage, train } = deletedWhileTraining(true);
    await expect(train()).rejects.toThrow(/foreign key/);
    expect(storage.keysOf('u1').filter((key) => key.endsWith('.analysis'))).toHaveLength(6);
    expect(storage.keysOf('u1').filter((key) => key.endsWith('.view'))).toHaveLength(6);
    // The profile and the encoder's views beside it.
    expect(
      storage
        .keysOf('u1')
        .filter((key) => key.includes('/models/'))
        .sort(),
    ).toEqual(['users/u1/models/acoustic-1.bin', 'users/u1/models/acoustic-1.views']);
  });
});
