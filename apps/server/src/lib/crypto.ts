import { createHash, randomBytes, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';

export const newId = () => randomUUID();

/** An unguessable token for the client to hold; only its hash is stored. */
export const newOpaqueToken = () => randomBytes(32).toString('base64url');

export const sha256 = (value: string | Uint8Array) => createHash('sha256').update(value).digest('hex');

/** A 6-digit code, uniformly drawn, with leading zeros kept. */
export const newSixDigitCode = () => randomInt(0, 1_000_000).toString().padStart(6, '0');

export function safeEqual(a: string, b: string) {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
