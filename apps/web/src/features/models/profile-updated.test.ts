import { describe, expect, it } from 'vitest';
import { acousticModelVersion, profileUpdatedState } from './profile-updated';

describe('profile-updated dialog', () => {
  it('opens for the unlock task', () => {
    expect(
      profileUpdatedState({ tasks: ['notify_casr_recognition_unlocked'], version: '2', storedVersion: '2' }),
    ).toEqual({
      open: true,
      reason: 'task',
      version: '2',
    });
  });

  it('only stores the version the first time it sees one', () => {
    expect(profileUpdatedState({ tasks: [], version: '1', storedVersion: undefined })).toEqual({
      open: false,
      storeVersion: '1',
    });
  });

  it('opens when the version changed, not when it is the same', () => {
    expect(profileUpdatedState({ tasks: [], version: '3', storedVersion: '2' })).toMatchObject({
      open: true,
      reason: 'version',
    });
    expect(profileUpdatedState({ tasks: [], version: '3', storedVersion: '3' })).toEqual({
      open: false,
      storeVersion: null,
    });
    expect(profileUpdatedState({ tasks: [], version: null, storedVersion: '3' })).toEqual({
      open: false,
      storeVersion: null,
    });
  });

  it('reads the newest built acoustic model version', () => {
    expect(
      acousticModelVersion([
        { type: 'language', version: 9 },
        { type: 'acoustic', version: 2 },
        { type: 'acoustic', version: 10 },
      ]),
    ).toBe('10');
    expect(acousticModelVersion([{ type: 'language', version: 9 }])).toBeNull();
  });
});
