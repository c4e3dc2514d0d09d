import { PROFILE_FIELDS, type Profile, type UpdateProfileRequest } from '@parla/contract';
import { ApiError } from '../../lib/api-error';

/** Keeps only the profile's known fields (spec section 5). */
export function pickProfileFields(input: Record<string, unknown>): UpdateProfileRequest {
  const picked: Record<string, unknown> = {};
  for (const field of PROFILE_FIELDS) if (input[field] !== undefined) picked[field] = input[field];
  return picked;
}

/**
 * Sends a profile update: only known fields, nothing when none is present, and one retry
 * with the current name when the server asks for it (spec section 5).
 */
export async function updateProfile(
  input: Record<string, unknown>,
  currentName: () => string | undefined,
  send: (body: UpdateProfileRequest) => Promise<Profile>,
): Promise<Profile | null> {
  const body = pickProfileFields(input);
  if (Object.keys(body).length === 0) return null;
  try {
    return await send(body);
  } catch (error) {
    const name = currentName();
    if (
      body.name === undefined &&
      name &&
      error instanceof ApiError &&
      error.status === 400 &&
      error.message === 'name is required'
    ) {
      return send({ ...body, name });
    }
    throw error;
  }
}
