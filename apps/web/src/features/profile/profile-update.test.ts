import type { Profile, UpdateProfileRequest } from '@parla/contract';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-error';
import { pickProfileFields, updateProfile } from './profile-update';

const profile = { name: 'Alex' } as Profile;

describe('profile update', () => {
  it('sends only known profile fields', () => {
    expect(pickProfileFields({ name: 'A', country: 'US', email: 'x@y.z', unknown: 1 })).toEqual({
      name: 'A',
      country: 'US',
    });
  });

  it('sends nothing when no known field is present', async () => {
    const send = vi.fn(() => Promise.resolve(profile));
    await expect(updateProfile({ email: 'x@y.z' }, () => 'Alex', send)).resolves.toBeNull();
    expect(send).not.toHaveBeenCalled();
  });

  it("retries once with the current name after 400 'name is required'", async () => {
    const send = vi
      .fn<(body: UpdateProfileRequest) => Promise<Profile>>()
      .mockRejectedValueOnce(new ApiError(400, 'name is required'))
      .mockResolvedValueOnce(profile);
    await expect(updateProfile({ country: 'US' }, () => 'Alex', send)).resolves.toBe(profile);
    expect(send.mock.calls).toEqual([[{ country: 'US' }], [{ country: 'US', name: 'Alex' }]]);
  });

  it('does not retry other failures', async () => {
    const send = vi
      .fn<(body: UpdateProfileRequest) => Promise<Profile>>()
      .mockRejectedValue(new ApiError(400, 'country is bad'));
    await expect(updateProfile({ country: 'XX' }, () => 'Alex', send)).rejects.toThrow('country is bad');
    expect(send).toHaveBeenCalledTimes(1);
  });
});
