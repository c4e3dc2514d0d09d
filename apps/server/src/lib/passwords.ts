import argon2 from 'argon2';

// OWASP's argon2id baseline: 19 MiB, 2 iterations, 1 lane. The input is already a
// PBKDF2 hash from the client, so this guards the database, not the wire.
const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (transportHash: string) => argon2.hash(transportHash, OPTIONS);

export async function verifyPassword(storedHash: string, transportHash: string) {
  try {
    return await argon2.verify(storedHash, transportHash);
  } catch {
    return false;
  }
}

// Verifying against this when the email is unknown keeps response times alike, so
// timing does not tell which addresses have accounts.
let decoy: Promise<string> | undefined;
export async function verifyAgainstDecoy(transportHash: string) {
  decoy ??= hashPassword('0'.repeat(64));
  await verifyPassword(await decoy, transportHash);
  return false;
}
